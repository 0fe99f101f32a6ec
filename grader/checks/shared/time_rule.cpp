// The time rule's judge (see time_rule.hpp).
#include "time_rule.hpp"

#include "../../common/wire.hpp"
#include "../../src/compare.hpp"

#ifdef LINATTN_ORACLE
#include "../../src/api_registry.hpp"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace grader {

namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 0.01 ? "%.3f ms" : "%.1f ms", seconds * 1e3);
  return buf;
}

// Every field of a call's result against the reference's: matrices and vectors entry by entry,
// numbers alone.
std::optional<std::string> wrong_output(const json& want, const json& got) {
  for (const auto& [name, value] : want.items()) {
    if (!got.contains(name)) return "no \"" + name + "\" in the result";
    const json& g = got.at(name);
    Comparison c;
    if (value.is_object()) c = compare_matrices(wire::to_matrix(value), wire::to_matrix(g), kTight, name);
    else if (value.is_array()) c = compare_vectors(wire::to_vector(value), wire::to_vector(g), kTight, name);
    else c = compare_scalars(value.get<double>(), g.get<double>(), kTight, name);
    if (!c.ok) return c.report;
  }
  return std::nullopt;
}

}  // namespace

Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake) {
  const std::size_t n = request.at("calls").size();
  const json& cpu = reply.at("cpu_seconds");
  if (n != 2 || cpu.size() != 2) throw std::runtime_error("a time check has two calls, each timed");
  for (std::size_t i = 0; i < n; ++i) {
    const json& e = expected_of(request, expected, i);
    if (auto wrong = wrong_output(e.at("outputs"), result_of(request, reply, i)))
      return failure(call_label(i, n) + "at T = " + std::to_string(e.at("tokens").get<long>()) +
                         ", the outputs are wrong, and the time rule is judged on right outputs "
                         "only (the other checks of this function say what is wrong):",
                     *wrong, std::nullopt);
  }
  const long t0 = expected_of(request, expected, 0).at("tokens").get<long>();
  const long t1 = expected_of(request, expected, 1).at("tokens").get<long>();
  const double c0 = std::max(cpu[0].get<double>(), 1e-7), c1 = cpu[1].get<double>();
  const double tokens = static_cast<double>(t1) / static_cast<double>(t0);
  const double growth = c1 / c0;
  if (growth <= kTimeRuleMaxGrowth) return Verdict::pass();
  char figures[256];
  std::snprintf(figures, sizeof figures,
                "CPU time of the call (least of %d runs): %s at T = %ld, %s at T = %ld: %.0f times "
                "as much for %.0f times the tokens.",
                kTimeRuleRepeat, ms(c0).c_str(), t0, ms(c1).c_str(), t1, growth, tokens);
  char rule[256];
  std::snprintf(rule, sizeof rule,
                "A form linear in T takes about %.0f times as long (this check allows up to %.0f); "
                "a cost that grows like T^2 takes about %.0f times as long.",
                tokens, kTimeRuleMaxGrowth, tokens * tokens);
  return failure(figures, rule, likely_mistake);
}

Check linear_time_check(const std::string& function, const std::string& name, double points,
                        Oracle oracle, std::string likely_mistake) {
  Judge judge = [likely_mistake](const json& request, const json& expected, const json& reply) {
    return judge_linear_time(request, expected, reply, likely_mistake);
  };
  Check c = make_check(function, name, points, Visibility::Visible, 1, std::move(judge));
  c.repeat = kTimeRuleRepeat;
  attach_oracle(c, std::move(oracle));
  return c;
}

#ifdef LINATTN_ORACLE
std::function<json(const json& call)> time_rule_expect(std::string function, std::string tokens_from) {
  return [function, tokens_from](const json& call) {
    return json{{"tokens", call.at(tokens_from).at("rows")},
                {"outputs", api::call_reference(function, call)}};
  };
}
#endif

}  // namespace grader
