// Labs whose results are exact: the hand example, the MiniMax-01 arithmetic, numerical ranks,
// agreement of forms and of gradients, bf16 rounding, byte counts. Tolerances are stated where
// rounding enters.
#include "labs.hpp"

#include <doctest/doctest.h>

#include <linref/gradients.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

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

TEST_CASE("rank: the sweep over the scores' size, half a decade apart, from polynomial to full") {
  const RankResult r = compute_rank();
  const auto& sweep = r.softmax_rank_by_scale;
  REQUIRE(sweep.size() >= 8);
  CHECK(sweep.front().first == doctest::Approx(1e-3));
  CHECK(sweep.back().first >= 3.0);
  for (std::size_t i = 1; i < sweep.size(); ++i) {
    INFO("c = " << sweep[i - 1].first << " then " << sweep[i].first);
    // No wider step than half a decade (1, 3, 10 in each decade): the table shows where the
    // rank climbs, not a jump over it.
    CHECK(sweep[i].first > sweep[i - 1].first);
    CHECK(sweep[i].first <= 3.34 * sweep[i - 1].first);
    // Up to scores of order one the rank only grows with their size.
    if (sweep[i].first <= 1.0) CHECK(sweep[i].second >= sweep[i - 1].second);
  }
  // Scores of about 1e-6: exp(s) is 1 + s + s^2/2 to within the rank's threshold, a
  // polynomial of degree 2, of rank at most 1 + d_k + d_k (d_k + 1) / 2 = 153, well below T.
  CHECK(sweep.front().second <= 1 + r.d_k + r.d_k * (r.d_k + 1) / 2);
  for (const auto& [c, rank] : sweep)
    if (c == 1.0) CHECK(rank == r.T);  // the lab's construction: full rank
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

TEST_CASE("chunk-size: every chunk size gives the recurrent outputs, rows in the order asked") {
  // Small and untimed in spirit: one round, T = 200 with d_phi != d_v (a transposed state
  // would show), chunk sizes that do not divide T, one of 1 token and two of T or more.
  const std::vector<Eigen::Index> chunks = {1, 3, 7, 32, 64, 200, 256};
  const ChunkSizeResult r = compute_chunk_size(200, 12, 5, chunks, 1);
  REQUIRE(r.rows.size() == chunks.size());
  CHECK(r.T == 200);
  CHECK(r.d_phi == 12);
  CHECK(r.d_v == 5);
  // Outputs are averages of N(0, 1) values, of order one; rounding is ~1e-15.
  CHECK(r.output_scale > 0.1);
  CHECK(r.max_diff_parallel < 1e-12);
  bool fastest_is_a_row = false;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    CAPTURE(chunks[i]);
    CHECK(r.rows[i].chunk == chunks[i]);
    CHECK(r.rows[i].max_diff_recurrent < 1e-12);
    if (r.rows[i].chunk == r.fastest_chunk) fastest_is_a_row = true;
  }
  CHECK(fastest_is_a_row);
  CHECK(fastest_chunk(r) == r.fastest_chunk);
}

// The lab prints "T = ..., N rounds" from the result: the count reported is the one asked for.
TEST_CASE("chunk-size: the result reports the rounds it was timed over") {
  for (int rounds : {1, 3}) {
    CAPTURE(rounds);
    const ChunkSizeResult r = compute_chunk_size(64, 4, 3, {8, 64}, rounds);
    CHECK(r.rounds == rounds);
    CHECK(r.T == 64);
    CHECK(r.d_phi == 4);
    CHECK(r.d_v == 3);
  }
}

TEST_CASE(
    "chunk-size: the GEMM skeleton's FLOPs are 2 C^2 (d_phi + d_v) + 4 C d_phi d_v per chunk") {
  const ChunkSizeResult r = compute_chunk_size(200, 12, 5, {1, 7, 200, 256}, 1);
  REQUIRE(r.rows.size() == 4);
  // C = 1: 200 chunks of 2 * 17 + 4 * 60 = 274.
  CHECK(r.rows[0].gemm_flops == 200.0 * 274.0);
  // C = 7: 28 chunks of 7 (2 * 49 * 17 + 4 * 7 * 60 = 3346) and one of 4 (544 + 960).
  CHECK(r.rows[1].gemm_flops == 28.0 * 3346.0 + 1504.0);
  // C = T, and a chunk longer than T, are one chunk of 200 tokens.
  CHECK(r.rows[2].gemm_flops == 2.0 * 200 * 200 * 17 + 4.0 * 200 * 60);
  CHECK(r.rows[3].gemm_flops == r.rows[2].gemm_flops);
  CHECK(r.yardstick_flops == 2.0 * 12 * 200 * 5);
}

TEST_CASE("chunk-size: the conclusion line is computed from the times it is given") {
  ChunkSizeResult r{};
  r.recurrent_seconds = 3e-3;
  r.parallel_seconds = 20e-3;
  r.rows = {
      {32, 1.00e-3, 1.0, 1.0, 0.0}, {64, 2.00e-3, 1.0, 1.0, 0.0}, {128, 1.05e-3, 1.0, 1.0, 0.0}};
  std::string s = chunk_size_conclusion(r);
  CAPTURE(s);
  CHECK(s.find("fastest chunk 32 ") != std::string::npos);
  CHECK(s.find("outside the seed's 64..256") != std::string::npos);
  CHECK(s.find("within 10% of it: 32, 128") != std::string::npos);  // 64 is twice as slow
  CHECK(s.find("3.0x the recurrent") != std::string::npos);
  CHECK(s.find("20.0x the parallel") != std::string::npos);
  CHECK(fastest_chunk(r) == 32);

  r.rows[2].chunkwise_seconds = 0.5e-3;
  s = chunk_size_conclusion(r);
  CAPTURE(s);
  CHECK(s.find("fastest chunk 128 ") != std::string::npos);
  CHECK(s.find("inside the seed's 64..256") != std::string::npos);
  CHECK(s.find("within 10% of it: 128;") != std::string::npos);
  CHECK(fastest_chunk(r) == 128);
}

TEST_CASE("pitfalls: bf16 rounding keeps 8 significant bits, ties to even") {
  const float u = std::ldexp(1.0f, -7);  // bf16's spacing just above 1
  CHECK(round_to_bf16(1.0f) == 1.0f);
  CHECK(round_to_bf16(1.0f + u) == 1.0f + u);              // representable: unchanged
  CHECK(round_to_bf16(1.0f + u / 2) == 1.0f);              // tie: to the even neighbour 1
  CHECK(round_to_bf16(1.0f + 3 * u / 2) == 1.0f + 2 * u);  // tie: up to the even neighbour
  CHECK(round_to_bf16(1.0f + u / 2 + std::ldexp(1.0f, -20)) == 1.0f + u);  // above the tie
  CHECK(round_to_bf16(-(1.0f + u / 2 + std::ldexp(1.0f, -20))) == -(1.0f + u));
  CHECK(round_to_bf16(0.1f) == 0.10009765625f);  // 0.1 in bf16: 205/2048
  // The pitfall in one line: near 256 the spacing is 2, so adding 0.9 changes nothing.
  CHECK(round_to_bf16(256.0f + 0.9f) == 256.0f);
  CHECK(round_to_bf16(256.0f + 1.1f) == 258.0f);
  CHECK(std::isinf(round_to_bf16(std::numeric_limits<float>::infinity())));
}

TEST_CASE("backward-memory: the seed's 512 MiB and the byte counts from the shapes") {
  const BackwardMemoryResult r = compute_backward_memory(16, {64, 128});
  CHECK(r.seed_figure_bytes == 512LL * 1024 * 1024);  // 8192 * 128 * 128 * 4
  CHECK(r.d_phi == 128);
  CHECK(r.d_v == 128);
  REQUIRE(r.rows.size() == 7);  // T = 1024 .. 65536
  for (const BackwardMemoryRow& row : r.rows) {
    CAPTURE(row.T);
    CHECK(row.cumsum_bytes == row.T * 128 * 128 * 4);
    CHECK(row.two_pass_state_bytes == 2 * (128 * 128 + 128) * 4);  // S, z, R, r: not T
    CHECK(row.two_pass_token_bytes == row.T * 129 * 4);            // u_t, w_t
    if (row.T == 8192) CHECK(row.cumsum_bytes == r.seed_figure_bytes);
  }
  // The ratio tends to d_phi d_v / (d_v + 1) = 127 and is above 100 from T = 8192 on.
  const BackwardMemoryRow& at_8192 = r.rows[3];
  REQUIRE(at_8192.T == 8192);
  CHECK(at_8192.cumsum_bytes > 100 * (at_8192.two_pass_state_bytes + at_8192.two_pass_token_bytes));
  // The measured rows' shapes, in double precision.
  REQUIRE(r.measured_rows.size() == 2);
  CHECK(r.measured_rows[1].cumsum_states_bytes == 128 * 16 * 16 * 8);
  CHECK(r.measured_rows[1].two_pass_extra_bytes == (2 * (16 * 16 + 16) + 128 * 17) * 8);
  CHECK(r.measured_rows[1].two_pass_output_bytes == 3 * 128 * 16 * 8);
  CHECK(r.max_cumsum_vs_recurrent < 1e-12);
}
