// The memory solution: the seed's three pairs, normalization, crosstalk by hand and the reference.
#include "helpers.hpp"
#include "memory.hpp"

using extest::Matrix;
using extest::Vector;

namespace {
struct ThreePairs {
  Matrix K{3, 2}, V{3, 2};
  ThreePairs() {
    K << 1, 0, 0, 1, 0.6, 0.8;
    V << 1, 2, 4, 0, 0, 5;
  }
};
}  // namespace

TEST_CASE("solutions/memory: the seed's two orthogonal pairs come back exactly") {
  const ThreePairs p;
  const Matrix S = linattn::write(p.K.topRows(2), p.V.topRows(2));
  Matrix want(2, 2);
  want << 1, 2, 4, 0;
  EX_CHECK_CLOSE(S, want, 1e-15);
  EX_CHECK_CLOSE(linattn::read(S, Vector::Unit(2, 0)), p.V.row(0).transpose(), 1e-15);
  EX_CHECK_CLOSE(linattn::read(S, Vector::Unit(2, 1)), p.V.row(1).transpose(), 1e-15);
}

TEST_CASE("solutions/memory: the third pair leaks, (1, 5) and (3.8, 6.2)") {
  const ThreePairs p;
  const Matrix S = linattn::write(p.K, p.V);
  Matrix want(2, 2);
  want << 1, 5, 4, 4;
  EX_CHECK_CLOSE(S, want, 1e-14);
  Vector r1(2), r3(2);
  r1 << 1, 5;
  r3 << 3.8, 6.2;
  EX_CHECK_CLOSE(linattn::read(S, p.K.row(0).transpose()), r1, 1e-14);
  EX_CHECK_CLOSE(linattn::read(S, p.K.row(2).transpose()), r3, 1e-14);
}

TEST_CASE("solutions/memory: keys and query are normalized") {
  const ThreePairs p;
  Matrix K = p.K;
  K.row(0) *= 3.0;   // (3, 0)
  K.row(1) *= 0.5;   // (0, 0.5)
  K.row(2) *= 10.0;  // (6, 8)
  const Matrix S = linattn::write(K, p.V);
  Matrix want(2, 2);
  want << 1, 5, 4, 4;
  EX_CHECK_CLOSE(S, want, 1e-14);
  Vector q(2), r3(2);
  q << 6, 8;
  r3 << 3.8, 6.2;
  EX_CHECK_CLOSE(linattn::read(S, q), r3, 1e-14);
}

TEST_CASE("solutions/memory: read is S^T q, seen with d_k != d_v") {
  Matrix S(2, 3);
  S << 1, 2, 3, 4, 5, 6;
  Vector q(2), want(3);
  q << 0, 2;  // normalizes to (0, 1): picks the second row of S
  want << 4, 5, 6;
  EX_CHECK_CLOSE(linattn::read(S, q), want, 1e-15);
}

TEST_CASE("solutions/memory: crosstalk by hand") {
  const ThreePairs p;
  // Dot products: k1.k2 = 0, k1.k3 = 0.6, k2.k3 = 0.8. Sums over s != j: 0.36, 0.64, 1.0.
  CHECK(linattn::crosstalk_energy(p.K) == doctest::Approx(2.0 / 3.0).epsilon(1e-14));
  CHECK(linattn::crosstalk_energy(p.K.topRows(2)) == doctest::Approx(0.0));
  // The s = j term is excluded: a single key, however long, has no crosstalk.
  Matrix one(1, 3);
  one << 3, 4, 12;
  CHECK(linattn::crosstalk_energy(one) == 0.0);
  // Two equal keys (one scaled): each sees the other fully, mean 1.
  Matrix twins(2, 2);
  twins << 1, 1, 2, 2;
  CHECK(linattn::crosstalk_energy(twins) == doctest::Approx(1.0).epsilon(1e-14));
}

TEST_CASE("solutions/memory: random keys give about (n - 1) / d_k") {
  linref::Rng rng(31);
  const int n = 200, d = 100, trials = 20;
  double sum = 0.0;
  for (int i = 0; i < trials; ++i) sum += linattn::crosstalk_energy(rng.normal_matrix(n, d));
  CHECK(sum / trials == doctest::Approx(double(n - 1) / d).epsilon(0.05));
}

TEST_CASE("solutions/memory: agrees with the reference") {
  linref::Rng rng(13);
  for (auto [n, d_k, d_v] :
       {std::tuple<int, int, int>{1, 3, 2}, {5, 3, 7}, {8, 6, 2}, {40, 16, 16}}) {
    CAPTURE(n);
    CAPTURE(d_k);
    CAPTURE(d_v);
    const Matrix K = rng.normal_matrix(n, d_k), V = rng.normal_matrix(n, d_v);
    const Matrix S = linattn::write(K, V);
    EX_CHECK_CLOSE(S, linref::memory_write(K, V), 1e-12);
    const Vector q = rng.normal_vector(d_k);
    EX_CHECK_CLOSE(linattn::read(S, q), linref::memory_read(S, q), 1e-12);
    CHECK(linattn::crosstalk_energy(K) ==
          doctest::Approx(linref::crosstalk_energy(K)).epsilon(1e-12));
  }
}
