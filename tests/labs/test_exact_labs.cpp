// Labs whose results are exact: the hand example, the MiniMax-01 arithmetic, numerical ranks,
// agreement of forms and of gradients. Tolerances are stated where rounding enters.
#include "labs.hpp"

#include <doctest/doctest.h>

#include <linref/gradients.hpp>

#include <cmath>

using namespace linlab;

TEST_CASE("forms: the three-token hand example comes out as the exact fractions") {
  const FormsResult r = compute_forms();
  // phi(Q) phi(K)^T from the text: rows (3, 3, 2), (5, 4, 3), (4, 5, 3); integers, so exact.
  linref::Matrix kernel(3, 3);
  kernel << 3, 3, 2, 5, 4, 3, 4, 5, 3;
  CHECK(r.hand_kernel == kernel);
  // With eps = 0 every number on the way is an integer until the last division, so each form
  // gives the correctly rounded fraction; 1e-15 allows one rounding of a value below 1.
  for (const linref::Matrix* M : {&r.hand_recurrent, &r.hand_parallel, &r.hand_chunkwise}) {
    REQUIRE(M->rows() == 3);
    REQUIRE(M->cols() == 2);
    CHECK((*M - r.hand_expected).cwiseAbs().maxCoeff() <= 1e-15);
  }
  CHECK(r.hand_expected(1, 0) == 5.0 / 9.0);
  CHECK(r.hand_expected(2, 1) == 2.0 / 3.0);
  CHECK(std::fabs(r.softmax_weight_q2k1 - 0.7311) < 1e-4);  // the text's 0.73
}

TEST_CASE("forms: recurrent and parallel and chunkwise agree on random data") {
  const FormsResult r = compute_forms();
  // Outputs are averages of N(0, 1) values, of order one; rounding is ~1e-15.
  CHECK(r.max_diff_parallel < 1e-12);
  CHECK(r.max_diff_chunkwise < 1e-12);
  CHECK(r.max_diff_chunkwise_odd < 1e-12);
}

TEST_CASE("state-vs-cache: MiniMax-01 figures and the break-evens are exact") {
  const StateCacheResult r = compute_state_vs_cache();
  CHECK(r.state_numbers == 73400320);
  CHECK(r.state_bytes == 280LL * 1024 * 1024);
  CHECK(r.cache_bytes_per_token == 40960);
  CHECK(r.cache_bytes_2_20 == 40LL * 1024 * 1024 * 1024);
  CHECK(r.cache_bytes_2_20_all_softmax == 320LL * 1024 * 1024 * 1024);
  CHECK(r.own_state_numbers == r.state_numbers);
  CHECK(r.own_state_bytes == r.state_bytes);
  CHECK(r.own_cache_bytes_per_token == r.cache_bytes_per_token);
  CHECK(r.own_cache_2_20 == r.cache_bytes_2_20);
  CHECK(r.own_cache_2_20_all == r.cache_bytes_2_20_all_softmax);
  CHECK(r.layer_state_numbers == 524288);
  CHECK(r.kv_numbers_per_token == 2048);
  CHECK(r.break_even_numbers == 256);
  CHECK(r.layer_state_bytes == 2LL * 1024 * 1024);
  CHECK(r.kv_bytes_per_token == 4096);
  CHECK(r.break_even_bytes == 512);
  CHECK(r.head_state_numbers == 16512);
}

TEST_CASE("rank: numerical_rank on matrices of known rank") {
  linref::Rng rng(11);
  const linref::Matrix A = rng.normal_matrix(40, 3) * rng.normal_matrix(3, 30);  // rank 3
  CHECK(numerical_rank(A) == 3);
  CHECK(numerical_rank(linref::Matrix::Identity(7, 7)) == 7);
}

TEST_CASE("rank: softmax kernel matrix full rank while elu+1 matrix and its block have rank d_k") {
  const RankResult r = compute_rank();
  CHECK(r.softmax_rank == 256);
  CHECK(r.softmax_block_rank == 128);
  CHECK(r.elu_rank == 16);
  CHECK(r.elu_block_rank == 16);
  // The 17th singular value of the elu+1 matrix is rounding noise, the 16th is not.
  CHECK(r.elu_sv(15) > 1e6 * r.elu_tol);
  CHECK(r.elu_sv(16) < r.elu_tol);
  // Lower triangle of positive entries with a positive diagonal: nonsingular.
  CHECK(r.elu_masked_rank == 256);
}

TEST_CASE("gradients: three forms agree and two-pass gradients match the quadratic form and FD") {
  const GradientsResult r = compute_gradients();
  CHECK(r.forms_quadratic_vs_recurrent < 1e-12);
  CHECK(r.forms_cumsum_vs_recurrent < 1e-12);
  // Two exact computations of the same gradient in double precision: rounding only.
  CHECK(r.grad_running_vs_quadratic < 1e-12);
  // Central differences with h = 1e-5: truncation ~h^2 = 1e-10 times third derivatives of
  // order one, plus rounding ~1e-16 / h = 1e-11; 1e-7 leaves a wide margin.
  CHECK(r.grad_running_vs_fd < 1e-7);
  CHECK(r.cumsum_bytes_seed == 512LL * 1024 * 1024);
}

TEST_CASE("gradients: the hand-derived gradient of a one-token case checked entry by entry") {
  // T = 1: o_1 = v_1 whatever q and k are (one key), so dL/dQ = dL/dK = 0 and dL/dV = G
  // with eps = 0. The terms cancel exactly on paper; 1e-14 allows their rounding.
  linref::Matrix Q(1, 2), K(1, 2), V(1, 3), G(1, 3);
  Q << 0.3, -0.2;
  K << -0.5, 0.7;
  V << 1.0, 2.0, 3.0;
  G << 0.5, -1.0, 2.0;
  const auto g = linref::causal_elu_grad_running(Q, K, V, G, 0.0);
  CHECK(g.dQ.cwiseAbs().maxCoeff() < 1e-14);
  CHECK(g.dK.cwiseAbs().maxCoeff() < 1e-14);
  CHECK((g.dV - G).cwiseAbs().maxCoeff() < 1e-14);
}
