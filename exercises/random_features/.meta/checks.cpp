// Checks of exercise 3, `random_features` (20 points): positive_random_features (11) and
// softmax_kernel_estimate (9). The inputs, expected values and the values of the usual
// mistakes come from the reference, in oracle/.
//
// The starter's trigonometric features, a dropped factor of the formula, a temperature the
// exercise does not use, and exp(q^T k) returned in place of the estimate are all recognised
// by name.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace grader {
namespace {

// ---- positive_random_features ------------------------------------------------------------

std::string features_tried(const Matrix& X, const Matrix& Omega) {
  return std::string(kFeatures) + "(X: " + shape_of(X) + " (n x d_k), Omega: " + shape_of(Omega) +
         " (d_phi x d_k))";
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
Verdict judge_features(FeatureProbe probe, const std::string& note, const json& rq, const json& ex,
                       const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix X = wire::to_matrix(a.at("X")), Omega = wire::to_matrix(a.at("Omega"));
        const Matrix got = wire::to_matrix(r.at("features"));
        const std::string tried = features_tried(X, Omega) + (note.empty() ? "" : "\n" + note);
        const Matrix expected = wire::to_matrix(e.at("features"));
        if (got.rows() != expected.rows() || got.cols() != expected.cols())
          return failure(tried,
                         compare_matrices(expected, got, kTight, "features", "n x d_phi").report,
                         shape_mistake(X, Omega, got));
        if (probe == FeatureProbe::Shape) return std::nullopt;
        if (probe == FeatureProbe::Positive) {
          Eigen::Index bad = 0, first_r = -1, first_c = -1;
          for (Eigen::Index i = 0; i < got.rows(); ++i)
            for (Eigen::Index j = 0; j < got.cols(); ++j)
              if (!(got(i, j) > 0.0) || !std::isfinite(got(i, j))) {
                if (bad++ == 0) {
                  first_r = i;
                  first_c = j;
                }
              }
          if (bad == 0) return std::nullopt;
          return failure(tried,
                         std::to_string(bad) + " of " + std::to_string(got.size()) +
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
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
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
      "One of " + std::to_string(kDraws) + " independent Omega draws for the same q and k.", rq, ex,
      rp);
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
  checks.push_back(
      features_check("features/shape", 2.0, Visibility::Visible, 1, FeatureProbe::Shape,
                     "Only the shape is checked here: (n, d_phi) = (" + to_string(kShapeInputs.n) +
                         ", " + to_string(kShapeInputs.d_phi) + ")."));
  checks.push_back(
      features_check("features/values", 3.5, Visibility::Visible, 1, FeatureProbe::Values, ""));
  checks.push_back(features_check(
      "features/positive", 2.0, Visibility::Visible, 1, FeatureProbe::Positive,
      "Inputs of length about " +
          fmt(kPositiveInputs.scale * std::sqrt(static_cast<double>(kPositiveInputs.d_k))) +
          ": only positivity is checked here."));
  checks.push_back(features_check("features/orthogonal-omega", 2.0, Visibility::Visible, 1,
                                  FeatureProbe::Values,
                                  "Omega has orthogonal blocks of rows (FAVOR+ style), d_phi = " +
                                      to_string(kOrthogonalInputs.d_phi) +
                                      " > d_k = " + to_string(kOrthogonalInputs.d_k) + "."));
  checks.push_back(features_check("features/random-hidden", 1.5, Visibility::Hidden, 29,
                                  FeatureProbe::Values, ""));
  // softmax_kernel_estimate: 9 points.
  checks.push_back(estimate_check("estimate/matches-features", 3.0, Visibility::Visible, 1, ""));
  checks.push_back(
      estimate_check("estimate/for-this-omega", 2.0, Visibility::Visible, 1,
                     "With only 1 or " + to_string(kFewFeatures) +
                         " random features the estimate is "
                         "far from exp(q^T k): the function returns phi(q)^T phi(k) for the Omega "
                         "it is given."));
  checks.push_back(make_check(kEstimate, "estimate/unbiased-average", 2.5, Visibility::Visible, 1,
                              judge_average));
  checks.push_back(estimate_check("estimate/random-hidden", 1.5, Visibility::Hidden, 31, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration random_features_checks{"random_features",
                                                         grader::make_random_features_checks};
