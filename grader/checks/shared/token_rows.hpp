// Patterns that the judges of several exercises look for in an output with one row per token,
// (T, d), when none of the named suspects matches it. Judge side: no reference needed.
#pragma once

#include "../../src/judge/compare.hpp"

namespace grader {

// True when got's rows 1..T-1 equal expected's rows 0..T-2 (outputs written one token late).
bool shifted_by_one(const Matrix& expected, const Matrix& got, const Tolerance& tol);

}  // namespace grader
