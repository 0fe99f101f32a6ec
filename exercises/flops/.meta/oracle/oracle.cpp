// The oracle of exercise 1, `flops`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "oracle/makers.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
namespace api {
template <>
struct EnumNames<linref::Order> {
  static std::vector<std::pair<std::string, linref::Order>> get() {
    return {{"left", linref::Order::Left}, {"right", linref::Order::Right}};
  }
};
}  // namespace api
static const api::References flops_reference{
    api::reference("attention_flops", &linref::attention_flops),
    api::reference("crossover_T", &linref::crossover_T),
};

namespace grader {
namespace {

using Int = std::int64_t;

using linref::Order;
constexpr Int kMin = std::numeric_limits<Int>::min();

struct FlopsCase {
  Int T, d_phi, d_v;
  Order order;
};

json flops_calls(const std::vector<FlopsCase>& cases) {
  json calls = json::array();
  for (const FlopsCase& c : cases)
    calls.push_back(json{{"T", c.T},
                         {"d_phi", c.d_phi},
                         {"d_v", c.d_v},
                         {"order", c.order == Order::Left ? "left" : "right"}});
  return calls;
}

json crossover_calls(const std::vector<std::pair<Int, Int>>& pairs) {
  json calls = json::array();
  for (const auto& [d_phi, d_v] : pairs) calls.push_back(json{{"d_phi", d_phi}, {"d_v", d_v}});
  return calls;
}

// The value a 32-bit int would hold after the same arithmetic wrapped around.
Int wrapped_signed32(Int x) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x)));
}
Int wrapped_unsigned32(Int x) {
  return static_cast<Int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x)));
}

std::vector<IntRule> flops_mistakes(const FlopsCase& c, Int expected) {
  std::vector<IntRule> rules;
  if (expected > INT32_MAX) {
    const std::string overflow =
        "the count was computed in 32-bit integers and wrapped around. The true value, " +
        std::to_string(expected) +
        ", is far beyond 2^31 - 1 = 2147483647; keep every "
        "factor in std::int64_t (cast before multiplying, not after).";
    rules.push_back({overflow, kMin, -1});
    rules.push_back({overflow, wrapped_signed32(expected), wrapped_signed32(expected)});
    rules.push_back({overflow, wrapped_unsigned32(expected), wrapped_unsigned32(expected)});
  }
  const Order other = c.order == Order::Left ? Order::Right : Order::Left;
  std::vector<std::pair<std::string, Int>> suspects;
  // In the Right order one product left out is also half the count, as is m*k*n per product:
  // the two slips give the same number, so that number names both (it comes first, as the
  // first matching rule names the mistake).
  if (c.order == Order::Right)
    suspects.push_back(
        {"only one of the two products was counted, or each product was counted "
         "as m*k*n: either gives half. phi(K)^T V and the queries' read of it "
         "cost 2 T d_phi d_v each (one multiply and one add per term).",
         2 * c.T * c.d_phi * c.d_v});
  suspects.push_back(
      {"each product was counted as m*k*n; the kit counts one multiply and one "
       "add per term, 2*m*k*n.",
       expected / 2});
  suspects.push_back(
      {"the two orders are swapped: Left is (phi(Q) phi(K)^T) V, which builds "
       "the T x T matrix first.",
       linref::attention_flops(c.T, c.d_phi, c.d_v, other)});
  if (c.order == Order::Left) {
    suspects.push_back(
        {"only the T x T product phi(Q) phi(K)^T (2 T^2 d_phi) was counted; "
         "multiplying it by V adds 2 T^2 d_v.",
         2 * c.T * c.T * c.d_phi});
    suspects.push_back(
        {"only the product with V (2 T^2 d_v) was counted; building "
         "phi(Q) phi(K)^T costs 2 T^2 d_phi first.",
         2 * c.T * c.T * c.d_v});
    suspects.push_back(
        {"d_phi and d_v were multiplied; the Left order costs 2 T^2 d_phi plus "
         "2 T^2 d_v.",
         2 * c.T * c.T * c.d_phi * c.d_v});
  }
  for (const auto& [text, value] : suspects)
    if (value != expected) rules.push_back({text, value, value});
  return rules;
}

json expect_flops(const json& a) {
  const FlopsCase c{a.at("T").get<Int>(), a.at("d_phi").get<Int>(), a.at("d_v").get<Int>(),
                    a.at("order").get<std::string>() == "left" ? Order::Left : Order::Right};
  const Int expected = linref::attention_flops(c.T, c.d_phi, c.d_v, c.order);
  return json{{"value", expected}, {"mistakes", int_rules_json(flops_mistakes(c, expected))}};
}

std::string crossover_explanation(Int d_phi, Int d_v) {
  const Int num = 2 * d_phi * d_v, den = d_phi + d_v;
  std::string s =
      "T* = 2 d_phi d_v / (d_phi + d_v) = " + std::to_string(num) + "/" + std::to_string(den);
  if (num % den == 0) {
    s += " = " + std::to_string(num / den) + " exactly; at T = " + std::to_string(num / den) +
         " both orders cost the same, so the first T where Right is strictly cheaper is T* + 1";
  } else {
    s += " = " + fmt(static_cast<double>(num) / static_cast<double>(den)) +
         ", not an integer, so the answer is the next integer up";
  }
  return s;
}

std::vector<IntRule> crossover_mistakes(Int d_phi, Int d_v, Int expected) {
  std::vector<IntRule> rules;
  const bool integer_ratio = (2 * d_phi * d_v) % (d_phi + d_v) == 0;
  if (2 * d_phi * d_v > INT32_MAX) {
    // What int arithmetic would give: the numerator wraps, then the integer division.
    const Int wrapped = wrapped_signed32(2 * d_phi * d_v) / (d_phi + d_v);
    const std::string overflow = "2 d_phi d_v overflowed a 32-bit integer (it is " +
                                 std::to_string(2 * d_phi * d_v) + "); compute in std::int64_t.";
    rules.push_back({overflow, kMin, 0});
    rules.push_back({overflow, wrapped - 1, wrapped + 2});
  }
  rules.push_back({integer_ratio ? "off by one: T* itself was returned, where the two orders tie. "
                                   "Right must be strictly cheaper, so the answer is T* + 1."
                                 : "off by one: T* was rounded down; at that T the Left order is "
                                   "still cheaper.",
                   expected - 1, expected - 1});
  rules.push_back({integer_ratio ? "off by one: one token too many; at T* + 1 Right is already "
                                   "strictly cheaper."
                                 : "off by one: T* was rounded up and then 1 was added; when T* "
                                   "is not an integer, rounding up alone gives the answer.",
                   expected + 1, expected + 1});
  if (d_phi != d_v)
    for (Int v : {d_phi + 1, d_v + 1, d_phi, d_v})
      rules.push_back(
          {"the crossover was taken to be the head width d; T* = d holds only when "
           "d_phi = d_v.",
           v, v});
  return rules;
}

json expect_crossover(const json& a) {
  const Int d_phi = a.at("d_phi").get<Int>(), d_v = a.at("d_v").get<Int>();
  const Int expected = linref::crossover_T(d_phi, d_v);
  return json{{"value", expected},
              {"explain", crossover_explanation(d_phi, d_v)},
              {"cost_at_1", json::array({linref::attention_flops(1, d_phi, d_v, Order::Left),
                                         linref::attention_flops(1, d_phi, d_v, Order::Right)})},
              {"mistakes", int_rules_json(crossover_mistakes(d_phi, d_v, expected))}};
}

// The calls of each check.
json calls_by_hand(std::uint64_t) {
  return flops_calls({{4, 2, 3, Order::Left},
                      {4, 2, 3, Order::Right},
                      {1, 1, 1, Order::Left},
                      {1, 1, 1, Order::Right},
                      {10, 5, 7, Order::Left},
                      {10, 5, 7, Order::Right}});
}
json calls_65536_tokens(std::uint64_t) {
  return flops_calls({{65536, 128, 128, Order::Left}, {65536, 128, 128, Order::Right}});
}
json calls_random_sizes(std::uint64_t seed) {
  linref::Rng rng(seed);
  std::vector<FlopsCase> cases;
  for (int i = 0; i < 6; ++i) {
    const Int T = random_size(rng, 1000, 300000);
    const Int d_phi = random_size(rng, 8, 20000), d_v = random_size(rng, 8, 256);
    cases.push_back({T, d_phi, d_v, i % 2 ? Order::Right : Order::Left});
  }
  return flops_calls(cases);
}
json calls_equal_widths(std::uint64_t) { return crossover_calls({{1, 1}, {32, 32}, {128, 128}}); }
json calls_off_by_one(std::uint64_t) { return crossover_calls({{6, 3}, {3, 6}, {12, 4}}); }
json calls_fractional(std::uint64_t) { return crossover_calls({{2, 3}, {5, 7}, {273, 64}}); }
json calls_large_widths(std::uint64_t seed) {
  linref::Rng rng(seed);
  std::vector<std::pair<Int, Int>> pairs{{16513, 128}, {70000, 90000}};
  for (int i = 0; i < 3; ++i)
    pairs.push_back({random_size(rng, 2, 50000), random_size(rng, 2, 50000)});
  return crossover_calls(pairs);
}

OracleTable make_flops_oracles() {
  return {
      {"flops/by-hand", {calls_by_hand, expect_flops}},
      {"flops/65536-tokens", {calls_65536_tokens, expect_flops}},
      {"flops/random-sizes", {calls_random_sizes, expect_flops}},
      {"crossover/equal-widths", {calls_equal_widths, expect_crossover}},
      {"crossover/off-by-one", {calls_off_by_one, expect_crossover}},
      {"crossover/fractional", {calls_fractional, expect_crossover}},
      {"crossover/large-widths", {calls_large_widths, expect_crossover}},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration flops_oracles{"flops", grader::make_flops_oracles};
