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
fake::Impl flops_impl(
    std::function<std::int64_t(std::int64_t, std::int64_t, std::int64_t, bool)> f) {
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
                                    flops_impl([](std::int64_t T, std::int64_t p, std::int64_t v,
                                                  bool l) { return true_flops(T, p, v, l) / 2; }));
  REQUIRE_FALSE(half.at("flops/by-hand").passed);
  CHECK(contains(half.at("flops/by-hand").message,
                 "Likely mistake: each product was counted as m*k*n"));

  const auto swapped = fake::judge_all("flops", "attention_flops",
                                       flops_impl([](std::int64_t T, std::int64_t p, std::int64_t v,
                                                     bool l) { return true_flops(T, p, v, !l); }));
  REQUIRE_FALSE(swapped.at("flops/by-hand").passed);
  CHECK(
      contains(swapped.at("flops/by-hand").message, "Likely mistake: the two orders are swapped"));
}

// One product left out, in either order, and the widths multiplied: each slip written out here
// and judged by the by-hand check's judge on one call, T = 12, d_phi = 5, d_v = 7, where every
// slip gives its own count (where T = 2 d_phi, 2 T^2 d_v is also the Right order's count).
TEST_CASE("checks/flops: a product left out, in either order, and d_phi times d_v are named") {
  struct Slip {
    std::string what;
    bool left;
    std::function<std::int64_t(std::int64_t, std::int64_t, std::int64_t)> count;
  };
  const Slip slips[] = {
      {"only one of the two products was counted", false,
       [](std::int64_t T, std::int64_t p, std::int64_t v) { return 2 * T * p * v; }},
      {"only the T x T product phi(Q) phi(K)^T (2 T^2 d_phi) was counted", true,
       [](std::int64_t T, std::int64_t p, std::int64_t) { return 2 * T * T * p; }},
      {"only the product with V (2 T^2 d_v) was counted", true,
       [](std::int64_t T, std::int64_t, std::int64_t v) { return 2 * T * T * v; }},
      {"d_phi and d_v were multiplied", true,
       [](std::int64_t T, std::int64_t p, std::int64_t v) { return 2 * T * T * p * v; }},
  };
  const auto& c = fake::check("flops", "flops/by-hand");
  for (const Slip& slip : slips) {
    const json request{
        {"calls",
         {{{"T", 12}, {"d_phi", 5}, {"d_v", 7}, {"order", slip.left ? "left" : "right"}}}}};
    const json reply =
        fake::reply_from(request, flops_impl([&](std::int64_t T, std::int64_t p, std::int64_t d,
                                                 bool) { return slip.count(T, p, d); }));
    const grader::Verdict v = c.judge(request, c.expect(request), reply);
    INFO(slip.what << "\n" << v.message);
    REQUIRE_FALSE(v.passed);
    CHECK(contains(v.message, "Likely mistake: " + slip.what));
  }
}

TEST_CASE("checks/flops: the crossover's off-by-one errors are named") {
  // ceil(T*), forgetting "strictly": wrong exactly when T* is an integer.
  const auto tie =
      fake::judge_all("flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t v) {
                        return (2 * p * v + p + v - 1) / (p + v);
                      }));
  CHECK(tie.at("crossover/fractional").passed);
  REQUIRE_FALSE(tie.at("crossover/equal-widths").passed);
  REQUIRE_FALSE(tie.at("crossover/off-by-one").passed);
  CHECK(contains(tie.at("crossover/off-by-one").message, "Likely mistake: off by one: T* itself"));
  CHECK(contains(tie.at("crossover/off-by-one").message,
                 "T* = 2 d_phi d_v / (d_phi + d_v) = 36/9 = 4 exactly"));

  // ceil(T*) + 1: right for integer T*, one too many otherwise.
  const auto plus =
      fake::judge_all("flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t v) {
                        return (2 * p * v + p + v - 1) / (p + v) + 1;
                      }));
  CHECK(plus.at("crossover/off-by-one").passed);
  REQUIRE_FALSE(plus.at("crossover/fractional").passed);
  CHECK(contains(plus.at("crossover/fractional").message, "rounded up and then 1 was added"));

  // T* = d assumed from the equal-width case.
  const auto width = fake::judge_all(
      "flops", "crossover_T", crossover_impl([](std::int64_t p, std::int64_t) { return p + 1; }));
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
