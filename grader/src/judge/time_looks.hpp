// A failed time check is measured again before its verdict stands (the time rule is in
// checks/shared/time_rule.hpp). On a shared machine one call's CPU time varies by a quarter or
// more (caches and memory bandwidth are shared with other work), and a burst that lands on one
// size flips the growth ratio of a linear form. It rarely lands there look after look, while a
// form that really grows faster than T fails every time. So: up to kMoreLooks more runs of
// every call, each call's CPU time the least of all its runs, judged again after each. Two more
// looks were not enough in a full `./kit test` on this kind of machine.
// The looking ends early when a run does not return normally (where the machine spoiled that
// run, run_check.cpp makes the check the grader's fault instead of failed), and when any call
// took over kLookCeiling of CPU: noise is tens of milliseconds, a second of work is not noise,
// and a look repeats every call (a quadratic mlstm takes 6 s a call, nine calls a look).
#pragma once

#include "check.hpp"

#include <functional>
#include <optional>

namespace grader {

inline constexpr int kMoreLooks = 4;
inline constexpr double kLookCeiling = 1.0;  // seconds of CPU in one call

// `first`: the check's reply, with "cpu_seconds" per call; `verdict`: its judgement. `measure`
// runs every call again and gives the new "cpu_seconds" (nothing when a run did not return
// normally); `judge` judges a reply. Returns the verdict that stands.
Verdict look_again(const json& first, Verdict verdict,
                   const std::function<std::optional<json>()>& measure,
                   const std::function<Verdict(const json& reply)>& judge);

}  // namespace grader
