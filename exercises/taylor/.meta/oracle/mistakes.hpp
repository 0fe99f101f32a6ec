// Slipped copies of exercise 4's taylor_features: the same three blocks with one of the usual
// slips, a wrong factor on the quadratic block or the blocks in the wrong order. The oracle runs
// them on a probe's X and hands the features to the judge as suspects; the sentence that names
// each slip to the student is beside the checks, in ../checks.cpp. Oracle side only.
#pragma once

#include "judge/compare.hpp"

namespace grader::taylor {

// Features of X (n, d) built from the blocks [1 | x | vec(x x^T) * qscale], each row
// 1 + d + d^2 wide: the quadratic block before the linear one if `quadratic_first`, the
// constant at the end if `constant_last`. qscale = 1/sqrt(2) in the right order is the answer.
Matrix taylor_variant(const Matrix& X, double qscale, bool quadratic_first, bool constant_last);

}  // namespace grader::taylor
