#include "judge_helpers.hpp"

#include <stdexcept>
#include <utility>

namespace grader {

Verdict failure(const std::string& tried, const std::string& report,
                const std::optional<std::string>& mistake) {
  std::string message = tried;
  if (!report.empty()) message += "\n" + report;
  if (mistake) message += "\nLikely mistake: " + *mistake;
  return Verdict::fail(std::move(message));
}

// ---- reading a reply ---------------------------------------------------------------------

const json& result_of(const json& request, const json& reply, std::size_t i) {
  const json& results = reply.at("results");
  const std::size_t calls = request.at("calls").size();
  if (!results.is_array() || results.size() != calls)
    throw std::runtime_error("expected " + std::to_string(calls) + " results, the reply has " +
                             std::to_string(results.is_array() ? results.size() : 0));
  return results.at(i);
}

const json& expected_of(const json& request, const json& expected, std::size_t i) {
  const json& entries = expected.at("calls");
  const std::size_t calls = request.at("calls").size();
  if (!entries.is_array() || entries.size() != calls)
    throw std::runtime_error("expected values for " + std::to_string(calls) + " calls, found " +
                             std::to_string(entries.is_array() ? entries.size() : 0));
  return entries.at(i);
}

Judge guarded(Judge judge) {
  return [judge = std::move(judge)](const json& request, const json& expected, const json& reply) {
    try {
      return judge(request, expected, reply);
    } catch (const std::exception& e) {
      return Verdict::fail(std::string("The runner's reply could not be read (") + e.what() +
                           "). This is a fault of the grader or its runner, not of your code; "
                           "please report it with the rerun command.");
    }
  };
}

std::string call_label(std::size_t i, std::size_t n) {
  return n > 1 ? "Call " + std::to_string(i + 1) + " of " + std::to_string(n) + ": " : "";
}

Verdict each_call(const json& request, const json& expected, const json& reply,
                  const OneCall& one) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::optional<Verdict> v =
        one(i, calls[i], expected_of(request, expected, i), result_of(request, reply, i));
    if (!v || v->passed) continue;
    if (calls.size() > 1) v->message = call_label(i, calls.size()) + v->message;
    return *v;
  }
  return Verdict::pass();
}

Check make_check(const std::string& function, const std::string& name, double points,
                 Visibility visibility, std::uint64_t seed, Judge judge) {
  Check c;
  c.name = name;
  c.function = function;
  c.points = points;
  c.visibility = visibility;
  c.seed = seed;
  c.judge = guarded(std::move(judge));
  return c;
}

}  // namespace grader
