// The Taylor solution: the seed's q = (1, 2), k = (3, 1) pair, the kernel identity, Based's
// 273 features, the state and cache sizes of the seed's examples, and the reference.
#include "helpers.hpp"
#include "taylor.hpp"

#include <cmath>
#include <cstdint>

using extest::Matrix;
using extest::Vector;

TEST_CASE("solutions/taylor: the seed's pair q = (1, 2), k = (3, 1)") {
  Matrix X(2, 2);
  X << 1, 2, 3, 1;
  const Matrix F = linattn::taylor_features(X);
  const double r = 1 / std::sqrt(2.0);
  Matrix want(2, 7);
  want << 1, 1, 2, 1 * r, 2 * r, 2 * r, 4 * r,  //
      1, 3, 1, 9 * r, 3 * r, 3 * r, 1 * r;
  EX_CHECK_CLOSE(F, want, 1e-15);
  // s = 5: 1 + 5 + 25/2 = 18.5; the quadratic block alone gives (1,2,2,4).(9,3,3,1)/2 = 25/2.
  CHECK(F.row(0).dot(F.row(1)) == doctest::Approx(18.5).epsilon(1e-14));
  CHECK(F.row(0).tail(4).dot(F.row(1).tail(4)) == doctest::Approx(12.5).epsilon(1e-14));
}

TEST_CASE("solutions/taylor: row-major order of vec(x x^T) when entries differ") {
  Matrix X(1, 3);
  X << 2, 3, 5;
  const Matrix F = linattn::taylor_features(X);
  REQUIRE(F.cols() == 13);
  const double r = 1 / std::sqrt(2.0);
  Matrix want(1, 13);
  want << 1, 2, 3, 5, 4 * r, 6 * r, 10 * r, 6 * r, 9 * r, 15 * r, 10 * r, 15 * r, 25 * r;
  EX_CHECK_CLOSE(F, want, 1e-15);
}

TEST_CASE("solutions/taylor: phi(q).phi(k) = 1 + s + s^2/2 on random pairs") {
  linref::Rng rng(8);
  for (int d : {1, 2, 5, 16}) {
    const Matrix X = rng.normal_matrix(2, d);
    const Matrix F = linattn::taylor_features(X);
    const double s = X.row(0).dot(X.row(1));
    CAPTURE(d);
    CHECK(F.row(0).dot(F.row(1)) == doctest::Approx(1 + s + s * s / 2).epsilon(1e-12));
  }
}

TEST_CASE("solutions/taylor: Based's 273 features at d = 16, 16513 at d = 128") {
  CHECK(linattn::taylor_features(Matrix::Ones(3, 16)).cols() == 273);
  CHECK(linattn::taylor_features(Matrix::Ones(1, 128)).cols() == 16513);
}

TEST_CASE("solutions/taylor: state bytes") {
  // d = 128: 16513 features, "a state of over two million numbers per head" (bytes_per = 1
  // counts numbers): 16513 * 128 + 16513 = 2,130,177.
  CHECK(linattn::taylor_state_bytes(128, 128, 1, 1) == 2130177);
  // Based: d = 16, 273 features; one head with d_v = 64 in float32: 273 * 65 * 4.
  CHECK(linattn::taylor_state_bytes(16, 64, 1) == 273 * 65 * 4);
  CHECK(linattn::taylor_state_bytes(16, 64, 32, 2) == 32 * 273 * 65 * 2);
  // 64-bit: 64 heads at d = 256 pass 2^31 bytes.
  CHECK(linattn::taylor_state_bytes(256, 256, 64) == std::int64_t{64} * 65793 * 257 * 4);
}

TEST_CASE("solutions/taylor: KV-cache tokens, the seed's comparisons") {
  // 32 heads of 128: 524,288 state numbers; GQA with 8 KV heads of 128 stores 2,048 numbers per
  // token (bytes_per = 1 counts numbers): equal at 256 tokens.
  CHECK(linattn::kv_cache_tokens(524288, 8, 128, 1) == 256);
  // In bytes: 2 MiB of float32 state against 4 KiB of bf16 cache per token: 512 tokens.
  CHECK(linattn::kv_cache_tokens(2 * 1024 * 1024, 8, 128) == 512);
  // One head, d_phi = d_v = 128: the S part, 16,384 numbers, is 64 tokens of 256 numbers; with
  // z (16,512 numbers) the cache needs one more token to reach "at least".
  CHECK(linattn::kv_cache_tokens(16384, 1, 128, 1) == 64);
  CHECK(linattn::kv_cache_tokens(16512, 1, 128, 1) == 65);
  // MiniMax-01: 280 MiB of linear state against 40,960 bytes of cache per token (10 softmax
  // layers of 8 KV heads, counted as 80 KV heads): 7,168 tokens.
  CHECK(linattn::kv_cache_tokens(std::int64_t{73400320} * 4, 80, 128) == 7168);
  CHECK(linattn::kv_cache_tokens(0, 8, 128) == 0);
  CHECK(linattn::kv_cache_tokens(1, 8, 128) == 1);
  CHECK(linattn::kv_cache_tokens(4096, 8, 128) == 1);
  CHECK(linattn::kv_cache_tokens(4097, 8, 128) == 2);
}

TEST_CASE("solutions/taylor: agrees with the reference") {
  linref::Rng rng(21);
  for (auto [n, d] : {std::pair<int, int>{1, 1}, {4, 2}, {3, 5}, {2, 16}}) {
    const Matrix X = rng.normal_matrix(n, d);
    EX_CHECK_CLOSE(linattn::taylor_features(X), linref::taylor_features(X), 1e-14);
  }
  for (std::int64_t d : {1, 16, 128}) {
    for (std::int64_t d_v : {1, 64, 128}) {
      for (std::int64_t heads : {1, 32, 64}) {
        for (std::int64_t bytes : {1, 2, 4}) {
          CHECK(linattn::taylor_state_bytes(d, d_v, heads, bytes) ==
                linref::taylor_state_bytes(d, d_v, heads, bytes));
        }
      }
    }
  }
  for (std::int64_t state : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4095},
                             std::int64_t{4096}, std::int64_t{2130177}, std::int64_t{293601280}}) {
    for (std::int64_t n_kv : {1, 8, 80}) {
      for (std::int64_t d_k : {64, 128}) {
        for (std::int64_t bytes : {1, 2}) {
          CHECK(linattn::kv_cache_tokens(state, n_kv, d_k, bytes) ==
                linref::kv_cache_tokens(state, n_kv, d_k, bytes));
        }
      }
    }
  }
}
