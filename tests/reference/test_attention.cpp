// Softmax attention, non-causal kernel attention in both orders, and normalized linear attention.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

// The seed's three tokens. For softmax, the queries are scaled by sqrt(d_k) = sqrt(2) so that
// the 1/sqrt(d_k) temperature gives back the seed's round scores (q_2.k_1 = 1, q_2.k_2 = 0).
const double r2 = std::sqrt(2.0);
const Matrix Q = rows({{0, 0}, {1, 0}, {0, 1}});
const Matrix K = rows({{1, 0}, {0, 1}, {0, 0}});
const Matrix V = rows({{1, 0}, {0, 1}, {1, 1}});
const double e = std::exp(1.0);

}  // namespace

TEST_CASE("softmax weights by hand: query 2 gives e/(e+1) = 0.73 and 0.27 (causal)") {
  const Matrix W = linref::softmax_weights(Q * r2, K, true);
  // Row 1 sees only key 1. Row 2: scores (1, 0). Row 3: scores (0, 1, 0) -> (1, e, 1)/(e + 2).
  const Matrix expected = rows({{1.0, 0.0, 0.0},
                                {e / (e + 1.0), 1.0 / (e + 1.0), 0.0},
                                {1.0 / (e + 2.0), e / (e + 2.0), 1.0 / (e + 2.0)}});
  CHECK(max_abs_diff(W, expected) < 1e-15);
  CHECK(W(1, 0) == doctest::Approx(0.73).epsilon(0.005));  // the seed's rounded figures
  CHECK(W(1, 1) == doctest::Approx(0.27).epsilon(0.01));
  // Outputs: the same weights applied to V.
  const Matrix O = linref::softmax_attention(Q * r2, K, V, true);
  const Matrix O_expected = rows(
      {{1.0, 0.0}, {e / (e + 1.0), 1.0 / (e + 1.0)}, {2.0 / (e + 2.0), (e + 1.0) / (e + 2.0)}});
  CHECK(max_abs_diff(O, O_expected) < 1e-15);
}

TEST_CASE("softmax non-causal by hand, temperature 1/sqrt(d_k), stable for huge scores") {
  // Query 1 is zero: uniform weights 1/3.
  const Matrix W = linref::softmax_weights(Q, K, false);
  CHECK(max_abs_diff(W.row(0), rows({{1.0 / 3, 1.0 / 3, 1.0 / 3}})) < 1e-15);
  // d_k = 4, so scores are q.k / 2: q = (2000, 0, 0, 0), keys with q.k = 2000 and 1998 give
  // scores 1000 and 999, weights e/(e+1) and 1/(e+1) without overflow.
  const Matrix q = rows({{2000, 0, 0, 0}});
  const Matrix k = rows({{1, 0, 0, 0}, {0.999, 0, 0, 0}});
  const Matrix w = linref::softmax_weights(q, k, false);
  CHECK(max_abs_diff(w, rows({{e / (e + 1.0), 1.0 / (e + 1.0)}})) < 1e-12);
}

TEST_CASE(
    "kernel attention by hand (elu+1, non-causal): rows of the kernel matrix over their sums") {
  // Kernel rows (3,3,2), (5,4,3), (4,5,3), sums 8, 12, 12:
  // o_1 = (3 v1 + 3 v2 + 2 v3)/8 = (5/8, 5/8), o_2 = (8, 7)/12, o_3 = (7, 8)/12.
  const Matrix expected = rows({{5.0 / 8, 5.0 / 8}, {8.0 / 12, 7.0 / 12}, {7.0 / 12, 8.0 / 12}});
  CHECK(max_abs_diff(linref::kernel_attention_left(Q, K, V, linref::elu_plus_one, 0.0), expected) <
        1e-15);
  CHECK(max_abs_diff(linref::kernel_attention_right(Q, K, V, linref::elu_plus_one, 0.0), expected) <
        1e-15);
}

TEST_CASE("left and right orders agree on random data (Taylor features, T_q != T_k)") {
  linref::Rng rng(55);
  const Matrix Qr = rng.normal_matrix(7, 3), Kr = rng.normal_matrix(11, 3),
               Vr = rng.normal_matrix(11, 4);
  const Matrix left = linref::kernel_attention_left(Qr, Kr, Vr, linref::taylor_features, 1e-6);
  const Matrix right = linref::kernel_attention_right(Qr, Kr, Vr, linref::taylor_features, 1e-6);
  REQUIRE(left.rows() == 7);
  REQUIRE(left.cols() == 4);
  CHECK(max_abs_diff(left, right) < 1e-12);
}

TEST_CASE("normalized linear attention by hand: no denominator, rows to unit RMS") {
  // Numerators S_t^T phi(q_t) from the seed: causal (3,0), (5,4), (7,8); mean squares 4.5,
  // 20.5, 56.5. Non-causal: rows of the kernel matrix times V: (5,5), (8,7), (7,8).
  const Matrix causal = rows({{3 / std::sqrt(4.5), 0.0},
                              {5 / std::sqrt(20.5), 4 / std::sqrt(20.5)},
                              {7 / std::sqrt(56.5), 8 / std::sqrt(56.5)}});
  const Matrix full = rows({{1.0, 1.0},
                            {8 / std::sqrt(56.5), 7 / std::sqrt(56.5)},
                            {7 / std::sqrt(56.5), 8 / std::sqrt(56.5)}});
  CHECK(max_abs_diff(linref::normalized_linear_attention(Q, K, V, linref::elu_plus_one, true, 0.0),
                     causal) < 1e-15);
  CHECK(max_abs_diff(linref::normalized_linear_attention(Q, K, V, linref::elu_plus_one, false, 0.0),
                     full) < 1e-15);
  // eps sits inside the square root: (3, 0) with eps = 0.5 is divided by sqrt(5).
  const Matrix with_eps =
      linref::normalized_linear_attention(Q, K, V, linref::elu_plus_one, true, 0.5);
  CHECK(with_eps(0, 0) == doctest::Approx(3 / std::sqrt(5.0)).epsilon(1e-15));
  // A zero numerator stays zero instead of becoming 0/0 (identity features, q_1 = 0).
  const Matrix zero_row = linref::normalized_linear_attention(Q, K, V, linref::identity, true);
  CHECK(zero_row.row(0).norm() == 0.0);
}

TEST_CASE(
    "causal softmax: nothing above the diagonal, rows sum to 1, row t = softmax over keys 1..t") {
  linref::Rng rng(66);
  const Matrix Qr = rng.normal_matrix(6, 3), Kr = rng.normal_matrix(6, 3),
               Vr = rng.normal_matrix(6, 2);
  const Matrix W = linref::softmax_weights(Qr, Kr, true);
  const Matrix O = linref::softmax_attention(Qr, Kr, Vr, true);
  for (Eigen::Index t = 0; t < 6; ++t) {
    CAPTURE(t);
    CHECK(W.row(t).sum() == doctest::Approx(1.0).epsilon(1e-14));
    for (Eigen::Index s = t + 1; s < 6; ++s) CHECK(W(t, s) == 0.0);
    // Masking equals dropping the future keys: the non-causal softmax over keys 0..t.
    const Matrix prefix =
        linref::softmax_attention(Qr.row(t), Kr.topRows(t + 1), Vr.topRows(t + 1), false);
    CHECK(max_abs_diff(O.row(t), prefix) < 1e-14);
  }
}

// The stabilising maximum is taken over the keys a query may see. A masked future key with a
// score 1000 above the visible ones would otherwise push every visible exp() to 0, and the
// row to 0/0.
TEST_CASE("causal softmax: a huge score on a masked key changes nothing") {
  // d_k = 1, temperature 1. Query 1 sees key 1 (score 0) only; key 2's score, 1000, is masked.
  const Matrix q = rows({{1}, {1}}), k = rows({{0}, {1000}});
  const Matrix W = linref::softmax_weights(q, k, true);
  REQUIRE(W.allFinite());
  CHECK(max_abs_diff(W, rows({{1.0, 0.0}, {0.0, 1.0}})) < 1e-15);
  const Matrix O = linref::softmax_attention(q, k, rows({{2, 3}, {5, 7}}), true);
  CHECK(max_abs_diff(O, rows({{2, 3}, {5, 7}})) < 1e-15);
}
