// The time rule (contract, second part): a form meant to be linear in T must not cost like T^2,
// however little memory it holds. Measured as growth within one run, never as a time:
//  - sizes: three token counts, N/8, N/2 and 2 N, N the tokens of the oracle's large call (4096),
//    each kTimeRuleGrowth = 4 times the one before: the first part of N, and N followed by
//    another problem of its kind (two causal problems one after the other are one). At each
//    size kTimeRuleRepeat problems, each with inputs of its own (a memo of an earlier call is
//    worth nothing). The largest size is where a T^2 term stands out best against the runner's
//    own linear costs (decoding the inputs);
//  - each call runs in a runner process of its own (Check::timed, run_check.cpp): it is given its
//    own arguments and nothing else (no later call to read ahead), and nothing of it outlives it;
//  - the clock is outside the student's process: the supervisor's CPU time of that process and
//    everything under it (all threads, user + system), read once all of it has ended. The code
//    under test has no clock to replace or skew; it can only use less or more CPU;
//  - per size, the least of its calls (load only ever adds time);
//  - judged on the differences: what N/2 -> 2 N adds against what N/8 -> N/2 adds. A fixed cost
//    per call (process start, or padding on purpose) cancels out; linear cost adds 4 times as
//    much at the second step, quadratic cost 16 times; the check fails above
//    kTimeRuleMaxStepRatio, their geometric middle. Steps of 2 (the rule's first form) put
//    linear at 2 and quadratic at 4 with 2.8 between: real linear forms measured 2.84 on a quiet
//    machine (caches make a larger problem a little dearer per token), and load did the rest;
//  - the first step is never taken as less than kTimeRuleNoiseFloor: a call's CPU time varies
//    by several milliseconds (process start, caches shared with other work), which swings the
//    ratio of small steps (the linear recurrence, d = 8, has a first step of under 2 ms, all
//    of it noise). So growth under 8 x 8 ms cannot fail the check; the quadratic forms of the
//    corpus grow by 90 ms (a recurrence recomputing every earlier token with Eigen's vectorized
//    products, d = 8) to 6 s from N/2 to 2 N;
//  - the outputs must be about right (within kTimeRuleValueTolerance): an answer nowhere near
//    (zeros, a stub) earns nothing, but a slip the value checks already catch (eps added twice)
//    does not cost this check too.
// What it cannot see: extra work added on purpose to make the small sizes as slow as a line
// through the largest (it then costs at every size what the quadratic form costs at the largest).
#pragma once

#include "../../src/judge/check.hpp"

#include <string>

namespace grader {

inline constexpr int kTimeRuleRepeat = 3;  // problems of each size, each its own inputs
inline constexpr int kTimeRuleSizes = 3;   // N/8, N/2, 2 N
inline constexpr int kTimeRuleGrowth = 4;  // each size this many times the one before
inline constexpr double kTimeRuleMaxStepRatio =
    8.0;  // linear 4, quadratic 16: their geometric middle
inline constexpr double kTimeRuleNoiseFloor = 8e-3;  // seconds of CPU
inline constexpr double kTimeRuleValueTolerance = 1e-3;

// The likely mistake a failed time check names, after its figures: what quadratic work looks
// like in the form at hand. This default fits a recurrence; a checks file may word it for its
// own form (chunks, two passes, gates).
inline constexpr const char* kQuadraticRecurrence =
    "the form does work for every pair of tokens, for example it sums over all earlier tokens "
    "again for each new one. Keep the running state and update it once per token.";

// expected, per call: {"tokens": T, "outputs": {<the reference's result, as a runner replies>}};
// reply["cpu_seconds"][i]: the supervisor's CPU time of call i's process.
Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake = kQuadraticRecurrence);

// A time-rule check of `function` (its oracle, if given here, as time_rule_oracle makes it
// from a pair; a checks file gives none, its oracle file joins it by name). The same likely
// mistake is named when the check runs into its wall limit.
Check linear_time_check(const std::string& function, const std::string& name, double points,
                        Oracle oracle, std::string likely_mistake = kQuadraticRecurrence);

// `call` cut to its first `tokens` tokens: every matrix argument with as many rows as the
// call's longest matrix, and every vector argument that long, keeps its first `tokens` rows.
json first_tokens(const json& call, long tokens);

// The oracle of a time check, from `pair`, an oracle whose calls(seed) gives a pair (N/8 and
// N; only the large one is used): its calls become kTimeRuleRepeat x kTimeRuleSizes problems
// made from such calls, each from seeds of its own. In an exercise's oracle file.
Oracle time_rule_oracle(Oracle pair);

// The expect of a time check (oracle side): the reference's result of the call and its token
// count, the rows of the matrix argument `tokens_from` ("Q", "FQ", ...).
std::function<json(const json& call)> time_rule_expect(std::string function,
                                                       std::string tokens_from);

}  // namespace grader
