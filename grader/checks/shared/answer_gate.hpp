// One slip costs once: a resource check (the memory rule, the time rule) judges its resource
// whenever the code ran and gave back an answer; whether the answer is right is the value
// checks' business. So these checks do not compare values. They only refuse results that are
// no answer at all, which would otherwise earn the resource's points for doing nothing:
//  - a field of the reference's result missing, or of another shape;
//  - every entry 0 where the reference's are not (a stub that returns a zero matrix, a loop
//    that never ran), or every entry one and the same number where the reference's differ (a
//    matrix of ones: a fill reads none of the inputs, and would otherwise earn the points);
//  - no finite entry at all (all NaN or Inf: nothing usable was computed);
//  - one of the call's own inputs handed back unchanged (O = V, the features of Q), unless
//    the reference's answer is that very input (a single token with eps = 0 gives O = V).
// Any other result is an answer, however wrong: a transposed state, eps in the wrong place, a
// row late, a single NaN row, a sign slip. The value checks name those; the resource checks do
// not charge for them again.
#pragma once

#include "../../src/judge/check.hpp"
#include "../../src/judge/judge_helpers.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grader {

// Why `got` (one call's result) is no answer to `call`, given the reference's result `want`
// for it; nothing when it is an answer. Only the fields of `want` are looked at.
std::optional<std::string> not_an_answer(const json& call, const json& want, const json& got);

// The judge of a resource check: every call's result must be an answer (not_an_answer) in
// `fields`, read from the expected entry of each call (the reference's values there).
Judge answers_only(std::vector<std::string> fields);

}  // namespace grader
