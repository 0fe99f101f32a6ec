// flops: the reference passes; 32-bit arithmetic, a missing factor 2, swapped orders and an
// off-by-one crossover each fail and are named.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cstdint>

using fake::contains;
using fake::json;

namespace {

std::int64_t true_flops(std::int64_t T, std::int64_t dp, std::int64_t dv, bool left) {
  return left ? 2 * T * T * (dp + dv) : 4 * T * dp * dv;
}

// A flops implementation with a twist applied to the true count.
fake::Impl flops_impl(std::function<std::int64_t(std::int64_t, std::int64_t, std::int64_t, bool)> f) {
  return [f](const json& a) {
    return json{{"value", f(a.at("T"), a.at("d_phi"), a.at("d_v"), a.at("order") == "left")}};
  };
}

fake::Impl crossover_impl(std::function<std::int64_t(std::int64_t, std::int64_t)> f) {
  return [f](const json& a) { return json{{"value", f(a.at("d_phi"), a.at("d_v"))}}; };
}

}  // namespace

TEST_CASE("checks/flops: the textbook's numbers come out of the reference") {
  const auto v = fake::judge_all("flops", "attention_flops", flops_impl(true_flops));
  for (const auto& [name, verdict] : v) CHECK_MESSAGE(verdict.passed, name);
  CHECK(true_flops(65536, 128, 128, true) == 2199023255552);  // about 2.2e12
  CHECK(true_flops(65536, 128, 128, false) == 4294967296);    // about 4.3e9
}

TEST_CASE("checks/flops: 32-bit arithmetic is named at T = 65536, d = 128") {
  // int arithmetic wraps modulo 2^32 (done unsigned here, to stay defined), then sign-extends.
  const auto wrapped = flops_impl([](std::int64_t T, std::int64_t dp, std::int64_t dv, bool left) {
    const auto t = static_cast<std::uint32_t>(T), p = static_cast<std::uint32_t>(dp),
               v = static_cast<std::uint32_t>(dv);
    const std::uint32_t r = left ? 2u * t * t * (p + v) : 4u * t * p * v;
    return static_cast<std::int64_t>(static_cast<std::int32_t>(r));
  });
  const auto v = fake::judge_all("flops", "attention_flops", wrapped);
  CHECK(v.at("flops/by-hand").passed);
  REQUIRE_FALSE(v.at("flops/65536-tokens").passed);
  const std::string& m = v.at("flops/65536-tokens").message;
  CHECK(contains(m, "Likely mistake: the count was computed in 32-bit integers"));
  CHECK(contains(m, "2199023255552"));
  CHECK(contains(m, "2.2e12"));
}

TEST_CASE("checks/flops: a missing factor 2 and swapped orders are named") {
  const auto half = fake::judge_all("flops", "attention_flops",
                                    flops_impl([](std::int64_t T, std::int64_t p, std::int64_t v, bool l) {
                                      return true_flops(T, p, v, l) / 2;
                                    }));
  REQUIRE_FALSE(half.at("flops/by-hand").passed);
  CHECK(contains(half.at("flops/by-hand").message, "Likely mistake: each product was counted as m*k*n"));

  const auto swapped = fake::judge_all("flops", "attention_flops",
                                       flops_impl([](std::int64_t T, std::int64_t p, std::int64_t v, bool l) {
                                         return true_flops(T, p, v, !l);
                                       }));
  REQUIRE_FALSE(swapped.at("flops/by-hand").passed);
  CHECK(contains(swapped.at("flops/by-hand").message, "Likely mistake: the two orders are swapped"));
}

TEST_CASE("checks/flops: the crossover's off-by-one errors are named") {
  // ceil(T*), forgetting "strictly": wrong exactly when T* is an integer.
  const auto tie = fake::judge_all("flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t v) {
    return (2 * p * v + p + v - 1) / (p + v);
  }));
  CHECK(tie.at("crossover/fractional").passed);
  REQUIRE_FALSE(tie.at("crossover/equal-widths").passed);
  REQUIRE_FALSE(tie.at("crossover/off-by-one").passed);
  CHECK(contains(tie.at("crossover/off-by-one").message, "Likely mistake: off by one: T* itself"));
  CHECK(contains(tie.at("crossover/off-by-one").message, "T* = 2 d_phi d_v / (d_phi + d_v) = 36/9 = 4 exactly"));

  // ceil(T*) + 1: right for integer T*, one too many otherwise.
  const auto plus = fake::judge_all("flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t v) {
    return (2 * p * v + p + v - 1) / (p + v) + 1;
  }));
  CHECK(plus.at("crossover/off-by-one").passed);
  REQUIRE_FALSE(plus.at("crossover/fractional").passed);
  CHECK(contains(plus.at("crossover/fractional").message, "rounded up and then 1 was added"));

  // T* = d assumed from the equal-width case.
  const auto width = fake::judge_all("flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t) {
    return p + 1;
  }));
  CHECK(width.at("crossover/equal-widths").passed);
  REQUIRE_FALSE(width.at("crossover/off-by-one").passed);
  CHECK(contains(width.at("crossover/off-by-one").message, "holds only when d_phi = d_v"));
}

TEST_CASE("checks/flops: a 32-bit crossover fails the hidden large-width check") {
  const auto wrapped = crossover_impl([](std::int64_t p, std::int64_t v) {
    const auto num = static_cast<std::int32_t>(static_cast<std::uint32_t>(2 * p * v));
    return static_cast<std::int64_t>(num / static_cast<std::int32_t>(p + v) + 1);
  });
  const auto& c = fake::check("flops", "crossover/large-widths");
  const grader::Verdict v = fake::judge_with(c, wrapped, c.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(contains(v.message, "overflowed a 32-bit integer"));
}
