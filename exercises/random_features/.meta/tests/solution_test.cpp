// The random-features solution: a hand example, exactness at q = k = 0, unbiasedness, and
// agreement with the reference.
#include "helpers.hpp"
#include "random_features.hpp"

#include <cmath>

using extest::Matrix;
using extest::Vector;

TEST_CASE("solutions/random_features: a hand example with Omega = I") {
  // x = (1, 0), w_1 = (1, 0), w_2 = (0, 1): exp(-1/2)/sqrt(2) * (e^1, e^0).
  Matrix X(2, 2);
  X << 1, 0, 0, 0;
  const Matrix Omega = Matrix::Identity(2, 2);
  Matrix want(2, 2);
  want << std::exp(0.5) / std::sqrt(2.0), std::exp(-0.5) / std::sqrt(2.0),  //
      1 / std::sqrt(2.0), 1 / std::sqrt(2.0);                               // x = 0
  EX_CHECK_CLOSE(linattn::positive_random_features(X, Omega), want, 1e-15);
}

TEST_CASE("solutions/random_features: shape (n, d_phi) and every entry positive") {
  linref::Rng rng(3);
  const Matrix X = rng.normal_matrix(5, 3), Omega = rng.normal_matrix(11, 3);
  const Matrix F = linattn::positive_random_features(X, Omega);
  CHECK(F.rows() == 5);
  CHECK(F.cols() == 11);
  CHECK((F.array() > 0).all());
}

TEST_CASE("solutions/random_features: the estimate at q = k = 0 is exactly 1 = e^0") {
  linref::Rng rng(4);
  const Matrix Omega = rng.normal_matrix(64, 5);
  CHECK(linattn::softmax_kernel_estimate(Vector::Zero(5), Vector::Zero(5), Omega) ==
        doctest::Approx(1.0).epsilon(1e-14));
}

TEST_CASE("solutions/random_features: unbiased for exp(q.k), within five standard errors") {
  // Relative variance of one estimate: (e^{|q+k|^2} - 1) / d_phi (the seed's theorem).
  linref::Rng rng(99);
  Vector q(3), k(3);
  q << 0.3, -0.2, 0.1;
  k << 0.2, 0.4, -0.1;
  const double truth = std::exp(q.dot(k));
  const int d_phi = 64, draws = 2000;
  double sum = 0.0;
  for (int i = 0; i < draws; ++i) {
    sum += linattn::softmax_kernel_estimate(q, k, rng.normal_matrix(d_phi, 3));
  }
  const double mean = sum / draws;
  const double rel_sd = std::sqrt((std::exp((q + k).squaredNorm()) - 1) / d_phi / draws);
  CHECK(std::abs(mean / truth - 1) < 5 * rel_sd);
}

TEST_CASE("solutions/random_features: agrees with the reference") {
  linref::Rng rng(17);
  for (auto [n, d_k, d_phi] :
       {std::tuple<int, int, int>{1, 1, 1}, {4, 3, 7}, {10, 16, 256}, {3, 8, 2}}) {
    CAPTURE(n);
    CAPTURE(d_k);
    CAPTURE(d_phi);
    const Matrix X = 0.5 * rng.normal_matrix(n, d_k), Omega = rng.normal_matrix(d_phi, d_k);
    EX_CHECK_CLOSE(linattn::positive_random_features(X, Omega),
                   linref::positive_random_features(X, Omega), 1e-12);
    const Vector q = 0.5 * rng.normal_vector(d_k), k = 0.5 * rng.normal_vector(d_k);
    CHECK(linattn::softmax_kernel_estimate(q, k, Omega) ==
          doctest::Approx(linref::softmax_kernel_estimate(q, k, Omega)).epsilon(1e-12));
  }
}

TEST_CASE("solutions/random_features: large inputs do not overflow to inf or nan") {
  // |x|^2 / 2 = 450 and w.x up to about 30 * |w|: exp of each part alone would overflow.
  Matrix X = Matrix::Zero(1, 2);
  X(0, 0) = 30.0;
  Matrix Omega(1, 2);
  Omega << 30.0, 0.0;  // w.x - |x|^2/2 = 900 - 450 = 450: finite
  const Matrix F = linattn::positive_random_features(X, Omega);
  CHECK(std::isfinite(F(0, 0)));
  CHECK(F(0, 0) == doctest::Approx(std::exp(450.0)).epsilon(1e-12));
}
