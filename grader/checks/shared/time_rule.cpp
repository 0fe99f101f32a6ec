// The time rule's judge (see time_rule.hpp).
#include "time_rule.hpp"

#include "../../common/wire.hpp"
#include "../../src/judge/compare.hpp"

#include "../../src/judge/api_schemas.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace grader {

namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 0.01 ? "%.3f ms" : "%.1f ms", seconds * 1e3);
  return buf;
}

// Every field of a call's result against the reference's, loosely (kTimeRuleValueTolerance):
// matrices and vectors entry by entry, numbers alone.
std::optional<std::string> far_off(const json& want, const json& got) {
  const Tolerance loose{kTimeRuleValueTolerance, kTimeRuleValueTolerance};
  for (const auto& [name, value] : want.items()) {
    if (!got.contains(name)) return "no \"" + name + "\" in the result";
    const json& g = got.at(name);
    Comparison c;
    if (value.is_object())
      c = compare_matrices(wire::to_matrix(value), wire::to_matrix(g), loose, name);
    else if (value.is_array())
      c = compare_vectors(wire::to_vector(value), wire::to_vector(g), loose, name);
    else c = compare_scalars(value.get<double>(), g.get<double>(), loose, name);
    if (!c.ok) return c.report;
  }
  return std::nullopt;
}

// A seed of its own for problem k of a time check at `seed` (splitmix64's mixing step).
std::uint64_t problem_seed(std::uint64_t seed, int k) {
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(k + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool is_matrix(const json& v) { return v.is_object() && v.contains("rows") && v.contains("data"); }

// The rows of a call's longest matrix argument: its tokens.
long longest_matrix(const json& call) {
  long longest = 0;
  for (const auto& [name, v] : call.items())
    if (is_matrix(v)) longest = std::max(longest, v.at("rows").get<long>());
  return longest;
}

// `a` with the tokens of `b` after its own: every argument along the tokens (a matrix with as
// many rows as a's longest, or a vector that long) gets b's rows appended; the rest is a's.
// Two causal problems one after the other are one causal problem.
json append_tokens(const json& a, const json& b) {
  const long n = longest_matrix(a);
  json out = a;
  for (auto& [name, v] : out.items()) {
    if (is_matrix(v) && v.at("rows").get<long>() == n) {
      const json& more = b.at(name);
      if (more.at("cols") != v.at("cols"))
        throw std::runtime_error("a time check's problems differ in width");
      for (const auto& x : more.at("data")) v["data"].push_back(x);
      v["rows"] = n + more.at("rows").get<long>();
    } else if (v.is_array() && static_cast<long>(v.size()) == n) {
      for (const auto& x : b.at(name)) v.push_back(x);
    }
  }
  return out;
}

}  // namespace

json first_tokens(const json& call, long tokens) {
  const long longest = longest_matrix(call);
  if (tokens > longest) throw std::runtime_error("a time check's call has fewer tokens than asked");
  json out = call;
  for (auto& [name, v] : out.items()) {
    if (is_matrix(v) && v.at("rows").get<long>() == longest) {
      const long cols = v.at("cols").get<long>();
      json& data = v.at("data");
      data.erase(data.begin() + tokens * cols, data.end());
      v["rows"] = tokens;
    } else if (v.is_array() && static_cast<long>(v.size()) == longest) {
      v.erase(v.begin() + tokens, v.end());
    }
  }
  return out;
}

Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake) {
  const std::size_t n = request.at("calls").size();
  const json& cpu = reply.at("cpu_seconds");
  if (cpu.size() != n) throw std::runtime_error("a time check's reply has one CPU time per call");
  std::map<long, double> least;  // tokens -> the least CPU time of the calls of that size
  for (std::size_t i = 0; i < n; ++i) {
    const json& e = expected_of(request, expected, i);
    const long tokens = e.at("tokens").get<long>();
    if (auto wrong = far_off(e.at("outputs"), result_of(request, reply, i)))
      return failure(
          call_label(i, n) + "at T = " + std::to_string(tokens) +
              ", the outputs are far from right, and the time rule is judged on about "
              "right outputs only (the value checks of this function say what is wrong):",
          *wrong, std::nullopt);
    const double seconds = cpu[i].get<double>();
    const auto [at, fresh] = least.emplace(tokens, seconds);
    if (!fresh) at->second = std::min(at->second, seconds);
  }
  if (least.size() != static_cast<std::size_t>(kTimeRuleSizes))
    throw std::runtime_error("a time check has calls at three sizes");
  auto it = least.begin();
  const auto [t0, m0] = *it++;
  const auto [t1, m1] = *it++;
  const auto [t2, m2] = *it;
  const double low = m1 - m0, high = m2 - m1;
  const double ratio = high / std::max(low, kTimeRuleNoiseFloor);
  if (ratio <= kTimeRuleMaxStepRatio) return Verdict::pass();
  char figures[512];
  std::snprintf(
      figures, sizeof figures,
      "CPU time of the call (each call in a process of its own, the least of %d inputs "
      "of each size): %s at T = %ld, %s at T = %ld, %s at T = %ld. From T = %ld to %ld it "
      "grew by %s, from T = %ld to %ld by %s: %.1f times as much.",
      kTimeRuleRepeat, ms(m0).c_str(), t0, ms(m1).c_str(), t1, ms(m2).c_str(), t2, t1, t2,
      ms(high).c_str(), t0, t1, ms(low).c_str(), ratio);
  char rule[512];
  std::snprintf(rule, sizeof rule,
                "The tokens grow %d times at each step. A cost that grows like T then adds about "
                "%d times what the step before added, a cost that grows like T^2 about %d times; "
                "this check fails above %.1f times. A fixed cost per call cancels out of these "
                "differences.",
                kTimeRuleGrowth, kTimeRuleGrowth, kTimeRuleGrowth * kTimeRuleGrowth,
                kTimeRuleMaxStepRatio);
  return failure(figures, rule, likely_mistake);
}

Check linear_time_check(const std::string& function, const std::string& name, double points,
                        Oracle oracle, std::string likely_mistake) {
  Judge judge = [likely_mistake](const json& request, const json& expected, const json& reply) {
    return judge_linear_time(request, expected, reply, likely_mistake);
  };
  Check c = make_check(function, name, points, Visibility::Visible, 1, std::move(judge));
  c.timed = true;
  c.timeout_hint = likely_mistake;
  attach_oracle(c, time_rule_oracle(std::move(oracle)));
  return c;
}

Oracle time_rule_oracle(Oracle oracle) {
  if (oracle.calls) {
    // Every size in each round, round after round: a burst of load on the machine touches
    // the sizes alike rather than every input of one size.
    oracle.calls = [pair = std::move(oracle.calls)](std::uint64_t seed) {
      json calls = json::array();
      for (int r = 0; r < kTimeRuleRepeat; ++r)
        for (int s = 0; s < kTimeRuleSizes; ++s) {
          // Problem k: the large call of seed k's pair, followed (for 2 N) by that of another
          // seed, cut to its size. Each problem's seeds are its own.
          const int k = r * kTimeRuleSizes + s;
          json joined = pair(problem_seed(seed, k)).back();
          const long n = longest_matrix(joined);
          long tokens = 2 * n;  // 2 N, and N/2, N/8 below it
          for (int below = s; below < kTimeRuleSizes - 1; ++below) tokens /= kTimeRuleGrowth;
          for (int more = 1; longest_matrix(joined) < tokens; ++more)
            joined = append_tokens(joined, pair(problem_seed(seed, k + 1000 * more)).back());
          calls.push_back(first_tokens(joined, tokens));
        }
      return calls;
    };
  }
  return oracle;
}

std::function<json(const json& call)> time_rule_expect(std::string function,
                                                       std::string tokens_from) {
  return [function, tokens_from](const json& call) {
    return json{{"tokens", call.at(tokens_from).at("rows")},
                {"outputs", api::call_reference(function, call)}};
  };
}

}  // namespace grader
