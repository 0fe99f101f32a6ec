// Checks of exercise 3, `random_features` (20 points): positive_random_features (11) and
// softmax_kernel_estimate (9). The inputs, expected values and the values of the usual
// mistakes come from the reference, in the oracle regions.
//
// The starter's trigonometric features, a dropped factor of the formula, a temperature the
// exercise does not use, and exp(q^T k) returned in place of the estimate are all recognised
// by name.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../../common/api.hpp"
#include "random_features.hpp"

// ==== API =====================================================================================

// X: (n, d_k), Omega: (d_phi, d_k) -> features: (n, d_phi).
static const api::Exercise random_features_api{"random_features", {
    api::function(LINATTN_SIGNATURE(positive_random_features), {"X", "Omega"}, {"features"}),
    api::function(LINATTN_SIGNATURE(softmax_kernel_estimate), {"q", "k", "Omega"}, {"value"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../../common/wire.hpp"
#include "../../src/check.hpp"
#include "../../src/compare.hpp"

#include <cmath>
#include <string>
#include <vector>

#ifdef LINATTN_ORACLE
#include "../../oracle/makers.hpp"
#include "../../src/api_registry.hpp"

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References random_features_reference{
    api::reference("positive_random_features", &linref::positive_random_features),
    api::reference("softmax_kernel_estimate", &linref::softmax_kernel_estimate),
};
#endif

namespace grader {
namespace {

const char* kFeatures = "positive_random_features";
const char* kEstimate = "softmax_kernel_estimate";

// ---- the inputs the judge's notes describe -------------------------------------------------

// One positive_random_features call: X (n, d_k) with entries N(0, 1) * scale, and Omega
// (d_phi, d_k), Gaussian rows or orthogonal blocks of rows.
struct FeatureInputs {
  Eigen::Index n, d_k, d_phi;
  double scale;
  bool orthogonal;
};
const FeatureInputs kShapeInputs{5, 3, 8, 0.5, false};
// Rows of length about scale * sqrt(d_k) = 3: large enough that a missing factor or a sign
// slip pushes features towards 0 or infinity.
const FeatureInputs kPositiveInputs{6, 4, 10, 1.5, false};
// More rows than columns, so Omega holds more than one orthogonal block.
const FeatureInputs kOrthogonalInputs{4, 4, 10, 0.5, true};

// estimate/for-this-omega: Omega with 1, then kFewFeatures, then 1 row; far too few for the
// estimate to be near exp(q^T k).
constexpr Eigen::Index kFewFeatures = 2;

// estimate/unbiased-average: kDraws independent Omega of kDrawPhi rows for one fixed pair
// (q, k), with |q| = |k| = 0.5 so that |q + k|^2 <= 1.
constexpr int kDraws = 400;
constexpr Eigen::Index kDrawPhi = 16;

#ifdef LINATTN_ORACLE
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
  if (Omega.rows() == Omega.cols())  // only then does X Omega have the right shape
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
#endif  // LINATTN_ORACLE

// ---- positive_random_features ------------------------------------------------------------

std::string features_tried(const Matrix& X, const Matrix& Omega) {
  return std::string(kFeatures) + "(X: " + shape_of(X) + " (n x d_k), Omega: " +
         shape_of(Omega) + " (d_phi x d_k))";
}

std::optional<std::string> shape_mistake(const Matrix& X, const Matrix& Omega, const Matrix& got) {
  if (got.rows() == X.rows() && got.cols() == 2 * Omega.rows())
    return "2 d_phi columns: the starter's trigonometric features (sin and cos of X Omega^T) are "
           "still there. Positive random features have one column per row of Omega.";
  if (got.rows() == Omega.rows() && got.cols() == X.rows())
    return "the result is transposed; it has one row per input row, (n, d_phi).";
  if (got.rows() == X.rows() && got.cols() == X.cols())
    return "one feature per input coordinate (d_k columns); there is one feature per row of "
           "Omega (d_phi columns).";
  return std::nullopt;
}

enum class FeatureProbe { Shape, Values, Positive };

// expected per call: {"features": (n, d_phi), "suspects"}
Verdict judge_features(FeatureProbe probe, const std::string& note, const json& rq,
                       const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X")), Omega = wire::to_matrix(a.at("Omega"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const std::string tried = features_tried(X, Omega) + (note.empty() ? "" : "\n" + note);
    const Matrix expected = wire::to_matrix(e.at("features"));
    if (got.rows() != expected.rows() || got.cols() != expected.cols())
      return failure(tried, compare_matrices(expected, got, kTight, "features", "n x d_phi").report,
                     shape_mistake(X, Omega, got));
    if (probe == FeatureProbe::Shape) return std::nullopt;
    if (probe == FeatureProbe::Positive) {
      Eigen::Index bad = 0, first_r = -1, first_c = -1;
      for (Eigen::Index i = 0; i < got.rows(); ++i)
        for (Eigen::Index j = 0; j < got.cols(); ++j)
          if (!(got(i, j) > 0.0) || !std::isfinite(got(i, j))) {
            if (bad++ == 0) { first_r = i; first_c = j; }
          }
      if (bad == 0) return std::nullopt;
      return failure(tried, std::to_string(bad) + " of " + std::to_string(got.size()) +
                                " features are not positive finite numbers; the first is [" +
                                std::to_string(first_r) + "," + std::to_string(first_c) +
                                "] = " + fmt(got(first_r, first_c)) +
                                ". Every feature exp(w_i^T x - |x|^2/2)/sqrt(d_phi) is > 0.",
                     diagnose(got, e.at("suspects")));
    }
    const Comparison c = compare_matrices(expected, got, kTight, "features", "n x d_phi");
    if (c.ok) return std::nullopt;
    std::optional<std::string> mistake = diagnose(got, e.at("suspects"));
    if (!mistake) mistake = c.unwritten;  // rows left as allocated
    return failure(tried, c.report, mistake);
  });
}

Check features_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                     FeatureProbe probe, std::string note) {
  return make_check(kFeatures, name, points, vis, seed,
                    [probe, note](const json& rq, const json& ex, const json& rp) {
                      return judge_features(probe, note, rq, ex, rp);
                    });
}

// ---- softmax_kernel_estimate -------------------------------------------------------------

// expected per call: {"value": the estimate, "suspects": scalar suspects}
Verdict judge_estimates(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Vector q = wire::to_vector(a.at("q")), k = wire::to_vector(a.at("k"));
    const Matrix Omega = wire::to_matrix(a.at("Omega"));
    const double got = r.at("value").get<double>();
    const Comparison c = compare_scalars(e.at("value").get<double>(), got, kTight, "estimate");
    if (c.ok) return std::nullopt;
    std::string tried = std::string(kEstimate) + "(q, k: " + std::to_string(q.size()) +
                        ", Omega: " + shape_of(Omega) + "); q^T k = " + fmt(q.dot(k)) +
                        ", exp(q^T k) = " + fmt(std::exp(q.dot(k)));
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, diagnose_scalar(got, e.at("suspects")));
  });
}

// The mean of the kDraws estimates should approach exp(q^T k). With |q + k|^2 <= 1 the
// relative standard deviation of the mean of N estimates is
// sqrt((e^{|q+k|^2} - 1) / (d_phi N)); the bound allows 5 of those.
Verdict judge_average(const json& rq, const json& ex, const json& rp) {
  const Verdict each = judge_estimates(
      "One of " + std::to_string(kDraws) + " independent Omega draws for the same q and k.", rq, ex, rp);
  if (!each.passed) return each;
  const json& calls = rq.at("calls");
  const Vector q = wire::to_vector(calls[0].at("q")), k = wire::to_vector(calls[0].at("k"));
  double sum = 0.0;
  for (std::size_t i = 0; i < calls.size(); ++i)
    sum += result_of(rq, rp, i).at("value").get<double>();
  const double n = static_cast<double>(calls.size());
  const double mean = sum / n, truth = std::exp(q.dot(k));
  const double sigma =
      std::sqrt((std::exp((q + k).squaredNorm()) - 1.0) / (static_cast<double>(kDrawPhi) * n));
  const double rel = std::fabs(mean / truth - 1.0);
  if (rel <= 5.0 * sigma) return Verdict::pass();
  return failure(std::string(kEstimate) + " averaged over " + std::to_string(calls.size()) +
                     " independent Omega draws (d_phi = " + std::to_string(kDrawPhi) + ")",
                 "mean of the estimates " + fmt(mean) + ", exp(q^T k) = " + fmt(truth) +
                     ": relative gap " + fmt(rel) + ", allowed 5 standard deviations = " +
                     fmt(5.0 * sigma) + " (relative variance (e^{|q+k|^2} - 1)/(d_phi N)).");
}

Check estimate_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                     std::string note) {
  return make_check(kEstimate, name, points, vis, seed,
                    [note](const json& rq, const json& ex, const json& rp) {
                      return judge_estimates(note, rq, ex, rp);
                    });
}

// ---- the table -----------------------------------------------------------------------------

std::vector<Check> make_random_features_checks() {
  using std::to_string;
  std::vector<Check> checks;
  // positive_random_features: 11 points.
  checks.push_back(with_oracle(
      features_check("features/shape", 2.0, Visibility::Visible, 1, FeatureProbe::Shape,
                     "Only the shape is checked here: (n, d_phi) = (" + to_string(kShapeInputs.n) + ", " +
                         to_string(kShapeInputs.d_phi) + ")."),
      LINATTN_ORACLE_OF(features_calls(kShapeInputs), expect_features)));
  checks.push_back(with_oracle(
      features_check("features/values", 3.5, Visibility::Visible, 1, FeatureProbe::Values, ""),
      LINATTN_ORACLE_OF(features_calls(FeatureInputs{6, 3, 8, 0.5, false}), expect_features)));
  checks.push_back(with_oracle(
      features_check("features/positive", 2.0, Visibility::Visible, 1, FeatureProbe::Positive,
                     "Inputs of length about " +
                         fmt(kPositiveInputs.scale * std::sqrt(static_cast<double>(kPositiveInputs.d_k))) +
                         ": only positivity is checked here."),
      LINATTN_ORACLE_OF(features_calls(kPositiveInputs), expect_features)));
  checks.push_back(with_oracle(
      features_check("features/orthogonal-omega", 2.0, Visibility::Visible, 1, FeatureProbe::Values,
                     "Omega has orthogonal blocks of rows (FAVOR+ style), d_phi = " +
                         to_string(kOrthogonalInputs.d_phi) + " > d_k = " + to_string(kOrthogonalInputs.d_k) + "."),
      LINATTN_ORACLE_OF(features_calls(kOrthogonalInputs), expect_features)));
  checks.push_back(with_oracle(
      features_check("features/random-hidden", 1.5, Visibility::Hidden, 29, FeatureProbe::Values, ""),
      LINATTN_ORACLE_OF(features_calls(FeatureInputs{40, 8, 64, 0.35, false}), expect_features)));
  // softmax_kernel_estimate: 9 points.
  checks.push_back(with_oracle(
      estimate_check("estimate/matches-features", 3.0, Visibility::Visible, 1, ""),
      LINATTN_ORACLE_OF(calls_matches_features, expect_estimate)));
  checks.push_back(with_oracle(
      estimate_check("estimate/for-this-omega", 2.0, Visibility::Visible, 1,
                     "With only 1 or " + to_string(kFewFeatures) + " random features the estimate is "
                     "far from exp(q^T k): the function returns phi(q)^T phi(k) for the Omega "
                     "it is given."),
      LINATTN_ORACLE_OF(calls_for_this_omega, expect_estimate)));
  checks.push_back(with_oracle(
      make_check(kEstimate, "estimate/unbiased-average", 2.5, Visibility::Visible, 1, judge_average),
      LINATTN_ORACLE_OF(calls_unbiased_average, expect_estimate)));
  checks.push_back(with_oracle(
      estimate_check("estimate/random-hidden", 1.5, Visibility::Hidden, 31, ""),
      LINATTN_ORACLE_OF(calls_estimate_hidden, expect_estimate)));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar random_features_registrar{"random_features", grader::make_random_features_checks};

#endif  // LINATTN_RUNNER
