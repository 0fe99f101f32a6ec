// Oracle half of the `flops` checks (judge half: grader/checks/flops.cpp): the calls of each
// check, and for each call the reference's count and the counts the usual slips give.
#include "../src/oracle_half.hpp"
#include "makers.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace grader {
namespace {

using linref::Order;
using Int = std::int64_t;
constexpr Int kMin = std::numeric_limits<Int>::min();

struct FlopsCase {
  Int T, d_phi, d_v;
  Order order;
};

json flops_calls(const std::vector<FlopsCase>& cases) {
  json calls = json::array();
  for (const FlopsCase& c : cases)
    calls.push_back(json{{"T", c.T}, {"d_phi", c.d_phi}, {"d_v", c.d_v},
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

// ---- attention_flops ---------------------------------------------------------------------

std::vector<IntRule> flops_mistakes(const FlopsCase& c, Int expected) {
  std::vector<IntRule> rules;
  if (expected > INT32_MAX) {
    const std::string overflow =
        "the count was computed in 32-bit integers and wrapped around. The true value, " +
        std::to_string(expected) + ", is far beyond 2^31 - 1 = 2147483647; keep every "
        "factor in std::int64_t (cast before multiplying, not after).";
    rules.push_back({overflow, kMin, -1});
    rules.push_back({overflow, wrapped_signed32(expected), wrapped_signed32(expected)});
    rules.push_back({overflow, wrapped_unsigned32(expected), wrapped_unsigned32(expected)});
  }
  const Order other = c.order == Order::Left ? Order::Right : Order::Left;
  std::vector<std::pair<std::string, Int>> suspects;
  suspects.push_back({"each product was counted as m*k*n; the kit counts one multiply and one "
                      "add per term, 2*m*k*n.", expected / 2});
  suspects.push_back({"the two orders are swapped: Left is (phi(Q) phi(K)^T) V, which builds "
                      "the T x T matrix first.", linref::attention_flops(c.T, c.d_phi, c.d_v, other)});
  if (c.order == Order::Left) {
    suspects.push_back({"only the T x T product phi(Q) phi(K)^T (2 T^2 d_phi) was counted; "
                        "multiplying it by V adds 2 T^2 d_v.", 2 * c.T * c.T * c.d_phi});
    suspects.push_back({"only the product with V (2 T^2 d_v) was counted; building "
                        "phi(Q) phi(K)^T costs 2 T^2 d_phi first.", 2 * c.T * c.T * c.d_v});
    suspects.push_back({"d_phi and d_v were multiplied; the Left order costs 2 T^2 d_phi plus "
                        "2 T^2 d_v.", 2 * c.T * c.T * c.d_phi * c.d_v});
  } else {
    suspects.push_back({"only one of the two products was counted; phi(K)^T V and the queries' "
                        "read of it cost 2 T d_phi d_v each.", 2 * c.T * c.d_phi * c.d_v});
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

// ---- crossover_T -------------------------------------------------------------------------

std::string crossover_explanation(Int d_phi, Int d_v) {
  const Int num = 2 * d_phi * d_v, den = d_phi + d_v;
  std::string s = "T* = 2 d_phi d_v / (d_phi + d_v) = " + std::to_string(num) + "/" +
                  std::to_string(den);
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
      rules.push_back({"the crossover was taken to be the head width d; T* = d holds only when "
                       "d_phi = d_v.", v, v});
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

OracleTable make_flops_oracle() {
  using Pairs = std::vector<std::pair<Int, Int>>;
  OracleTable t;
  t.by_function["attention_flops"] = expect_flops;
  t.by_function["crossover_T"] = expect_crossover;
  t.calls["flops/by-hand"] = [](std::uint64_t) {
    return flops_calls({{4, 2, 3, Order::Left}, {4, 2, 3, Order::Right}, {1, 1, 1, Order::Left},
                        {1, 1, 1, Order::Right}, {10, 5, 7, Order::Left}, {10, 5, 7, Order::Right}});
  };
  t.calls["flops/65536-tokens"] = [](std::uint64_t) {
    return flops_calls({{65536, 128, 128, Order::Left}, {65536, 128, 128, Order::Right}});
  };
  t.calls["flops/random-sizes"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    std::vector<FlopsCase> cases;
    for (int i = 0; i < 6; ++i) {
      const Int T = random_size(rng, 1000, 300000);
      const Int d_phi = random_size(rng, 8, 20000), d_v = random_size(rng, 8, 256);
      cases.push_back({T, d_phi, d_v, i % 2 ? Order::Right : Order::Left});
    }
    return flops_calls(cases);
  };
  t.calls["crossover/equal-widths"] = [](std::uint64_t) { return crossover_calls({{1, 1}, {32, 32}, {128, 128}}); };
  t.calls["crossover/off-by-one"] = [](std::uint64_t) { return crossover_calls({{6, 3}, {3, 6}, {12, 4}}); };
  t.calls["crossover/fractional"] = [](std::uint64_t) { return crossover_calls({{2, 3}, {5, 7}, {273, 64}}); };
  t.calls["crossover/large-widths"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    Pairs p{{16513, 128}, {70000, 90000}};
    for (int i = 0; i < 3; ++i) p.push_back({random_size(rng, 2, 50000), random_size(rng, 2, 50000)});
    return crossover_calls(p);
  };
  return t;
}

}  // namespace
}  // namespace grader

static grader::OracleRegistrar flops_oracle{"flops", grader::make_flops_oracle};
