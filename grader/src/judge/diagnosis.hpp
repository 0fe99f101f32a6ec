// Naming the likely mistake: an output that fails its comparison is matched against what the
// output would be after each named mistake ("suspects", worked out by the oracle), or, for an
// integer answer, against ranges ("rules"); the first match names the mistake.
#pragma once

#include "check.hpp"
#include "numeric_comparison.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grader {

// A mistaken variant: what the output would be after a named mistake.
struct Suspect {
  std::string mistake;  // a full sentence, said after "Likely mistake: "
  Matrix value;
};
// The first suspect whose value the student's output matches (same shape, within tol).
std::optional<std::string> diagnose(const Matrix& got, const std::vector<Suspect>& suspects,
                                    const Tolerance& tol = kTight);

struct ScalarSuspect {
  std::string mistake;
  double value;
};
std::optional<std::string> diagnose_scalar(double got, const std::vector<ScalarSuspect>& suspects,
                                           const Tolerance& tol = kTight);

// Suspects travel from the oracle half to the judge as JSON: [{"mistake": ..., "value": ...}].
// A matrix suspect with more than kProbeEntries entries is sent as its shape and a probe of
// evenly spaced entries ({"rows", "cols", "probe": [[index, value], ...]}, row-major
// indices), and is recognised when the output has that shape and matches at those entries.
inline constexpr Eigen::Index kProbeEntries = 4096;
// Suspects are worked out for calls of up to this many tokens only. The memory and time rules
// call at thousands of tokens, where running every slipped copy would cost the oracle seconds
// per check; the same slips are told apart on the small probes of the same function.
inline constexpr Eigen::Index kMaxSuspectTokens = 1024;
json suspects_json(const std::vector<Suspect>& suspects);
json scalar_suspects_json(const std::vector<ScalarSuspect>& suspects);
std::optional<std::string> diagnose(const Matrix& got, const json& suspects,
                                    const Tolerance& tol = kTight);
std::optional<std::string> diagnose_scalar(double got, const json& suspects,
                                           const Tolerance& tol = kTight);

// For integer answers: the first rule with lo <= got <= hi names the mistake (a single
// value has lo = hi). JSON: [{"mistake": ..., "lo": ..., "hi": ...}].
struct IntRule {
  std::string mistake;
  std::int64_t lo, hi;
};
json int_rules_json(const std::vector<IntRule>& rules);
std::optional<std::string> diagnose_int(std::int64_t got, const json& rules);

}  // namespace grader
