// Oracle half of the `random_features` checks (judge half: grader/checks/random_features.cpp):
// the inputs of each check, and per call the reference's value with the values of the usual
// mistakes.
#include "../common/wire.hpp"
#include "../src/oracle_half.hpp"
#include "makers.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace grader {
namespace {

// ---- positive_random_features ------------------------------------------------------------

json features_call(const Matrix& X, const Matrix& Omega) {
  return json{{"X", wire::from_matrix(X)}, {"Omega", wire::from_matrix(Omega)}};
}

// exp(X Omega^T + shift_r) * scale, with shift_r = -c |x_r|^2.
Matrix exp_features(const Matrix& X, const Matrix& Omega, double norm_factor, double scale) {
  Matrix E = X * Omega.transpose();  // (n, d_phi)
  for (Eigen::Index r = 0; r < X.rows(); ++r)
    E.row(r).array() -= norm_factor * X.row(r).squaredNorm();
  return (E.array().exp() * scale).matrix();
}

std::vector<Suspect> feature_suspects(const Matrix& X, const Matrix& Omega) {
  const double d_phi = static_cast<double>(Omega.rows());
  const double d_k = static_cast<double>(Omega.cols());
  std::vector<Suspect> s;
  s.push_back({"these are the starter's trigonometric features (a sin block and a cos block, "
               "2 d_phi columns). Positive features are exp(w_i^T x - |x|^2/2) / sqrt(d_phi), "
               "one per row of Omega.", linref::trig_random_features(X, Omega)});
  s.push_back({"the factor exp(-|x|^2/2) is missing; without it the estimate is no longer "
               "unbiased for exp(q^T k).", exp_features(X, Omega, 0.0, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the factor is exp(-|x|^2) where it should be exp(-|x|^2/2).",
               exp_features(X, Omega, 1.0, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the factor exp(-|x|^2/2) has the wrong sign; it shrinks the features.",
               exp_features(X, Omega, -0.5, 1.0 / std::sqrt(d_phi))});
  s.push_back({"the 1/sqrt(d_phi) scale is missing.", exp_features(X, Omega, 0.5, 1.0)});
  s.push_back({"the features are scaled by 1/d_phi; each feature gets 1/sqrt(d_phi), so that "
               "the dot product of two feature vectors carries 1/d_phi.",
               exp_features(X, Omega, 0.5, 1.0 / d_phi)});
  s.push_back({"a temperature was applied (x scaled by d_k^(-1/4)); this exercise uses x as "
               "given.", exp_features(X / std::pow(d_k, 0.25), Omega, 0.5, 1.0 / std::sqrt(d_phi))});
  if (Omega.rows() == Omega.cols())
    s.push_back({"Omega is used transposed (X Omega instead of X Omega^T); its rows are the "
                 "directions w_i.", [&] {
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

CallsMaker features_calls(Eigen::Index n, Eigen::Index d_k, Eigen::Index d_phi, double scale,
                          bool orthogonal) {
  return [=](std::uint64_t s) {
    linref::Rng rng(s);
    const Matrix Omega = orthogonal ? linref::orthogonal_omega(d_phi, d_k, rng)
                                    : linref::gaussian_omega(d_phi, d_k, rng);
    return json::array({features_call(random_matrix(rng, n, d_k, scale), Omega)});
  };
}

// ---- softmax_kernel_estimate -------------------------------------------------------------

json estimate_call(const Vector& q, const Vector& k, const Matrix& Omega) {
  return json{{"q", wire::from_vector(q)}, {"k", wire::from_vector(k)},
              {"Omega", wire::from_matrix(Omega)}};
}

std::vector<ScalarSuspect> estimate_suspects(const Vector& q, const Vector& k, const Matrix& Omega) {
  const double d_phi = static_cast<double>(Omega.rows());
  const double truth = std::exp(q.dot(k));
  const Matrix tq = linref::trig_random_features(q.transpose(), Omega);
  const Matrix tk = linref::trig_random_features(k.transpose(), Omega);
  const Vector eq = (Omega * q).array().exp(), ek = (Omega * k).array().exp();
  const double est = linref::softmax_kernel_estimate(q, k, Omega);
  return {
      {"exp(q^T k) was returned, the value being estimated, not the estimate "
       "phi(q)^T phi(k) for this Omega.", truth},
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

// The unbiased-average check's draws (the judge half states the same counts).
constexpr int kDraws = 400;
constexpr Eigen::Index kDrawPhi = 16, kDrawDk = 3;

OracleTable make_random_features_oracle() {
  OracleTable t;
  t.by_function["positive_random_features"] = expect_features;
  t.by_function["softmax_kernel_estimate"] = expect_estimate;
  t.calls["features/shape"] = features_calls(5, 3, 8, 0.5, false);
  t.calls["features/values"] = features_calls(6, 3, 8, 0.5, false);
  t.calls["features/positive"] = features_calls(6, 4, 10, 1.5, false);
  t.calls["features/orthogonal-omega"] = features_calls(4, 4, 10, 0.5, true);
  t.calls["features/random-hidden"] = features_calls(40, 8, 64, 0.35, false);
  t.calls["estimate/matches-features"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    json calls = json::array();
    for (int i = 0; i < 4; ++i) {
      const Matrix Omega = linref::gaussian_omega(16, 3, rng);
      calls.push_back(estimate_call(random_vector(rng, 3, 0.5), random_vector(rng, 3, 0.5), Omega));
    }
    return calls;
  };
  t.calls["estimate/for-this-omega"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    json calls = json::array();
    for (Eigen::Index d_phi : {1, 2, 1}) {
      const Matrix Omega = linref::gaussian_omega(d_phi, 3, rng);
      calls.push_back(estimate_call(random_vector(rng, 3, 0.8), random_vector(rng, 3, 0.8), Omega));
    }
    return calls;
  };
  t.calls["estimate/unbiased-average"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    // |q| = |k| = 0.5, so |q + k|^2 <= 1.
    const Vector q = rng.unit_rows(1, kDrawDk).row(0).transpose() * 0.5;
    const Vector k = rng.unit_rows(1, kDrawDk).row(0).transpose() * 0.5;
    json calls = json::array();
    for (int i = 0; i < kDraws; ++i)
      calls.push_back(estimate_call(q, k, linref::gaussian_omega(kDrawPhi, kDrawDk, rng)));
    return calls;
  };
  t.calls["estimate/random-hidden"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    json calls = json::array();
    for (int i = 0; i < 5; ++i) {
      const Matrix Omega = linref::orthogonal_omega(32, 6, rng);
      calls.push_back(estimate_call(random_vector(rng, 6, 0.3), random_vector(rng, 6, 0.3), Omega));
    }
    return calls;
  };
  return t;
}

}  // namespace
}  // namespace grader

static grader::OracleRegistrar random_features_oracle{"random_features",
                                                      grader::make_random_features_oracle};
