// The deterministic feature maps: elu+1, relu, identity, Taylor and the compact quadratic map.
#include "linref/costs.hpp"
#include "linref/feature_maps.hpp"

#include <doctest/doctest.h>

#include <initializer_list>

#include <cmath>

#include "helpers.hpp"

using namespace test_helpers;

TEST_CASE("elu+1: x + 1 at and above zero, e^x below, relu and identity") {
  const Matrix X = rows({{0.0, 2.0, -1.0}, {-3.0, 0.5, 1.0}});
  const Matrix expected = rows({{1.0, 3.0, std::exp(-1.0)}, {std::exp(-3.0), 1.5, 2.0}});
  CHECK(max_abs_diff(linref::elu_plus_one(X), expected) < 1e-15);
  CHECK(max_abs_diff(linref::relu(X), rows({{0.0, 2.0, 0.0}, {0.0, 0.5, 1.0}})) == 0.0);
  CHECK(max_abs_diff(linref::identity(X), X) == 0.0);
}

TEST_CASE("seed: phi(x) = (x1^2, sqrt2 x1 x2, x2^2) gives (q.k)^2 = 25 for q = (1,2), k = (3,1)") {
  const double r2 = std::sqrt(2.0);
  const Matrix fq = linref::quadratic_features(rows({{1.0, 2.0}}));
  const Matrix fk = linref::quadratic_features(rows({{3.0, 1.0}}));
  // The seed's features: (1, 2 sqrt2, 4) and (9, 3 sqrt2, 1); products 9 + 12 + 4.
  CHECK(max_abs_diff(fq, rows({{1.0, 2.0 * r2, 4.0}})) < 1e-15);
  CHECK(max_abs_diff(fk, rows({{9.0, 3.0 * r2, 1.0}})) < 1e-15);
  CHECK(fq.row(0).dot(fk.row(0)) == doctest::Approx(25.0).epsilon(1e-15));
}

TEST_CASE("seed: Taylor features of q = (1,2), k = (3,1), vec blocks (1,2,2,4).(9,3,3,1) = 25") {
  const double r2 = std::sqrt(2.0);
  const Matrix fq = linref::taylor_features(rows({{1.0, 2.0}}));  // (1, 1 + 2 + 4)
  const Matrix fk = linref::taylor_features(rows({{3.0, 1.0}}));
  REQUIRE(fq.cols() == 7);
  // Order: constant, x, vec(x x^T) / sqrt2 row-major.
  CHECK(max_abs_diff(fq, rows({{1.0, 1.0, 2.0, 1.0 / r2, 2.0 / r2, 2.0 / r2, 4.0 / r2}})) < 1e-15);
  // Undo the 1/sqrt2 and the quadratic blocks are the seed's outer products.
  const Matrix vq = fq.rightCols(4) * r2, vk = fk.rightCols(4) * r2;
  CHECK(max_abs_diff(vq, rows({{1.0, 2.0, 2.0, 4.0}})) < 1e-14);
  CHECK(max_abs_diff(vk, rows({{9.0, 3.0, 3.0, 1.0}})) < 1e-14);
  CHECK(vq.row(0).dot(vk.row(0)) == doctest::Approx(25.0).epsilon(1e-14));
  // Whole kernel: 1 + s + s^2 / 2 at s = 5 is 18.5.
  CHECK(fq.row(0).dot(fk.row(0)) == doctest::Approx(18.5).epsilon(1e-15));
}

TEST_CASE("Taylor kernel is 1 + s + s^2/2 on random pairs, never below 1/2") {
  linref::Rng rng(31);
  for (int d : {1, 3, 16}) {
    const Matrix Q = rng.normal_matrix(50, d), K = rng.normal_matrix(50, d);
    const Matrix FQ = linref::taylor_features(Q), FK = linref::taylor_features(K);
    REQUIRE(FQ.cols() == 1 + d + d * d);
    for (int i = 0; i < 50; ++i) {
      const double s = Q.row(i).dot(K.row(i));
      const double kernel = FQ.row(i).dot(FK.row(i));
      CHECK(kernel == doctest::Approx(1.0 + s + 0.5 * s * s).epsilon(1e-12));
      CHECK(kernel >= 0.5 - 1e-12);
    }
  }
}

TEST_CASE("Taylor kernel: minimum 1/2 at s = -1, 2.5 at s = -3 beats 1 at s = 0") {
  auto kernel = [](const Matrix& q, const Matrix& k) {
    return linref::taylor_features(q).row(0).dot(linref::taylor_features(k).row(0));
  };
  const Matrix q = rows({{1.0, 0.0}});
  CHECK(kernel(q, rows({{-1.0, 0.0}})) == doctest::Approx(0.5).epsilon(1e-15));  // s = -1
  CHECK(kernel(q, rows({{-3.0, 0.0}})) == doctest::Approx(2.5).epsilon(1e-15));  // s = -3
  CHECK(kernel(q, rows({{0.0, 1.0}})) == doctest::Approx(1.0).epsilon(1e-15));   // s = 0
}

TEST_CASE("seed: Taylor feature counts, 273 for Based's d = 16 and 16,513 at d = 128") {
  CHECK(linref::taylor_feature_count(std::int64_t{16}) == 273);
  CHECK(linref::taylor_feature_count(std::int64_t{128}) == 16513);
  CHECK(linref::taylor_features(Matrix::Zero(2, 16)).cols() == 273);
  // "over two million numbers per head" for S and z at d = 128, d_v = 128.
  CHECK(linref::state_numbers(16513, 128) > 2000000);
}
