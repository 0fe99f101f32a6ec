// Checks of exercise 1, `flops`: attention_flops and crossover_T (10 points).
//
// Both functions return exact integers, so every comparison is exact. The judge recognises
// the usual slips: 32-bit arithmetic (the seed's T = 65536, d = 128 case needs 42 bits),
// a missing factor 2, the two orders swapped, one product left out, and a crossover that is
// off by one because "strictly cheaper" was read as "no more expensive".
#include "../src/check.hpp"
#include "../src/compare.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

using linref::Order;

struct FlopsCase {
  std::int64_t T, d_phi, d_v;
  Order order;
};

const char* order_name(Order o) { return o == Order::Left ? "left" : "right"; }

json flops_call(const FlopsCase& c) {
  return json{{"T", c.T}, {"d_phi", c.d_phi}, {"d_v", c.d_v}, {"order", order_name(c.order)}};
}

json crossover_call(std::int64_t d_phi, std::int64_t d_v) {
  return json{{"d_phi", d_phi}, {"d_v", d_v}};
}

// The value a 32-bit int would hold after the same arithmetic wrapped around.
std::int64_t wrapped_signed32(std::int64_t x) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x)));
}
std::int64_t wrapped_unsigned32(std::int64_t x) {
  return static_cast<std::int64_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x)));
}

std::optional<std::string> overflow_mistake(std::int64_t expected, std::int64_t got) {
  if (expected <= INT32_MAX || got == expected) return std::nullopt;
  if (got < 0 || got == wrapped_signed32(expected) || got == wrapped_unsigned32(expected))
    return "the count was computed in 32-bit integers and wrapped around. The true value, " +
           std::to_string(expected) + ", is far beyond 2^31 - 1 = 2147483647; keep every "
           "factor in std::int64_t (cast before multiplying, not after).";
  return std::nullopt;
}

// ---- attention_flops ---------------------------------------------------------------------

std::optional<std::string> flops_mistake(const FlopsCase& c, std::int64_t got) {
  const std::int64_t expected = linref::attention_flops(c.T, c.d_phi, c.d_v, c.order);
  if (auto m = overflow_mistake(expected, got)) return m;
  const Order other = c.order == Order::Left ? Order::Right : Order::Left;
  std::vector<std::pair<std::string, std::int64_t>> suspects;
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
    if (value == got && value != expected) return text;
  return std::nullopt;
}

std::string seed_note(const FlopsCase& c, std::int64_t expected) {
  if (c.T == 65536 && c.d_phi == 128 && c.d_v == 128)
    return c.order == Order::Left ? " (about 2.2e12, the textbook's figure)"
                                  : " (about 4.3e9, the textbook's figure; exactly 2^32)";
  (void)expected;
  return "";
}

Check flops_check(std::string name, double points, Visibility vis, std::uint64_t seed,
                  std::function<std::vector<FlopsCase>(std::uint64_t)> cases) {
  Check c;
  c.name = std::move(name);
  c.function = "attention_flops";
  c.points = points;
  c.visibility = vis;
  c.seed = seed;
  c.request = [cases](std::uint64_t s) {
    json calls = json::array();
    for (const FlopsCase& fc : cases(s)) calls.push_back(flops_call(fc));
    return json{{"function", "attention_flops"}, {"calls", calls}};
  };
  c.judge = guarded([](const json& request, const json& reply) {
    const json& calls = request.at("calls");
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const json& a = calls[i];
      const FlopsCase fc{a.at("T").get<std::int64_t>(), a.at("d_phi").get<std::int64_t>(),
                         a.at("d_v").get<std::int64_t>(),
                         a.at("order").get<std::string>() == "left" ? Order::Left : Order::Right};
      const std::int64_t expected = linref::attention_flops(fc.T, fc.d_phi, fc.d_v, fc.order);
      const std::int64_t got = result_of(request, reply, i).at("value").get<std::int64_t>();
      if (got == expected) continue;
      const std::string tried = call_label(i, calls.size()) + "attention_flops(T = " +
                                std::to_string(fc.T) + ", d_phi = " + std::to_string(fc.d_phi) +
                                ", d_v = " + std::to_string(fc.d_v) + ", order = " +
                                order_name(fc.order) + ")";
      const std::string formula = fc.order == Order::Left ? "2 T^2 (d_phi + d_v)" : "4 T d_phi d_v";
      return failure(tried, "expected " + std::to_string(expected) + seed_note(fc, expected) +
                                " = " + formula + ", got " + std::to_string(got) +
                                " (exact integer comparison)",
                     flops_mistake(fc, got));
    }
    return Verdict::pass();
  });
  return c;
}

// ---- crossover_T -------------------------------------------------------------------------

std::string crossover_explanation(std::int64_t d_phi, std::int64_t d_v) {
  const std::int64_t num = 2 * d_phi * d_v, den = d_phi + d_v;
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

std::optional<std::string> crossover_mistake(std::int64_t d_phi, std::int64_t d_v,
                                             std::int64_t got) {
  const std::int64_t expected = linref::crossover_T(d_phi, d_v);
  const bool integer_ratio = (2 * d_phi * d_v) % (d_phi + d_v) == 0;
  if (2 * d_phi * d_v > INT32_MAX) {
    // What int arithmetic would give: the numerator wraps, then the integer division.
    const std::int64_t wrapped = wrapped_signed32(2 * d_phi * d_v) / (d_phi + d_v);
    if (got <= 0 || (got >= wrapped - 1 && got <= wrapped + 2))
      return "2 d_phi d_v overflowed a 32-bit integer (it is " +
             std::to_string(2 * d_phi * d_v) + "); compute in std::int64_t.";
  }
  if (got == expected - 1)
    return integer_ratio
               ? "off by one: T* itself was returned, where the two orders tie. Right must be "
                 "strictly cheaper, so the answer is T* + 1."
               : "off by one: T* was rounded down; at that T the Left order is still cheaper.";
  if (got == expected + 1)
    return integer_ratio ? "off by one: one token too many; at T* + 1 Right is already strictly "
                           "cheaper."
                         : "off by one: T* was rounded up and then 1 was added; when T* is not "
                           "an integer, rounding up alone gives the answer.";
  if (d_phi != d_v && (got == d_phi + 1 || got == d_v + 1 || got == d_phi || got == d_v))
    return "the crossover was taken to be the head width d; T* = d holds only when "
           "d_phi = d_v.";
  return std::nullopt;
}

Check crossover_check(std::string name, double points, Visibility vis, std::uint64_t seed,
                      std::function<std::vector<std::pair<std::int64_t, std::int64_t>>(std::uint64_t)> cases) {
  Check c;
  c.name = std::move(name);
  c.function = "crossover_T";
  c.points = points;
  c.visibility = vis;
  c.seed = seed;
  c.request = [cases](std::uint64_t s) {
    json calls = json::array();
    for (const auto& [d_phi, d_v] : cases(s)) calls.push_back(crossover_call(d_phi, d_v));
    return json{{"function", "crossover_T"}, {"calls", calls}};
  };
  c.judge = guarded([](const json& request, const json& reply) {
    const json& calls = request.at("calls");
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const std::int64_t d_phi = calls[i].at("d_phi").get<std::int64_t>();
      const std::int64_t d_v = calls[i].at("d_v").get<std::int64_t>();
      const std::int64_t expected = linref::crossover_T(d_phi, d_v);
      const std::int64_t got = result_of(request, reply, i).at("value").get<std::int64_t>();
      if (got == expected) continue;
      std::string report = "expected " + std::to_string(expected) + ", got " +
                           std::to_string(got) + " (exact integer comparison).\n  " +
                           crossover_explanation(d_phi, d_v) + ".";
      if (got > 0 && got < (std::int64_t{1} << 20)) {
        report += "\n  At T = " + std::to_string(got) + ": Left costs " +
                  std::to_string(linref::attention_flops(got, d_phi, d_v, Order::Left)) +
                  ", Right costs " +
                  std::to_string(linref::attention_flops(got, d_phi, d_v, Order::Right)) + ".";
      }
      return failure(call_label(i, calls.size()) + "crossover_T(d_phi = " +
                         std::to_string(d_phi) + ", d_v = " + std::to_string(d_v) + ")",
                     report, crossover_mistake(d_phi, d_v, got));
    }
    return Verdict::pass();
  });
  return c;
}

std::vector<Check> make_flops_checks() {
  using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;
  std::vector<Check> checks;
  // attention_flops: 5.5 points.
  checks.push_back(flops_check("flops/by-hand", 2.0, Visibility::Visible, 1, [](std::uint64_t) {
    return std::vector<FlopsCase>{{4, 2, 3, Order::Left},  {4, 2, 3, Order::Right},
                                  {1, 1, 1, Order::Left},  {1, 1, 1, Order::Right},
                                  {10, 5, 7, Order::Left}, {10, 5, 7, Order::Right}};
  }));
  checks.push_back(flops_check("flops/65536-tokens", 2.5, Visibility::Visible, 1, [](std::uint64_t) {
    return std::vector<FlopsCase>{{65536, 128, 128, Order::Left}, {65536, 128, 128, Order::Right}};
  }));
  checks.push_back(flops_check("flops/random-sizes", 1.0, Visibility::Hidden, 11, [](std::uint64_t s) {
    linref::Rng rng(s);
    std::vector<FlopsCase> cases;
    for (int i = 0; i < 6; ++i) {
      const std::int64_t T = random_size(rng, 1000, 300000);
      const std::int64_t d_phi = random_size(rng, 8, 20000), d_v = random_size(rng, 8, 256);
      cases.push_back({T, d_phi, d_v, i % 2 ? Order::Right : Order::Left});
    }
    return cases;
  }));
  // crossover_T: 4.5 points.
  checks.push_back(crossover_check("crossover/equal-widths", 1.0, Visibility::Visible, 1,
                                   [](std::uint64_t) { return Pairs{{1, 1}, {32, 32}, {128, 128}}; }));
  checks.push_back(crossover_check("crossover/off-by-one", 1.5, Visibility::Visible, 1,
                                   [](std::uint64_t) { return Pairs{{6, 3}, {3, 6}, {12, 4}}; }));
  checks.push_back(crossover_check("crossover/fractional", 1.5, Visibility::Visible, 1,
                                   [](std::uint64_t) { return Pairs{{2, 3}, {5, 7}, {273, 64}}; }));
  checks.push_back(crossover_check("crossover/large-widths", 0.5, Visibility::Hidden, 13,
                                   [](std::uint64_t s) {
    linref::Rng rng(s);
    Pairs p{{16513, 128}, {70000, 90000}};
    for (int i = 0; i < 3; ++i) p.push_back({random_size(rng, 2, 50000), random_size(rng, 2, 50000)});
    return p;
  }));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar flops_registrar{"flops", {"attention_flops", "crossover_T"},
                                         grader::make_flops_checks};
