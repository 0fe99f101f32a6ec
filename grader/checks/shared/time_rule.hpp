// The time rule (contract, second part): a form meant to be linear in T must not cost like T^2,
// however little memory it holds. Measured as growth within one run, never as a time:
//  - sizes: three token counts, N/2, N and 2 N, N the tokens of the oracle's large call (4096):
//    its first half, itself, and it followed by another of its kind (two causal problems one
//    after the other are one). At each size kTimeRuleRepeat problems, each with inputs of its
//    own (a memo of an earlier call is worth nothing). The largest size is where a T^2 term
//    stands out best against the runner's own linear costs (decoding the inputs);
//  - each call runs in a runner process of its own (Check::timed, run_check.cpp): it is given its
//    own arguments and nothing else (no later call to read ahead), and nothing of it outlives it;
//  - the clock is outside the student's process: the supervisor's CPU time of that process and
//    everything under it (all threads, user + system), read once all of it has ended. The code
//    under test has no clock to replace or skew; it can only use less or more CPU;
//  - per size, the least of its calls (load only ever adds time);
//  - judged on the differences: what N -> 2 N adds against what N/2 -> N adds. A fixed cost
//    per call (process start, or padding on purpose) cancels out; linear cost adds twice as much
//    at each doubling, quadratic cost four times; the check fails above kTimeRuleMaxStepRatio;
//  - the first step is never taken as less than kTimeRuleNoiseFloor: a process's start-up varies
//    by a millisecond or two, which would swing the ratio of small steps (the linear recurrence,
//    d = 8, has steps of about 4 and 10 ms; measured 2.8 without the floor on a loaded machine).
//    So growth under 2.8 x 5 ms cannot fail the check; every quadratic mistake of the kit grows
//    by far more at 8192 tokens (the fastest, a vectorized T x T causal form: about 50 ms);
//  - the outputs must be about right (within kTimeRuleValueTolerance): an answer nowhere near
//    (zeros, a stub) earns nothing, but a slip the value checks already catch (eps added twice)
//    does not cost this check too.
// What it cannot see: extra work added on purpose to make the small sizes as slow as a line
// through the largest (it then costs at every size what the quadratic form costs at the largest).
#pragma once

#include "../../src/check.hpp"

#include <string>

namespace grader {

inline constexpr int kTimeRuleRepeat = 3;            // problems of each size, each its own inputs
inline constexpr int kTimeRuleSizes = 3;             // N/2, N, 2 N
inline constexpr double kTimeRuleMaxStepRatio = 2.8;  // linear 2, quadratic 4: near their middle
inline constexpr double kTimeRuleNoiseFloor = 5e-3;  // seconds of CPU
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
