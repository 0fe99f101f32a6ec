// What the checks of `random_features` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

constexpr const char* kFeatures = "positive_random_features";
constexpr const char* kEstimate = "softmax_kernel_estimate";

// ---- the inputs the judge's notes describe -------------------------------------------------

// One positive_random_features call: X (n, d_k) with entries N(0, 1) * scale, and Omega
// (d_phi, d_k), Gaussian rows or orthogonal blocks of rows.
struct FeatureInputs {
  Eigen::Index n, d_k, d_phi;
  double scale;
  bool orthogonal;
};
constexpr FeatureInputs kShapeInputs{5, 3, 8, 0.5, false};
// Rows of length about scale * sqrt(d_k) = 3: large enough that a missing factor or a sign
// slip pushes features towards 0 or infinity.
constexpr FeatureInputs kPositiveInputs{6, 4, 10, 1.5, false};
// More rows than columns, so Omega holds more than one orthogonal block.
constexpr FeatureInputs kOrthogonalInputs{4, 4, 10, 0.5, true};

// estimate/for-this-omega: Omega with 1, then kFewFeatures, then 1 row; far too few for the
// estimate to be near exp(q^T k).
constexpr Eigen::Index kFewFeatures = 2;

// estimate/unbiased-average: kDraws independent Omega of kDrawPhi rows for one fixed pair
// (q, k), with |q| = |k| = 0.5 so that |q + k|^2 <= 1.
constexpr int kDraws = 400;
constexpr Eigen::Index kDrawPhi = 16;

}  // namespace
}  // namespace grader
