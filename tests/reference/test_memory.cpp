// The outer-product associative memory, with the seed's two- and three-pair examples.
#include "linref/memory.hpp"
#include "linref/random.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "helpers.hpp"

using namespace test_helpers;

namespace {
const Matrix K3 = rows({{1, 0}, {0, 1}, {0.6, 0.8}});
const Matrix V3 = rows({{1, 2}, {4, 0}, {0, 5}});
}  // namespace

TEST_CASE("seed memory: two orthogonal pairs come back exactly") {
  const Matrix S = linref::memory_write(K3.topRows(2), V3.topRows(2));
  CHECK(max_abs_diff(S, rows({{1, 2}, {4, 0}})) == 0.0);
  CHECK(max_abs_diff(linref::memory_read(S, vec({1, 0})), vec({1, 2})) == 0.0);
  CHECK(max_abs_diff(linref::memory_read(S, vec({0, 1})), vec({4, 0})) == 0.0);
}

TEST_CASE("seed memory: a third pair leaks, S = [[1,5],[4,4]], reads (1,5) and (3.8,6.2)") {
  const Matrix S = linref::memory_write(K3, V3);
  CHECK(max_abs_diff(S, rows({{1, 5}, {4, 4}})) < 1e-15);
  CHECK(max_abs_diff(linref::memory_read(S, vec({1, 0})), vec({1, 5})) < 1e-15);
  CHECK(max_abs_diff(linref::memory_read(S, vec({0.6, 0.8})), vec({3.8, 6.2})) < 1e-14);
}

TEST_CASE("write and read normalize keys and queries") {
  // Keys (2, 0), (0, 3), (3, 4) point the same ways as the seed's unit keys.
  const Matrix S = linref::memory_write(rows({{2, 0}, {0, 3}, {3, 4}}), V3);
  CHECK(max_abs_diff(S, rows({{1, 5}, {4, 4}})) < 1e-15);
  CHECK(max_abs_diff(linref::memory_read(S, vec({6, 8})), vec({3.8, 6.2})) < 1e-14);
  // The read is S^T q, not S q: with q = (1, 0), S q would be (1, 4).
  CHECK(max_abs_diff(linref::memory_read(S, vec({5, 0})), vec({1, 5})) < 1e-15);
}

TEST_CASE("crosstalk energy by hand: seed's three keys give 2/3, one key gives 0") {
  // Cosines: k1.k2 = 0, k1.k3 = 0.6, k2.k3 = 0.8. Per j: 0.36, 0.64, 0.36 + 0.64; mean 2/3.
  CHECK(linref::crosstalk_energy(K3) == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
  CHECK(linref::crosstalk_energy(rows({{3, 4}})) == 0.0);
  // Orthogonal keys do not interfere; scaling a key changes nothing.
  CHECK(linref::crosstalk_energy(rows({{5, 0}, {0, 0.5}})) == 0.0);
}

TEST_CASE("retrieval cosine by hand, and exact recall for orthonormal keys") {
  // Reads (1,5), (4,4), (3.8,6.2) against v = (1,2), (4,0), (0,5):
  // cosines 11/sqrt(130), 16/(sqrt(32) 4) = 1/sqrt(2), 31/sqrt(52.88 * 25).
  const double expected =
      (11 / std::sqrt(130.0) + 1 / std::sqrt(2.0) + 31 / std::sqrt(52.88 * 25)) / 3;
  CHECK(linref::retrieval_cosine(K3, V3) == doctest::Approx(expected).epsilon(1e-14));
  CHECK(linref::retrieval_cosine(K3.topRows(2), V3.topRows(2)) ==
        doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("random keys: crosstalk about (n-1)/d, retrieval cosine about 0.71 at n = d") {
  // Seed: E[crosstalk] = (n - 1)/d_k and cosine about 1/sqrt(1 + (n - 1)/d), 0.71 at n = d.
  // d = n = 256, fixed seed. The crosstalk is a mean of n sums of n - 1 squared cosines with
  // variance about 2/d^2 each: its relative standard error is ~0.6%, bound 5%. The cosine's
  // spread over keys is about 0.03, so its mean over 256 keys is known to ~0.002; bound 0.02.
  linref::Rng rng(77);
  const int d = 256, n = 256;
  const Matrix K = rng.unit_rows(n, d), V = rng.normal_matrix(n, d);
  CHECK(linref::crosstalk_energy(K) == doctest::Approx((n - 1.0) / d).epsilon(0.05));
  CHECK(std::abs(linref::retrieval_cosine(K, V) - 1 / std::sqrt(1 + (n - 1.0) / d)) < 0.02);
  CHECK(linref::retrieval_cosine(K, V) == doctest::Approx(0.71).epsilon(0.03));
}
