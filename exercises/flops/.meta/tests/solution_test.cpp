// The flops solution against the seed's figures, a brute-force search and the reference.
#include "flops.hpp"
#include "helpers.hpp"

#include <cstdint>

using linattn::Order;

TEST_CASE("solutions/flops: the seed's figures at T = 65536, d = 128") {
  const std::int64_t left = linattn::attention_flops(65536, 128, 128, Order::Left);
  const std::int64_t right = linattn::attention_flops(65536, 128, 128, Order::Right);
  // 2 T^2 (d + d) = 2^41 and 4 T d^2 = 2^32: "about 2.2e12" and "about 4.3e9".
  CHECK(left == (std::int64_t{1} << 41));
  CHECK(right == (std::int64_t{1} << 32));
  CHECK(left == doctest::Approx(2.2e12).epsilon(0.01));
  CHECK(right == doctest::Approx(4.3e9).epsilon(0.01));
  CHECK(left / right == 512);
}

TEST_CASE("solutions/flops: each order by hand, unequal widths") {
  // T = 3, d_phi = 2, d_v = 5: left 2*9*(2+5) = 126, right 4*3*2*5 = 120.
  CHECK(linattn::attention_flops(3, 2, 5, Order::Left) == 126);
  CHECK(linattn::attention_flops(3, 2, 5, Order::Right) == 120);
  CHECK(linattn::attention_flops(1, 1, 1, Order::Left) == 4);
  CHECK(linattn::attention_flops(1, 1, 1, Order::Right) == 4);
}

TEST_CASE("solutions/flops: no 32-bit overflow") {
  // 2 * 10^6 squared overflows 32 bits many times over.
  const std::int64_t T = 1000000;
  CHECK(linattn::attention_flops(T, 64, 64, Order::Left) == 2 * T * T * 128);
  CHECK(linattn::attention_flops(T, 4096, 4096, Order::Right) == 4 * T * 4096 * 4096);
}

TEST_CASE("solutions/flops: crossover is strictly cheaper, d + 1 for equal widths") {
  CHECK(linattn::crossover_T(32, 32) == 33);  // the seed's timing cell predicts T* = 32
  CHECK(linattn::crossover_T(128, 128) == 129);
  for (std::int64_t d = 1; d <= 300; ++d) {
    CAPTURE(d);
    CHECK(linattn::crossover_T(d, d) == d + 1);
  }
}

TEST_CASE("solutions/flops: crossover equals a brute-force search") {
  // Independent of the formula: walk T up until the right order is strictly cheaper.
  for (std::int64_t d_phi = 1; d_phi <= 40; d_phi += 3) {
    for (std::int64_t d_v = 1; d_v <= 40; d_v += 2) {
      std::int64_t T = 1;
      while (!(4 * T * d_phi * d_v < 2 * T * T * (d_phi + d_v))) ++T;
      CAPTURE(d_phi);
      CAPTURE(d_v);
      CHECK(linattn::crossover_T(d_phi, d_v) == T);
    }
  }
}

TEST_CASE("solutions/flops: agrees with the reference") {
  for (std::int64_t T : {1, 2, 7, 100, 65536, 1000000}) {
    for (std::int64_t d_phi : {1, 3, 16, 273}) {
      for (std::int64_t d_v : {1, 5, 64, 128}) {
        CAPTURE(T);
        CAPTURE(d_phi);
        CAPTURE(d_v);
        CHECK(linattn::attention_flops(T, d_phi, d_v, Order::Left) ==
              linref::attention_flops(T, d_phi, d_v, linref::Order::Left));
        CHECK(linattn::attention_flops(T, d_phi, d_v, Order::Right) ==
              linref::attention_flops(T, d_phi, d_v, linref::Order::Right));
        CHECK(linattn::crossover_T(d_phi, d_v) == linref::crossover_T(d_phi, d_v));
      }
    }
  }
}
