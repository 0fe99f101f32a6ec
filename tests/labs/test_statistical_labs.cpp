// Labs whose results are random draws with fixed seeds. Each bound is stated beside its
// assertion; the bounds come from the theory, with room for the spread of one seed, not from
// the values this seed happens to give.
#include "labs.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace linlab;

TEST_CASE("retrieval: orthonormal keys exact up to n = d and nan beyond") {
  const RetrievalResult r = compute_retrieval();
  REQUIRE(r.d == 64);
  for (const auto& row : r.rows) {
    if (row.n <= r.d) {
      CHECK(std::fabs(row.ortho_cosine - 1.0) < 1e-12);
      CHECK(row.ortho_crosstalk < 1e-12);
    } else {
      CHECK(std::isnan(row.ortho_cosine));
      CHECK(std::isnan(row.ortho_crosstalk));
    }
  }
}

TEST_CASE("retrieval: random keys follow 1/sqrt(1 + (n-1)/d) and (n-1)/d") {
  const RetrievalResult r = compute_retrieval();
  bool saw_d = false;
  for (const auto& row : r.rows) {
    CAPTURE(row.n);
    // Cosine within 0.05 of the formula at every n (20 trials averaged).
    CHECK(std::fabs(row.random_cosine - row.predicted_cosine) < 0.05);
    // Crosstalk energy within 15% of (n-1)/d once there is crosstalk to speak of.
    if (row.n >= 8)
      CHECK(std::fabs(row.random_crosstalk / row.predicted_crosstalk - 1.0) < 0.15);
    if (row.n == r.d) {
      saw_d = true;
      CHECK(std::fabs(row.random_cosine - 1.0 / std::sqrt(1.0 + 63.0 / 64.0)) < 0.05);
    }
  }
  CHECK(saw_d);
}

TEST_CASE("memory-fill: orthonormal exact up to d and random and correlated keys near their formulas") {
  const MemoryFillResult r = compute_memory_fill();
  REQUIRE(r.d == 32);
  for (Eigen::Index n = 1; n <= r.n_max; ++n) {
    const auto i = static_cast<std::size_t>(n - 1);
    CAPTURE(n);
    if (n <= r.d) CHECK(std::fabs(r.ortho[i] - 1.0) < 1e-12);
    else CHECK(std::isnan(r.ortho[i]));
    // 20 trials averaged: within 0.05 of the crosstalk formulas at every n.
    CHECK(std::fabs(r.random[i] - r.random_predicted[i]) < 0.05);
    CHECK(std::fabs(r.correlated[i] - r.correlated_predicted[i]) < 0.05);
    if (n >= 2) CHECK(r.correlated[i] < r.random[i]);  // the shared direction only hurts
  }
}

TEST_CASE("random-features: error falls like 1/sqrt(d_phi) at half length and slower at full") {
  const RandomFeaturesResult r = compute_random_features();
  // Scaling by 0.5 divides |q + k|^2 by 4 exactly (up to rounding).
  CHECK(std::fabs(r.full_mean_sq / r.half_mean_sq - 4.0) < 1e-12);
  // E|q + k|^2 = 2 sqrt(d_k) = 8 at full length; 512 pairs of one draw: within 1.5.
  CHECK(std::fabs(r.full_mean_sq - 8.0) < 1.5);
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    CAPTURE(row.d_phi);
    // A mean absolute error cannot exceed the standard deviation on average (Jensen); the
    // half-length error sits between 0.5 and 1.1 times the predicted standard deviation.
    CHECK(row.half_measured < 1.1 * row.half_predicted);
    CHECK(row.half_measured > 0.5 * row.half_predicted);
    // At full length rare huge features carry the variance, and the median draw misses them.
    CHECK(row.full_measured < row.full_predicted);
    if (i > 0) CHECK(row.half_measured < r.rows[i - 1].half_measured);
  }
  const auto& a = r.rows.front();
  const auto& b = r.rows.back();
  const double span = std::log(static_cast<double>(b.d_phi) / a.d_phi);
  const double half_slope = std::log(a.half_measured / b.half_measured) / span;
  const double full_slope = std::log(a.full_measured / b.full_measured) / span;
  CHECK(half_slope > 0.4);  // 1/sqrt(d_phi): 0.5
  CHECK(half_slope < 0.6);
  CHECK(full_slope < half_slope);
}

TEST_CASE("sharpness: the maps' weight on the relevant key behaves as the text says") {
  const SharpnessResult r = compute_sharpness();
  REQUIRE(r.rows.size() >= 5);
  const double uniform = 1.0 / static_cast<double>(r.n_keys);
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    CAPTURE(row.sharpness);
    // ReLU is homogeneous: the query's scale cancels (exactly, up to rounding).
    CHECK(std::fabs(row.relu - r.rows.front().relu) < 1e-12);
    if (i > 0) {
      CHECK(row.softmax > r.rows[i - 1].softmax);  // softmax sharpens without limit
      CHECK(row.elu >= r.rows[i - 1].elu);          // elu+1 creeps up ...
    }
    CHECK(row.elu < r.elu_limit_predicted + 1e-12);  // ... below its limit
    CHECK(row.elu < 2.0 * uniform);                   // which is near uniform
  }
  CHECK(r.rows.back().softmax > 0.99);
  // Taylor rises with the sharpness at first, then levels off well below softmax (its limit,
  // weights proportional to the squared scores, can be approached from above).
  CHECK(r.rows[2].taylor > r.rows[0].taylor);
  CHECK(std::fabs(r.rows.back().taylor - r.rows[r.rows.size() - 2].taylor) < 0.02);
  CHECK(r.rows.back().taylor < 0.9);
  // The elu+1 limit relu(q)^T phi(k): O(1/c) away at c = 1e6.
  CHECK(std::fabs(r.elu_at_large - r.elu_limit_predicted) < 1e-4);
}

TEST_CASE("sharpness: ten draws of random features misplace weight as in the seed") {
  const SharpnessResult r = compute_sharpness();
  REQUIRE(r.misplaced.size() == 10);
  std::vector<double> m = r.misplaced, e = r.kernel_error;
  std::sort(m.begin(), m.end());
  std::sort(e.begin(), e.end());
  // Our construction differs from the seed's widget (16% to 45%, 37% to 87%). We assert only
  // the same regime: every draw misplaces a real share of the weight but not all of it, and the
  // kernel values are off by tens of percent.
  CHECK(m.front() > 0.05);
  CHECK(m.back() < 0.7);
  const double m_median = 0.5 * (m[4] + m[5]);
  CHECK(m_median > 0.1);
  CHECK(m_median < 0.6);
  const double e_median = 0.5 * (e[4] + e[5]);
  CHECK(e_median > 0.2);
  CHECK(e_median < 1.0);
}
