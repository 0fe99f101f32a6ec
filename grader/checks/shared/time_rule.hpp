// The time rule (contract, second part): a form meant to be linear in T must not cost like T^2,
// however little memory it holds. Measured as growth within one run, never as a time:
//  - sizes: three token counts, N/8, N/2 and 2 N, N the tokens of the oracle's large call (4096,
//    and 32768 for the causal recurrence at d = 8), each kTimeRuleGrowth = 4 times the one
//    before: the first part of N, and N followed by another problem of its kind (two causal
//    problems one after the other are one). At each size kTimeRuleRepeat problems, each with
//    inputs of its own (a memo of an earlier call is worth nothing). The largest size is where
//    a T^2 term stands out best against the runner's own linear costs (decoding the inputs);
//  - each call runs in a runner process of its own (Check::timed, run_runner.cpp): it is given its
//    own arguments and nothing else (no later call to read ahead), and nothing of it outlives it;
//  - the clock is outside the student's process: the supervisor's CPU time of that process and
//    everything under it (all threads, user + system), read once all of it has ended. The code
//    under test has no clock to replace or skew; it can only use less or more CPU;
//  - per size, the least of its calls (load only ever adds time);
//  - three rules on the differences, low = N/8 -> N/2 and high = N/2 -> 2 N; all must hold:
//    1. growth: linear cost adds 4 times as much at the second step, quadratic cost 16 times;
//       the check fails when high / low is above kTimeRuleMaxStepRatio, their geometric
//       middle. A fixed cost per call (process start) cancels out. Steps of 2 (the rule's first
//       form) put linear at 2 and quadratic at 4 with 2.8 between: real linear forms measured
//       2.84 on a quiet machine (caches make a larger problem a little dearer per token), and
//       load did the rest. low is never taken as less than kTimeRuleNoiseFloor: a call's CPU
//       time varies by several milliseconds (process start, caches shared with other work),
//       which swings the ratio of small steps (the linear recurrence, d = 8, has a first step of
//       a few ms, all of it noise). So growth alone cannot fail a high step under 8 x 8 ms.
//       Nor is low taken as less than kTimeRuleJitterShare of the smallest size's time: a call
//       with a large fixed cost varies by a share of it, and the share is noise too. Measured
//       under load (a full test run beside it) on a submission whose every call maps and fills
//       60 MiB besides the heap meter's 120 MiB top-up: 881, 898 and 1072 ms (least of three),
//       low 17 ms and high 173 ms, 10.0 times; rerun, 893, 887, 970 ms; quiet, it passes. Its
//       high step moved by 100 ms, 11% of the fixed cost. A fixed cost added on purpose buys
//       nothing: rule 3 judges high alone;
//    2. growth from below: once low is over kTimeRuleMaxStepRatio times the least a step
//       counts for (64 ms, or 80% of the smallest size's time: well above noise), high must be
//       at least kTimeRuleMinStepRatio times low. Linear work never adds less for 4 times the
//       tokens; time spent on purpose at the middle size to flatten the growth does (the
//       issue's cheat: light T^2 work with 0.6 s of CPU burnt at the two larger sizes measured
//       18, 620 and 941 ms, 0.5). The same submission as in rule 1 measured, in a fresh-clone
//       run, 1214.6, 1439.0 and 1226.5 ms: its middle size 220 ms above both others, noise of
//       18% of the fixed cost, which a threshold of 64 ms took for padding;
//    3. the pace: high must be at most kTimeRulePaceFactor times what a plain linear pass over
//       the same inputs adds over the same step, plus kTimeRulePaceAllowance for noise
//       (linear_pace: a d x d recurrence over the call's longest matrix, from the bytes a runner
//       is sent to the reply it packs, in a child process of its own timed by its rusage, the
//       least of each size). It is the machine's pace for linear work of this size, now, paid as
//       a call pays it: a fresh process's pages cost the kernel about as much CPU as the work
//       (the causal solution at 65536 tokens: about 170 ms user, 160 ms system). The same pass
//       on the judge's own thread paid none of that and varied 3 times from run to run (24 to
//       88 ms); a correct causal form's last step (246 ms) went over 8 times its 19 ms in a
//       loaded CI run. Forked, the pass costs what the solutions' last steps cost, 0.6 to 1.3
//       times (this 2-core machine, quiet: causal 169-240 / 196-266 ms, chunkwise 90-110 /
//       110-176, backward 165 / 126, mLSTM 68 / 55, decayed 54 / 52); quadratic work padded to
//       grow like T (rules 1 and 2 then hold) still spends 3/4 of its cost at 2 N in high, and
//       fails here when that is over the budget;
//  - the outputs must be an answer (answer_gate.hpp): no answer at all (zeros, an input handed
//    back) earns nothing, but a slip the value checks already catch (eps added twice, a
//    transposed state) does not cost this check too, however far off its values are.
// Measured with the corpus's forms (causal, 4096 / 16384 / 65536 tokens): a pair loop of vector
// instructions light enough to pass the old sizes (0.6, 3.8 and 56.9 ms at 1024, 4096 and 16384)
// 16, 71 and 803 ms, 13.3 times (rule 1); the same padded to 0.6 s, 0.5 times (rule 2); pair
// work padded to grow like T, 189, 685 and 2704 ms: a last step of 2019 ms against a budget of
// 934 ms (a forked pass of 290 ms), under a parallel ctest beside it (rule 3).
// What it cannot see: T^2 work whose cost at 2 N stays under about 4/3 of the budget (for the
// causal recurrence a budget of 0.7 to 0.9 s here, so T^2 work under about 1 s at 65536 tokens,
// padded with care so that it grows like T): at the sizes measured it costs what a slow linear
// form costs. A larger top size would narrow this further, at the price of memory.
// The pace moves with the machine, and the blind spot with it: a correct form slows down with
// the pass (both pay the same kernel work for their pages); work padded to a fixed CPU time does
// not. What the rule times is user and system time alike: a form cannot move its work out of
// the figure into the kernel.
#pragma once

#include "../../src/judge/check.hpp"

#include <functional>
#include <string>

namespace grader {

inline constexpr int kTimeRuleRepeat = 3;  // problems of each size, each its own inputs
inline constexpr int kTimeRuleSizes = 3;   // N/8, N/2, 2 N
inline constexpr int kTimeRuleGrowth = 4;  // each size this many times the one before
inline constexpr double kTimeRuleMaxStepRatio =
    8.0;  // linear 4, quadratic 16: their geometric middle
inline constexpr double kTimeRuleNoiseFloor = 8e-3;  // seconds of CPU
// ... nor as less than this share of the smallest size's own time (see rule 1 above).
inline constexpr double kTimeRuleJitterShare = 0.1;
// The budget of the largest step against the pace (see the top of this file).
inline constexpr double kTimeRuleMinStepRatio = 2.0;  // linear 4: half of it
inline constexpr double kTimeRulePaceFactor = 3.0;
inline constexpr double kTimeRulePaceAllowance = kTimeRuleMaxStepRatio * kTimeRuleNoiseFloor;

// The pace of linear work on this machine, now, for the size of `call`: the CPU time of one
// plain linear pass over the call's longest matrix, in a process of its own (time_rule.cpp).
using Pace = std::function<double(const json& call)>;
double linear_pace(const json& call);

// The likely mistake a failed time check names, after its figures: what quadratic work looks
// like in the form at hand. This default fits a recurrence; a checks file may word it for its
// own form (chunks, two passes, gates).
inline constexpr const char* kQuadraticRecurrence =
    "the form does work for every pair of tokens, for example it sums over all earlier tokens "
    "again for each new one. Keep the running state and update it once per token.";

// expected, per call: {"tokens": T, "outputs": {<the reference's result, as a runner replies>}};
// reply["cpu_seconds"][i]: the supervisor's CPU time of call i's process.
// `pace` is linear_pace but in the judge's own tests.
Verdict judge_linear_time(const json& request, const json& expected, const json& reply,
                          const std::string& likely_mistake = kQuadraticRecurrence,
                          const Pace& pace = linear_pace);

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
