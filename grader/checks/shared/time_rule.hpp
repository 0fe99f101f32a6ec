// The time rule (contract, second part): a form meant to be linear in T must not cost like T^2,
// however little memory it holds. Measured as a ratio within one run, never as a time:
//  - the check's calls are the same problem at two token counts, T and 8 T;
//  - the runner calls each one kTimeRuleRepeat times (fewer once half a second is spent) and
//    reports the least CPU time of the student's call (all its threads; decoding is outside);
//  - linear cost grows about 8x, quadratic about 64x; the check fails above 24x
//    (kTimeRuleMaxGrowth, near the geometric middle: a factor ~3 of margin either way);
//  - the outputs must be right as well, so a fast wrong answer earns nothing here.
// CPU time, not wall time, so a busy machine slows a run without changing its figure much; the
// least of several runs drops the outliers that remain.
#pragma once

#include "../../src/check.hpp"

#include <string>

namespace grader {

inline constexpr int kTimeRuleRepeat = 5;
inline constexpr double kTimeRuleMaxGrowth = 24.0;

// The likely mistake a failed time check names, after its figures: what quadratic work looks
// like in the form at hand. This default fits a recurrence; a checks file may word it for its
// own form (chunks, two passes, gates).
inline constexpr const char* kQuadraticRecurrence =
    "the form does work for every pair of tokens, for example it sums over all earlier tokens "
    "again for each new one. Keep the running state and update it once per token.";

// expected, per call: {"tokens": T, "outputs": {<the reference's result, as a runner replies>}}
Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake = kQuadraticRecurrence);

// A time-rule check of `function`, with its oracle (two calls, T and 8 T, same widths).
Check linear_time_check(const std::string& function, const std::string& name, double points,
                        Oracle oracle, std::string likely_mistake = kQuadraticRecurrence);

#ifdef LINATTN_ORACLE
// The expect of a time check: the reference's result of the call and its token count, the
// rows of the matrix argument `tokens_from` ("Q", "FQ", ...).
std::function<json(const json& call)> time_rule_expect(std::string function,
                                                       std::string tokens_from);
#endif

}  // namespace grader
