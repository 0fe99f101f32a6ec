// FLOPs, state and cache sizes: the seed's figures, written as the seed writes them.
#include "linref/costs.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

using linref::Order;
using std::int64_t;

namespace {
constexpr int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
}

TEST_CASE("seed: T = 65,536, d = 128: about 2.2e12 vs 4.3e9 FLOPs, exactly 512 times less") {
  const int64_t left = linref::attention_flops(65536, 128, 128, Order::Left);
  const int64_t right = linref::attention_flops(65536, 128, 128, Order::Right);
  // By hand: left 2 T^2 (2d) = 2 * 2^32 * 2^8 = 2^41, right 4 T d^2 = 4 * 2^16 * 2^14 = 2^32.
  CHECK(left == (int64_t{1} << 41));
  CHECK(right == (int64_t{1} << 32));
  CHECK(static_cast<double>(left) == doctest::Approx(2.2e12).epsilon(0.005));
  CHECK(static_cast<double>(right) == doctest::Approx(4.3e9).epsilon(0.005));
  CHECK(left == 512 * right);
}

TEST_CASE("attention_flops by hand with unequal widths") {
  // T = 10, d_phi = 3, d_v = 5: left 2*10*3*10 + 2*10*10*5 = 600 + 1000; right 4*10*3*5 = 600.
  CHECK(linref::attention_flops(10, 3, 5, Order::Left) == 1600);
  CHECK(linref::attention_flops(10, 3, 5, Order::Right) == 600);
}

TEST_CASE("seed: T* = d is the break-even point, Right is strictly cheaper from d + 1") {
  for (int64_t d : {1, 32, 64, 128}) {
    CAPTURE(d);
    CHECK(linref::attention_flops(d, d, d, Order::Left) ==
          linref::attention_flops(d, d, d, Order::Right));
    CHECK(linref::attention_flops(d + 1, d, d, Order::Right) <
          linref::attention_flops(d + 1, d, d, Order::Left));
    CHECK(linref::crossover_T(d, d) == d + 1);
  }
  // Unequal: 2 * 256 * 128 / 384 = 170.67. At T = 170 Right costs 22,282,240 > 22,195,200;
  // at T = 171, 22,413,312 < 22,457,088.
  CHECK(linref::crossover_T(256, 128) == 171);
}

TEST_CASE("crossover_T is the first T with 4 T a b < 2 T^2 (a + b), scanning small widths") {
  for (int64_t a = 1; a <= 40; ++a) {
    for (int64_t b = 1; b <= 40; ++b) {
      int64_t first = 1;
      while (!(4 * first * a * b < 2 * first * first * (a + b))) ++first;
      REQUIRE(linref::crossover_T(a, b) == first);
    }
  }
}

TEST_CASE("seed: 16,512 state numbers vs 2*128 numbers per token, about 64 tokens") {
  CHECK(linref::state_numbers(128, 128) == 16512);
  CHECK(linref::kv_cache_bytes_per_token(1, 128, 1) == 2 * 128);  // one byte per number
  // 64 tokens hold 16,384 numbers, just under the state; the 65th passes it.
  CHECK(linref::kv_cache_tokens(16512, 1, 128, 1) == 65);
  CHECK(64 * 256 < 16512);
}

TEST_CASE(
    "seed: 32 heads of 128 hold 524,288 numbers = 256 tokens of 2,048, 2 MiB = 512 tokens of 4 "
    "KiB") {
  const linref::HybridModel layer{1, 0, 32, 128, 8};  // one linear layer, 8 KV heads to compare
  CHECK(linref::linear_state_numbers(layer) == 524288);
  CHECK(linref::kv_cache_bytes_per_token(8, 128, 1) == 2048);  // numbers per token
  CHECK(linref::kv_cache_tokens(524288, 8, 128, 1) == 256);
  CHECK(linref::linear_state_bytes(layer) == 2 * MiB);         // float32
  CHECK(linref::kv_cache_bytes_per_token(8, 128) == 4 * KiB);  // bf16
  CHECK(linref::kv_cache_tokens(2 * MiB, 8, 128) == 512);
}

TEST_CASE("kv_cache_tokens rounds up and gives 0 for 0 bytes") {
  CHECK(linref::kv_cache_tokens(0, 8, 128) == 0);
  CHECK(linref::kv_cache_tokens(1, 8, 128) == 1);
  CHECK(linref::kv_cache_tokens(4096, 8, 128) == 1);
  CHECK(linref::kv_cache_tokens(4097, 8, 128) == 2);
}

TEST_CASE("Taylor state bytes by hand and Based's 273 features") {
  CHECK(linref::taylor_feature_count(int64_t{16}) == 273);
  // d = 16, d_v = 64, one head, float32: 273 * 64 + 273 = 17,745 numbers, 70,980 bytes.
  CHECK(linref::taylor_state_bytes(16, 64, 1) == 70980);
  CHECK(linref::taylor_state_bytes(16, 64, 4, 2) == 4 * 17745 * 2);
}

TEST_CASE(
    "seed: MiniMax-01, 73,400,320 numbers (280 MiB), 40,960 B/token, 40 GiB and 320 GiB at 2^20") {
  const linref::HybridModel m = linref::minimax01();
  CHECK(m.linear_layers == 70);
  CHECK(m.softmax_layers == 10);
  CHECK(m.heads == 64);
  CHECK(m.head_dim == 128);
  CHECK(m.kv_heads == 8);
  CHECK(linref::linear_state_numbers(m) == 73400320);
  CHECK(linref::linear_state_bytes(m) == 280 * MiB);
  CHECK(linref::softmax_cache_bytes_per_token(m) == 40960);
  CHECK(linref::softmax_cache_bytes(m, int64_t{1} << 20, false) == 40 * GiB);
  CHECK(linref::softmax_cache_bytes(m, int64_t{1} << 20, true) == 320 * GiB);
}

TEST_CASE("seed: storing every state at T = 8192, d_phi = d_v = 128, float32 is 512 MiB") {
  CHECK(linref::stored_states_bytes(8192, 128, 128) == 512 * MiB);
}
