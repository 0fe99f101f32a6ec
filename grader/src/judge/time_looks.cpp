// More looks at a failed time check (see time_looks.hpp).
#include "time_looks.hpp"

#include <algorithm>

namespace grader {

namespace {

bool worth_another_look(const json& cpu_seconds) {
  for (const auto& seconds : cpu_seconds)
    if (seconds.get<double>() > kLookCeiling) return false;
  return true;
}

}  // namespace

Verdict look_again(const json& first, Verdict verdict,
                   const std::function<std::optional<json>()>& measure,
                   const std::function<Verdict(const json& reply)>& judge) {
  json merged = first;
  json& least = merged.at("cpu_seconds");
  for (int look = 0; look < kMoreLooks && !verdict.passed && worth_another_look(least); ++look) {
    const std::optional<json> again = measure();
    if (!again || !again->is_array() || again->size() != least.size()) break;
    for (std::size_t i = 0; i < least.size(); ++i)
      least[i] = std::min(least[i].get<double>(), (*again)[i].get<double>());
    verdict = judge(merged);
  }
  return verdict;
}

}  // namespace grader
