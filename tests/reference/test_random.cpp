// Rng: the numbers must be the same on every machine, so each expected value below is derived
// from what the C++ standard guarantees about std::mt19937_64, not from running Rng.
#include "linref/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>

using linref::Rng;

namespace {
constexpr std::uint64_t kDefaultSeed = 5489;  // std::mt19937_64::default_seed
// [rand.predef]: the 10000th output of a default-constructed mt19937_64.
constexpr std::uint64_t kTenThousandth = 9981545732273789042ULL;
constexpr double kTwoTo53 = 9007199254740992.0;
}  // namespace

TEST_CASE("Rng: raw outputs are std::mt19937_64's (standard's 10000th value)") {
  Rng rng(kDefaultSeed);
  for (int i = 1; i < 10000; ++i) rng.next_u64();
  CHECK(rng.next_u64() == kTenThousandth);
}

TEST_CASE("Rng: uniform() is the top 53 bits of the engine output times 2^-53") {
  Rng rng(kDefaultSeed);
  for (int i = 1; i < 10000; ++i) rng.next_u64();
  // Derived from the standard's value: (x >> 11) / 2^53, exactly representable.
  const double expected = static_cast<double>(kTenThousandth >> 11) / kTwoTo53;
  CHECK(rng.uniform() == expected);

  // Every draw is a multiple of 2^-53 in [0, 1).
  Rng other(99);
  for (int i = 0; i < 1000; ++i) {
    const double u = other.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    const double scaled = u * kTwoTo53;
    REQUIRE(scaled == std::floor(scaled));
  }
}

TEST_CASE("Rng: normal() is Box-Muller on the engine's outputs, cosine first, sine kept") {
  // Box-Muller written out from its definition on a std::mt19937_64 with the same seed:
  // u1 = 1 - U, u2 = U', r = sqrt(-2 ln u1), the pair (r cos 2 pi u2, r sin 2 pi u2).
  std::mt19937_64 engine(7);
  auto U = [&engine] { return static_cast<double>(engine() >> 11) / kTwoTo53; };
  Rng rng(7);
  for (int pair = 0; pair < 50; ++pair) {
    const double u1 = 1.0 - U();
    const double u2 = U();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * 3.14159265358979323846 * u2;
    CHECK(rng.normal() == doctest::Approx(r * std::cos(angle)).epsilon(1e-15));
    CHECK(rng.normal() == doctest::Approx(r * std::sin(angle)).epsilon(1e-15));
  }
}

TEST_CASE("Rng: same seed, same stream, different seeds differ") {
  Rng a(123), b(123);
  for (int i = 0; i < 100; ++i) CHECK(a.normal() == b.normal());
  CHECK(Rng(123).next_u64() != Rng(124).next_u64());
}

TEST_CASE("Rng: normal() has mean 0, variance 1 and the 68% rule (200000 draws)") {
  // Fixed seed; bounds are about 5 standard errors of each statistic for n = 200000:
  // mean 1/sqrt(n) = 0.0022, variance sqrt(2/n) = 0.0032, fraction sqrt(.68*.32/n) = 0.001.
  Rng rng(2024);
  const int n = 200000;
  double sum = 0.0, sum_sq = 0.0;
  int within_one = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.normal();
    sum += x;
    sum_sq += x * x;
    if (std::abs(x) < 1.0) ++within_one;
  }
  const double mean = sum / n;
  CHECK(std::abs(mean) < 0.011);
  CHECK(std::abs(sum_sq / n - mean * mean - 1.0) < 0.016);
  CHECK(std::abs(static_cast<double>(within_one) / n - 0.682689) < 0.005);
}

TEST_CASE("Rng: chi, normal_matrix, normal_vector and unit_rows are built from normal()") {
  Rng a(11), b(11);
  // chi(dof) is the length of dof consecutive normals.
  double sq = 0.0;
  for (int i = 0; i < 5; ++i) {
    const double g = b.normal();
    sq += g * g;
  }
  CHECK(a.chi(5) == doctest::Approx(std::sqrt(sq)).epsilon(1e-15));

  // normal_matrix fills row by row, normal_vector in order.
  const linref::Matrix M = a.normal_matrix(3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(M(i, j) == b.normal());
  const linref::Vector v = a.normal_vector(5);
  for (int i = 0; i < 5; ++i) CHECK(v(i) == b.normal());

  // unit_rows: the same normals, each row scaled to length one.
  const linref::Matrix U = a.unit_rows(6, 3);
  const linref::Matrix G = b.normal_matrix(6, 3);
  for (int i = 0; i < 6; ++i) {
    CHECK(U.row(i).norm() == doctest::Approx(1.0).epsilon(1e-14));
    for (int j = 0; j < 3; ++j)
      CHECK(U(i, j) == doctest::Approx(G(i, j) / G.row(i).norm()).epsilon(1e-14));
  }
}

TEST_CASE("Rng: chi(d) has mean square d (20000 draws of chi(8))") {
  // E[chi(d)^2] = d; the sample mean of chi^2 has standard error sqrt(2 d / n) = 0.028.
  Rng rng(5);
  double sum_sq = 0.0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const double c = rng.chi(8);
    sum_sq += c * c;
  }
  CHECK(std::abs(sum_sq / n - 8.0) < 0.14);
}
