#include "call_text.hpp"

#include "numeric_comparison.hpp"

#include <vector>

namespace grader {

namespace {

// How many lines of calls a message lists before it says how many more there are.
constexpr std::size_t kCallLinesShown = 6;

std::string value_text(const std::string& name, const std::string& kind, const api::json& v) {
  if (v.is_object() && v.contains("rows") && v.contains("cols") && v["rows"].is_number_integer() &&
      v["cols"].is_number_integer())
    return name + ": " + shape_of(v["rows"].get<Eigen::Index>(), v["cols"].get<Eigen::Index>());
  if (kind == "phi spec" || (v.is_object() && v.contains("name"))) {
    const api::json n = v.is_object() ? v.value("name", api::json()) : api::json();
    return name + " = " + (n.is_string() ? n.get<std::string>() : std::string("?"));
  }
  if (v.is_array()) return name + ": length " + std::to_string(v.size());
  if (v.is_number()) return name + " = " + fmt(v.get<double>());
  if (v.is_string()) return name + " = " + v.get<std::string>();
  return name + " = " + v.dump().substr(0, 40);
}

}  // namespace

std::string call_arguments(const api::Schema& schema, const api::json& call) {
  std::string text;
  for (std::size_t i = 0; i < schema.arguments.size(); ++i) {
    const api::Argument& a = schema.arguments[i];
    const std::string kind = i < schema.kinds.size() ? schema.kinds[i] : "";
    // By reference: a call's matrices may hold millions of numbers, and only their shapes show.
    const auto given = call.is_object() ? call.find(a.name) : call.end();
    const api::json& value = given != call.end() ? *given : a.fallback;
    if (value.is_null()) continue;  // missing and required: the runner refused it already
    text += (text.empty() ? "" : ", ") + value_text(a.name, kind, value);
  }
  return text;
}

std::string tried_text(const api::Schema& schema, const api::json& request, std::uint64_t seed,
                       std::optional<std::size_t> call) {
  static const api::json no_calls = api::json::array();
  const auto listed = request.is_object() ? request.find("calls") : request.end();
  const api::json& calls =
      listed != request.end() ? *listed : no_calls;  // not copied: see call_arguments
  const std::string seed_text = "seed " + std::to_string(seed);
  auto one = [&](std::size_t i) {
    return schema.function + "(" + call_arguments(schema, calls[i]) + ")";
  };
  if (!calls.is_array() || calls.empty())
    return "Tried: " + schema.function + ", " + seed_text + ".";
  const std::size_t n = calls.size();
  if (n == 1) return "Tried: " + one(0) + ", " + seed_text + ".";
  if (call && *call < n)
    return "Tried: " + one(*call) + ", call " + std::to_string(*call + 1) + " of " +
           std::to_string(n) + ", " + seed_text + ".";
  // Which call the runner was in is not known (it crashed or was stopped): all of them.
  std::vector<std::string> lines;
  std::size_t first = 0;
  std::string first_text = one(0);
  for (std::size_t i = 1; i <= n; ++i) {
    std::string text = i < n ? one(i) : std::string();
    if (i < n && text == first_text) continue;
    const std::string which = i - first == 1
                                  ? "call " + std::to_string(first + 1)
                                  : "calls " + std::to_string(first + 1) + "-" + std::to_string(i);
    lines.push_back("  " + which + ": " + first_text);
    first = i;
    first_text = std::move(text);
  }
  std::string text =
      "Tried " + std::to_string(n) + " calls, " + seed_text + "; it stopped in one of them:";
  for (std::size_t i = 0; i < lines.size() && i < kCallLinesShown; ++i) text += "\n" + lines[i];
  if (lines.size() > kCallLinesShown)
    text +=
        "\n  ... and " + std::to_string(lines.size() - kCallLinesShown) + " more lines of calls";
  return text;
}

}  // namespace grader
