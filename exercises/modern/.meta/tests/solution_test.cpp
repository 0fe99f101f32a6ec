// The modern solution: the hand-out's worked examples (numbers worked by hand and by a separate
// script, typed in here), the reference on several shapes, the default eps, and the seed's
// remark that f = i = 1 turns mlstm into causal linear attention where the floor is idle.
#include "helpers.hpp"
#include "modern.hpp"

#include <cmath>
#include <tuple>

using extest::Matrix;
using extest::Vector;

namespace {

Vector gates(linref::Rng& rng, Eigen::Index T, double lo, double hi) {
  Vector g(T);
  for (Eigen::Index t = 0; t < T; ++t) g(t) = lo + (hi - lo) * rng.uniform();
  return g;
}

}  // namespace

TEST_CASE("solutions/modern: mlstm on the hand-out's four tokens") {
  Matrix Q(4, 2), K(4, 2), V(4, 2), H(4, 2);
  Q << 2, 0, 1, 1, 0, -4, 1, 0;
  K << 1, 0, 0, 1, 1, 1, 0, -1;
  V << 1, 0, 0, 2, 1, 1, 2, 0;
  Vector f(4), i(4);
  f << 0.5, 0.5, 0.5, 0.5;
  i << 1, 2, 1, 1;
  // n_t^T q_t = 2, 2.5, -8 (the absolute value matters), 0.625 (floored to 1).
  H << 1, 0, 0.2, 1.6, -0.5, -1.5, 0.625, 0.5;
  EX_CHECK_CLOSE(linattn::mlstm(Q, K, V, f, i), H, 1e-15);
}

TEST_CASE("solutions/modern: decayed_normalized_attention on the hand-out's three tokens") {
  Matrix Q(3, 1), K(3, 1), V(3, 2), O(3, 2);
  Q << 1, 1, -2;
  K << 2, -1, 1;
  V << 1, 0, 0, 1, -1, 2;
  Vector gain(2);
  gain << 1, 2;
  // Token 1 has one nonzero entry, so o_1 = gain .* (sqrt 2, 0); the rest from a Python script.
  O << std::sqrt(2.0), 0, 1.3525673112821315, -0.8259822478746767, -0.1482013469885731,
      -2.8128536120820598;
  EX_CHECK_CLOSE(linattn::decayed_normalized_attention(Q, K, V, 0.5, gain, 0.0), O, 1e-14);
}

TEST_CASE(
    "solutions/modern: both functions agree with the reference, d_k != d_v, gates and gamma small "
    "and large") {
  linref::Rng rng(808);
  for (const auto& [T, d_k, d_v] : {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index>{1, 3, 2},
                                    {9, 2, 5},
                                    {16, 6, 3},
                                    {40, 4, 4}}) {
    CAPTURE(T);
    CAPTURE(d_k);
    CAPTURE(d_v);
    const Matrix Q = rng.normal_matrix(T, d_k), K = rng.normal_matrix(T, d_k),
                 V = rng.normal_matrix(T, d_v);
    const Matrix Q0 = Q, K0 = K, V0 = V;
    for (const auto& [lo, hi] :
         {std::pair<double, double>{0.02, 0.3}, {0.05, 0.95}, {0.9, 0.999}}) {
      const Vector f = gates(rng, T, lo, hi), i = gates(rng, T, lo, hi);
      EX_CHECK_CLOSE(linattn::mlstm(Q, K, V, f, i), linref::mlstm(Q, K, V, f, i), 1e-12);
    }
    const Vector gain = rng.normal_vector(d_v);
    for (double gamma : {0.05, 0.5, 0.99, 1.0})
      for (double eps : {1e-6, 0.3}) {
        CAPTURE(gamma);
        EX_CHECK_CLOSE(linattn::decayed_normalized_attention(Q, K, V, gamma, gain, eps),
                       linref::decayed_normalized_attention(Q, K, V, gamma, gain, eps), 1e-12);
      }
    CHECK(Q == Q0);
    CHECK(K == K0);
    CHECK(V == V0);
  }
}

TEST_CASE("solutions/modern: the default eps is 1e-6") {
  // One token with d_v = 1: o = gain y / sqrt(y^2 + eps). Here silu(1)^3 = y.
  const Matrix one = Matrix::Ones(1, 1);
  const double s = 1.0 / (1.0 + std::exp(-1.0)), y = s * s * s;
  Vector gain(1);
  gain << 3.0;
  EX_CHECK_CLOSE(linattn::decayed_normalized_attention(one, one, one, 0.5, gain),
                 Matrix::Constant(1, 1, 3.0 * y / std::sqrt(y * y + 1e-6)), 1e-15);
}

TEST_CASE("solutions/modern: f = i = 1 is causal linear attention where every |n_t^T q_t| >= 1") {
  linref::Rng rng(31);
  const Matrix Q = (rng.normal_matrix(14, 4).cwiseAbs().array() + 0.6).matrix();
  const Matrix K = (rng.normal_matrix(14, 4).cwiseAbs().array() + 0.6).matrix();
  const Matrix V = rng.normal_matrix(14, 3);
  const Vector ones = Vector::Ones(14);
  EX_CHECK_CLOSE(linattn::mlstm(Q, K, V, ones, ones),
                 linref::causal_linear_attention_recurrent(Q, K, V, linref::identity, 0.0), 1e-12);
}
