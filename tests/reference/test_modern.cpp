// The modern layers (linref::mlstm, linref::decayed_normalized_attention) against forms written
// here and nowhere else: the masked quadratic (parallel) form of each, built from a decay
// matrix (gamma^(t-s), or products of forget gates), hand-worked examples, and the seed's
// remark that with f = i = 1 and identity features mlstm is causal linear attention apart
// from the floor of its denominator.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"
#include "linref/modern.hpp"
#include "linref/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

// Outputs are of order 1 (mlstm's weights are floored, RMSNorm makes rows of unit RMS), so
// 1e-12 absolute is far above rounding and far below any real mistake.
constexpr double kAgree = 1e-12;

// Gates uniform in (0, 1), as a sigmoid would give them.
Vector gates(linref::Rng& rng, Eigen::Index T) {
  Vector g(T);
  for (Eigen::Index t = 0; t < T; ++t) g(t) = 0.02 + 0.96 * rng.uniform();
  return g;
}

// mlstm as one masked T x T product. The weight of key s in output t is
//   D_ts = i_s f_{s+1} f_{s+2} ... f_t   for s <= t, 0 above the diagonal,
// so C_t q_t = sum_s D_ts (k_s^T q_t) v_s and n_t^T q_t = sum_s D_ts (k_s^T q_t).
Matrix mlstm_parallel(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f,
                      const Vector& i) {
  const Eigen::Index T = Q.rows();
  Matrix W = Matrix::Zero(T, T);  // (T, T): masked, gated scores
  for (Eigen::Index t = 0; t < T; ++t) {
    for (Eigen::Index s = 0; s <= t; ++s) {
      double D = i(s);
      for (Eigen::Index r = s + 1; r <= t; ++r) D *= f(r);
      W(t, s) = D * Q.row(t).dot(K.row(s));
    }
  }
  Matrix H = W * V;  // (T, d_v)
  for (Eigen::Index t = 0; t < T; ++t) H.row(t) /= std::max(std::abs(W.row(t).sum()), 1.0);
  return H;
}

double silu_of(double x) { return x * (1.0 / (1.0 + std::exp(-x))); }  // x sigma(x)

// decayed_normalized_attention as one masked T x T product with the decay matrix
// G_ts = gamma^(t - s) for s <= t, then RMSNorm of each row over its d_v entries.
Matrix decayed_parallel(const Matrix& Q, const Matrix& K, const Matrix& V, double gamma,
                        const Vector& gain, double eps) {
  const Eigen::Index T = Q.rows();
  const Matrix FQ = Q.unaryExpr(&silu_of), FK = K.unaryExpr(&silu_of), FV = V.unaryExpr(&silu_of);
  Matrix G = Matrix::Zero(T, T);  // (T, T)
  for (Eigen::Index t = 0; t < T; ++t)
    for (Eigen::Index s = 0; s <= t; ++s) G(t, s) = std::pow(gamma, static_cast<double>(t - s));
  const Matrix Y = (FQ * FK.transpose()).cwiseProduct(G) * FV;  // (T, d_v)
  Matrix O(T, V.cols());
  for (Eigen::Index t = 0; t < T; ++t) {
    const double mean_square = Y.row(t).squaredNorm() / static_cast<double>(V.cols());
    O.row(t) = Y.row(t).cwiseProduct(gain.transpose()) / std::sqrt(mean_square + eps);
  }
  return O;
}

}  // namespace

TEST_CASE("mlstm: a four-token example worked by hand (gates, the absolute value, the floor)") {
  // f = 1/2 throughout, i = (1, 2, 1, 1); d_k = d_v = 2.
  //  t=1: C = [[1,0],[0,0]], n = (1,0), q = (2,0): C q = (2,0), n.q = 2          -> (1, 0)
  //  t=2: C = [[0.5,0],[0,4]], n = (0.5,2), q = (1,1): C q = (0.5,4), n.q = 2.5   -> (0.2, 1.6)
  //  t=3: C = [[1.25,1],[1,3]], n = (1.25,2), q = (0,-4): C q = (-4,-12), n.q = -8,
  //       |n.q| = 8                                                              -> (-0.5, -1.5)
  //  t=4: C = [[0.625,-1.5],[0.5,1.5]], n = (0.625,0), q = (1,0): C q = (0.625,0.5),
  //       n.q = 0.625 < 1, floored to 1                                          -> (0.625, 0.5)
  const Matrix Q = rows({{2, 0}, {1, 1}, {0, -4}, {1, 0}});
  const Matrix K = rows({{1, 0}, {0, 1}, {1, 1}, {0, -1}});
  const Matrix V = rows({{1, 0}, {0, 2}, {1, 1}, {2, 0}});
  const Vector f = vec({0.5, 0.5, 0.5, 0.5}), i = vec({1, 2, 1, 1});
  const Matrix H = rows({{1, 0}, {0.2, 1.6}, {-0.5, -1.5}, {0.625, 0.5}});
  CHECK(max_abs_diff(linref::mlstm(Q, K, V, f, i), H) < 1e-15);
  CHECK(max_abs_diff(mlstm_parallel(Q, K, V, f, i), H) < 1e-15);
}

TEST_CASE("mlstm: recurrence == masked parallel form with gate products, d_k != d_v") {
  linref::Rng rng(71);
  for (const auto& [T, d_k, d_v, scale] :
       {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index, double>{1, 3, 2, 1.0},
        {17, 3, 5, 1.0},
        {23, 6, 2, 0.3},
        {31, 4, 4, 2.0}}) {
    CAPTURE(T);
    const Matrix Q = scale * rng.normal_matrix(T, d_k), K = scale * rng.normal_matrix(T, d_k);
    const Matrix V = rng.normal_matrix(T, d_v);
    const Vector f = gates(rng, T), i = gates(rng, T);
    const Matrix H = linref::mlstm(Q, K, V, f, i);
    REQUIRE(H.rows() == T);
    REQUIRE(H.cols() == d_v);
    CHECK(max_abs_diff(H, mlstm_parallel(Q, K, V, f, i)) < kAgree);
  }
}

TEST_CASE(
    "mlstm: with f = i = 1 and |n_t^T q_t| >= 1 it is causal linear attention (identity, eps = "
    "0)") {
  // Positive queries and keys with entries >= 0.6 in d_k = 4: n_t^T q_t >= k_1^T q_t >= 1.44.
  linref::Rng rng(73);
  const Eigen::Index T = 19, d_k = 4, d_v = 3;
  const Matrix Q = (rng.normal_matrix(T, d_k).cwiseAbs().array() + 0.6).matrix();
  const Matrix K = (rng.normal_matrix(T, d_k).cwiseAbs().array() + 0.6).matrix();
  const Matrix V = rng.normal_matrix(T, d_v);
  const Vector ones = Vector::Ones(T);
  // The premise, checked: every denominator is at least 1, so the floor never acts.
  for (Eigen::Index t = 0; t < T; ++t)
    REQUIRE(K.topRows(t + 1).colwise().sum().dot(Q.row(t)) >= 1.0);
  const Matrix causal = linref::causal_linear_attention_recurrent(Q, K, V, linref::identity, 0.0);
  CHECK(max_abs_diff(linref::mlstm(Q, K, V, ones, ones), causal) < kAgree);
}

TEST_CASE("mlstm: where |n_t^T q_t| < 1 the floor makes it differ from causal linear attention") {
  // One token, q = k = (0.5, 0): n.q = 0.25, so mlstm gives 0.25 v and the causal form v.
  const Matrix q = rows({{0.5, 0}}), v = rows({{2, -4}});
  const Vector one = vec({1});
  CHECK(max_abs_diff(linref::mlstm(q, q, v, one, one), rows({{0.5, -1}})) < 1e-15);
  CHECK(max_abs_diff(linref::causal_linear_attention_recurrent(q, q, v, linref::identity, 0.0), v) <
        1e-15);
}

TEST_CASE("silu: x sigma(x) at a few points") {
  // sigma(0) = 1/2, so silu(0) = 0; silu(x) - silu(-x) = x; silu(2) = 2/(1 + e^-2)
  // = 1.7615941559557646.
  const Matrix X = rows({{0, 1, -1, 2}});
  const Matrix Y = linref::silu(X);
  CHECK(Y(0, 0) == 0.0);
  CHECK(std::abs(Y(0, 1) - Y(0, 2) - 1.0) < 1e-15);
  CHECK(std::abs(Y(0, 1) - 0.7310585786300049) < 1e-15);
  CHECK(std::abs(Y(0, 3) - 1.7615941559557646) < 1e-15);
}

TEST_CASE("decayed_normalized_attention: a three-token example with d_k = 1") {
  // gamma = 1/2, gain = (1, 2), eps = 0; k = (2, -1, 1), q = (1, 1, -2), v = (1,0), (0,1), (-1,2).
  // With d_k = 1, y_t = silu(q_t) S_t and RMSNorm keeps only its sign: o_t = +-gain .* S_t /
  // rms(S_t).
  //  t=1: S = silu(2) (silu(1), 0): one nonzero entry, so o = gain .* (sqrt 2, 0) = (1.41421356,
  //  0). t=2: S = (0.5 silu(2) silu(1), silu(-1) silu(1)) = (0.64391426, -0.19661193), rms
  //  0.47606818:
  //       o = (1.35256731, -0.82598225).
  //  t=3: S = 0.5 S_2 + silu(1) (silu(-1), silu(2)) = (0.12534520, 1.18952255), and silu(-2) < 0
  //       flips the sign: o = (-0.14820135, -2.81285361).
  // (Figures from a separate few-line Python script, not from this library.)
  const Matrix Q = rows({{1}, {1}, {-2}}), K = rows({{2}, {-1}, {1}});
  const Matrix V = rows({{1, 0}, {0, 1}, {-1, 2}});
  const Matrix O = rows({{1.4142135623730951, 0.0},
                         {1.3525673112821315, -0.8259822478746767},
                         {-0.1482013469885731, -2.8128536120820598}});
  CHECK(max_abs_diff(linref::decayed_normalized_attention(Q, K, V, 0.5, vec({1, 2}), 0.0), O) <
        1e-14);
}

TEST_CASE(
    "decayed_normalized_attention: recurrence == masked form with gamma^(t-s), small and large "
    "gamma") {
  linref::Rng rng(79);
  for (double gamma : {0.05, 0.5, 0.9, 0.999, 1.0}) {
    for (double eps : {1e-6, 0.5}) {
      CAPTURE(gamma);
      CAPTURE(eps);
      const Eigen::Index T = 29, d_k = 3, d_v = 5;
      const Matrix Q = rng.normal_matrix(T, d_k), K = rng.normal_matrix(T, d_k);
      const Matrix V = rng.normal_matrix(T, d_v);
      const Vector gain = rng.normal_vector(d_v);
      const Matrix O = linref::decayed_normalized_attention(Q, K, V, gamma, gain, eps);
      REQUIRE(O.rows() == T);
      REQUIRE(O.cols() == d_v);
      CHECK(max_abs_diff(O, decayed_parallel(Q, K, V, gamma, gain, eps)) < kAgree);
    }
  }
}

TEST_CASE(
    "decayed_normalized_attention: gamma = 1, unit gains is TransNormer's causal form on silu(V)") {
  // normalized_linear_attention applies phi to Q and K only, so the values go in as silu(V).
  linref::Rng rng(83);
  const Matrix Q = rng.normal_matrix(13, 4), K = rng.normal_matrix(13, 4),
               V = rng.normal_matrix(13, 2);
  const Matrix O = linref::decayed_normalized_attention(Q, K, V, 1.0, Vector::Ones(2), 1e-6);
  CHECK(max_abs_diff(O, linref::normalized_linear_attention(Q, K, linref::silu(V), linref::silu,
                                                            /*causal=*/true, 1e-6)) < kAgree);
}

TEST_CASE(
    "decayed_normalized_attention: without eps every row has RMS |gain| (unit gains: RMS 1)") {
  linref::Rng rng(89);
  const Matrix O =
      linref::decayed_normalized_attention(rng.normal_matrix(9, 3), rng.normal_matrix(9, 3),
                                           rng.normal_matrix(9, 4), 0.7, Vector::Ones(4), 0.0);
  for (Eigen::Index t = 0; t < O.rows(); ++t)
    CHECK(std::abs(std::sqrt(O.row(t).squaredNorm() / 4.0) - 1.0) < 1e-14);
}

TEST_CASE("modern: shapes that do not fit are refused") {
  const Matrix X = Matrix::Ones(3, 2);
  CHECK_THROWS_AS(linref::mlstm(X, X, X, Vector::Ones(2), Vector::Ones(3)), std::invalid_argument);
  CHECK_THROWS_AS(linref::mlstm(X, Matrix::Ones(3, 4), X, Vector::Ones(3), Vector::Ones(3)),
                  std::invalid_argument);
  CHECK_THROWS_AS(linref::decayed_normalized_attention(X, X, X, 0.5, Vector::Ones(3)),
                  std::invalid_argument);
  CHECK_THROWS_AS(linref::decayed_normalized_attention(X, X, X, 0.0, Vector::Ones(2)),
                  std::invalid_argument);
  CHECK_THROWS_AS(linref::decayed_normalized_attention(X, X, X, 1.5, Vector::Ones(2)),
                  std::invalid_argument);
}
