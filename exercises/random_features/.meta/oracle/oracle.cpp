// The oracle of exercise 3, `random_features`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "oracle/makers.hpp"

#include <cmath>
#include <string>
#include <vector>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References random_features_reference{
    api::reference("positive_random_features", &linref::positive_random_features),
    api::reference("softmax_kernel_estimate", &linref::softmax_kernel_estimate),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================

// ---- positive_random_features ------------------------------------------------------------

json features_call(const Matrix& X, const Matrix& Omega) {
  return json{{"X", wire::from_matrix(X)}, {"Omega", wire::from_matrix(Omega)}};
}

auto features_calls(FeatureInputs in) {
  return [in](std::uint64_t seed) {
    linref::Rng rng(seed);
    const Matrix Omega = in.orthogonal ? linref::orthogonal_omega(in.d_phi, in.d_k, rng)
                                       : linref::gaussian_omega(in.d_phi, in.d_k, rng);
    return json::array({features_call(random_matrix(rng, in.n, in.d_k, in.scale), Omega)});
  };
}

// exp(X Omega^T + shift_r) * scale, with shift_r = -norm_factor |x_r|^2.
Matrix exp_features(const Matrix& X, const Matrix& Omega, double norm_factor, double scale) {
  Matrix E = X * Omega.transpose();  // (n, d_phi)
  for (Eigen::Index r = 0; r < X.rows(); ++r)
    E.row(r).array() -= norm_factor * X.row(r).squaredNorm();
  return (E.array().exp() * scale).matrix();
}

std::vector<Suspect> feature_suspects(const Matrix& X, const Matrix& Omega) {
  const double d_phi = static_cast<double>(Omega.rows());
  const double d_k = static_cast<double>(Omega.cols());
  // The starter's trigonometric features have 2 d_phi columns: the judge names them by their
  // shape (shape_mistake) before any suspect is compared, so they need none here.
  std::vector<Suspect> s;
  s.push_back(
      {"the factor exp(-|x|^2/2) is missing; without it the estimate is no longer "
       "unbiased for exp(q^T k).",
       exp_features(X, Omega, 0.0, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the factor is exp(-|x|^2) where it should be exp(-|x|^2/2).",
               exp_features(X, Omega, 1.0, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the factor exp(-|x|^2/2) has the wrong sign; it shrinks the features.",
               exp_features(X, Omega, -0.5, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the 1/sqrt(d_phi) scale is missing.", exp_features(X, Omega, 0.5, 1.0)});
  s.push_back(
      {"the features are scaled by 1/d_phi; each feature gets 1/sqrt(d_phi), so that "
       "the dot product of two feature vectors carries 1/d_phi.",
       exp_features(X, Omega, 0.5, 1.0 / d_phi)});
  s.push_back(
      {"a temperature was applied (x scaled by d_k^(-1/4)); this exercise uses x as "
       "given.",
       exp_features(X / std::pow(d_k, 0.25), Omega, 0.5, 1.0 / std::sqrt(d_phi))});
  if (Omega.rows() == Omega.cols())  // only then does X Omega have the right shape
    s.push_back(
        {"Omega is used transposed (X Omega instead of X Omega^T); its rows are the "
         "directions w_i.",
         [&] {
           Matrix E = X * Omega;
           for (Eigen::Index r = 0; r < X.rows(); ++r)
             E.row(r).array() -= 0.5 * X.row(r).squaredNorm();
           return Matrix((E.array().exp() / std::sqrt(d_phi)).matrix());
         }()});
  return s;
}

json expect_features(const json& a) {
  const Matrix X = wire::to_matrix(a.at("X")), Omega = wire::to_matrix(a.at("Omega"));
  return json{{"features", wire::from_matrix(linref::positive_random_features(X, Omega))},
              {"suspects", suspects_json(feature_suspects(X, Omega))}};
}

// ---- softmax_kernel_estimate -------------------------------------------------------------

json estimate_call(const Vector& q, const Vector& k, const Matrix& Omega) {
  return json{{"q", wire::from_vector(q)},
              {"k", wire::from_vector(k)},
              {"Omega", wire::from_matrix(Omega)}};
}

std::vector<ScalarSuspect> estimate_suspects(const Vector& q, const Vector& k,
                                             const Matrix& Omega) {
  const double d_phi = static_cast<double>(Omega.rows());
  const double truth = std::exp(q.dot(k));
  const Matrix tq = linref::trig_random_features(q.transpose(), Omega);
  const Matrix tk = linref::trig_random_features(k.transpose(), Omega);
  const Vector eq = (Omega * q).array().exp(), ek = (Omega * k).array().exp();
  const double est = linref::softmax_kernel_estimate(q, k, Omega);
  return {
      {"exp(q^T k) was returned, the value being estimated, not the estimate "
       "phi(q)^T phi(k) for this Omega.",
       truth},
      {"the temperature 1/sqrt(d_k) was used; this exercise has none.",
       std::exp(q.dot(k) / std::sqrt(static_cast<double>(q.size())))},
      {"the estimate uses the starter's trigonometric features.", tq.row(0).dot(tk.row(0))},
      {"the 1/d_phi average is missing: the features' products were summed, not averaged.",
       est * d_phi},
      {"the factors exp(-|q|^2/2) and exp(-|k|^2/2) are missing.", eq.dot(ek) / d_phi},
  };
}

json expect_estimate(const json& a) {
  const Vector q = wire::to_vector(a.at("q")), k = wire::to_vector(a.at("k"));
  const Matrix Omega = wire::to_matrix(a.at("Omega"));
  return json{{"value", linref::softmax_kernel_estimate(q, k, Omega)},
              {"suspects", scalar_suspects_json(estimate_suspects(q, k, Omega))}};
}

// The calls of each estimate check.
json calls_matches_features(std::uint64_t seed) {
  linref::Rng rng(seed);
  json calls = json::array();
  for (int i = 0; i < 4; ++i) {
    const Matrix Omega = linref::gaussian_omega(16, 3, rng);
    calls.push_back(estimate_call(random_vector(rng, 3, 0.5), random_vector(rng, 3, 0.5), Omega));
  }
  return calls;
}
json calls_for_this_omega(std::uint64_t seed) {
  linref::Rng rng(seed);
  json calls = json::array();
  for (Eigen::Index d_phi : {Eigen::Index{1}, kFewFeatures, Eigen::Index{1}}) {
    const Matrix Omega = linref::gaussian_omega(d_phi, 3, rng);
    calls.push_back(estimate_call(random_vector(rng, 3, 0.8), random_vector(rng, 3, 0.8), Omega));
  }
  return calls;
}
json calls_unbiased_average(std::uint64_t seed) {
  constexpr Eigen::Index kDrawDk = 3;
  linref::Rng rng(seed);
  const Vector q = rng.unit_rows(1, kDrawDk).row(0).transpose() * 0.5;
  const Vector k = rng.unit_rows(1, kDrawDk).row(0).transpose() * 0.5;
  json calls = json::array();
  for (int i = 0; i < kDraws; ++i)
    calls.push_back(estimate_call(q, k, linref::gaussian_omega(kDrawPhi, kDrawDk, rng)));
  return calls;
}
json calls_estimate_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  json calls = json::array();
  for (int i = 0; i < 5; ++i) {
    const Matrix Omega = linref::orthogonal_omega(32, 6, rng);
    calls.push_back(estimate_call(random_vector(rng, 6, 0.3), random_vector(rng, 6, 0.3), Omega));
  }
  return calls;
}

OracleTable make_random_features_oracles() {
  return {
      {"features/shape", {features_calls(kShapeInputs), expect_features}},
      {"features/values", {features_calls(FeatureInputs{6, 3, 8, 0.5, false}), expect_features}},
      {"features/positive", {features_calls(kPositiveInputs), expect_features}},
      {"features/orthogonal-omega", {features_calls(kOrthogonalInputs), expect_features}},
      // A hidden check states no sizes, so these are free (tests/mutation/equivalent.txt lists
      // their neighbours): any sizes between the visible checks' and the time check's probe the
      // same formula against the reference.
      {"features/random-hidden",
       {features_calls(FeatureInputs{40, 8, 64, 0.35, false}), expect_features}},
      {"estimate/matches-features", {calls_matches_features, expect_estimate}},
      {"estimate/for-this-omega", {calls_for_this_omega, expect_estimate}},
      {"estimate/unbiased-average", {calls_unbiased_average, expect_estimate}},
      {"estimate/random-hidden", {calls_estimate_hidden, expect_estimate}},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration random_features_oracles{"random_features",
                                                          grader::make_random_features_oracles};
