// Positive and trigonometric random features, and the two ways to draw Omega.
#include "linref/feature_maps.hpp"

#include <doctest/doctest.h>

#include <initializer_list>

#include <cmath>

#include "helpers.hpp"

using namespace test_helpers;

TEST_CASE("positive features by hand: exp(-|x|^2/2)/sqrt(d_phi) * exp(Omega x)") {
  const Matrix X = rows({{1.0, 0.0}, {0.0, 0.0}});
  const Matrix Omega = rows({{1.0, 0.0}, {0.0, 1.0}, {-1.0, 2.0}});  // w.x = 1, 0, -1 for row 0
  const double s3 = std::sqrt(3.0);
  const Matrix expected = rows({{std::exp(0.5) / s3, std::exp(-0.5) / s3, std::exp(-1.5) / s3},
                                {1.0 / s3, 1.0 / s3, 1.0 / s3}});
  CHECK(max_abs_diff(linref::positive_random_features(X, Omega), expected) < 1e-15);
}

TEST_CASE("positive features stay finite where exp(-|x|^2/2) alone underflows") {
  // |x|^2 / 2 = 800 and w.x = 800: the feature is exactly exp(0) / sqrt(1) = 1, while
  // exp(-800) * exp(800) would be 0 * inf.
  const Matrix F = linref::positive_random_features(rows({{40.0, 0.0}}), rows({{20.0, 0.0}}));
  CHECK(F(0, 0) == doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("softmax_kernel_estimate by hand: one feature in one dimension") {
  // Hand value: one feature, d_k = 1, q = 0.5, k = 0.25, w = 1:
  // exp(0.5 - 0.125) * exp(0.25 - 0.03125) = exp(0.59375).
  const Vector q = vec({0.5}), k = vec({0.25});
  CHECK(linref::softmax_kernel_estimate(q, k, rows({{1.0}})) ==
        doctest::Approx(std::exp(0.59375)).epsilon(1e-15));
}

TEST_CASE("trigonometric features: sin block then cos block, (n, 2 d_phi)") {
  const double half_pi = std::acos(0.0);
  const Matrix F =
      linref::trig_random_features(rows({{half_pi, 0.0}}), rows({{1.0, 0.0}, {0.0, 1.0}}));
  REQUIRE(F.rows() == 1);
  REQUIRE(F.cols() == 4);
  CHECK(max_abs_diff(F, rows({{1.0, 0.0, 0.0, 1.0}})) <
        1e-15);  // sin(pi/2), sin 0, cos(pi/2), cos 0
}

TEST_CASE("orthogonal_omega: orthogonal rows inside each block, blocks independent, cut to d_phi") {
  linref::Rng rng(17);
  const Eigen::Index d_k = 4, d_phi = 10;  // blocks of rows 0-3, 4-7 and a cut block 8-9
  const Matrix Omega = linref::orthogonal_omega(d_phi, d_k, rng);
  REQUIRE(Omega.rows() == d_phi);
  REQUIRE(Omega.cols() == d_k);
  double largest_cross_block_cosine = 0.0;
  for (Eigen::Index i = 0; i < d_phi; ++i) {
    for (Eigen::Index j = i + 1; j < d_phi; ++j) {
      const double cosine =
          Omega.row(i).dot(Omega.row(j)) / (Omega.row(i).norm() * Omega.row(j).norm());
      if (i / d_k == j / d_k) {
        CHECK(std::abs(cosine) < 1e-12);
      } else {
        largest_cross_block_cosine = std::max(largest_cross_block_cosine, std::abs(cosine));
      }
    }
  }
  // Rows of different blocks come from different draws, so some pair is clearly not orthogonal.
  CHECK(largest_cross_block_cosine > 0.1);
  // Row lengths are chi(d_k) draws, not all 1 and not all equal.
  CHECK(std::abs(Omega.row(0).norm() - Omega.row(1).norm()) > 1e-6);
}

TEST_CASE("orthogonal_omega rows are marginally N(0, I): E[w w^T] = I (2000 draws, d_k = 3)") {
  // Each entry of the sample mean of w w^T over n = 2000 * 3 rows has standard error at most
  // sqrt(2 / n) = 0.018 (diagonal) ; bound 0.1 is over 5 standard errors.
  linref::Rng rng(8);
  Matrix second_moment = Matrix::Zero(3, 3);
  const int draws = 2000;
  for (int i = 0; i < draws; ++i) {
    const Matrix Omega = linref::orthogonal_omega(3, 3, rng);
    second_moment += Omega.transpose() * Omega;
  }
  second_moment /= 3.0 * draws;
  CHECK(max_abs_diff(second_moment, Matrix::Identity(3, 3)) < 0.1);
}

namespace {

// Mean of softmax_kernel_estimate(q, k, Omega) over `draws` independent Omegas.
template <typename DrawOmega>
double mean_estimate(const Vector& q, const Vector& k, int draws, DrawOmega draw) {
  double sum = 0.0;
  for (int i = 0; i < draws; ++i) sum += linref::softmax_kernel_estimate(q, k, draw());
  return sum / draws;
}

}  // namespace

TEST_CASE("positive random features are unbiased for exp(q.k): Gaussian and orthogonal Omega") {
  // q + k = (0.5, -0.1, -0.2, 0.7), |q + k|^2 = 0.79. By the seed's variance formula one
  // estimate with d_phi = 8 i.i.d. rows has relative variance (e^0.79 - 1) / 8 = 0.15; the
  // mean of 4000 has relative standard error sqrt(0.15 / 4000) = 0.0061 (orthogonal rows only
  // lower it). Tolerance: 3% relative, about 5 standard errors. Fixed seeds.
  const Vector q = vec({0.3, -0.2, 0.1, 0.4});
  const Vector k = vec({0.2, 0.1, -0.3, 0.3});
  const double truth = std::exp(q.dot(k));  // q.k = 0.06 - 0.02 - 0.03 + 0.12 = 0.13
  CHECK(truth == doctest::Approx(std::exp(0.13)).epsilon(1e-15));

  linref::Rng g(101), o(202);
  const double gaussian =
      mean_estimate(q, k, 4000, [&] { return linref::gaussian_omega(8, 4, g); });
  const double orthogonal =
      mean_estimate(q, k, 4000, [&] { return linref::orthogonal_omega(8, 4, o); });
  CHECK(std::abs(gaussian / truth - 1.0) < 0.03);
  CHECK(std::abs(orthogonal / truth - 1.0) < 0.03);
}

TEST_CASE("trigonometric features are not positive, positive features are") {
  linref::Rng rng(3);
  const Matrix X = rng.normal_matrix(20, 4);
  const Matrix Omega = linref::gaussian_omega(16, 4, rng);
  CHECK(linref::positive_random_features(X, Omega).minCoeff() > 0.0);
  CHECK(linref::trig_random_features(X, Omega).minCoeff() < 0.0);
}
