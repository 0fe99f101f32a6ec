// What the usual mistakes in causal linear attention would output, computed on the oracle side
// from the same features and handed to the judge as suspects, so that a wrong answer can be
// named. Each function returns the suspects
// that make sense for the given sizes (a transposed state only when d_phi = d_v, and so on).
#pragma once

#include "judge/compare.hpp"

#include <vector>

namespace grader::causal {

// Whole-sequence forms. FQ, FK: (T, d_phi); V: (T, d_v). The same wrong numbers have
// different causes in the two forms (a state read too early in the recurrence is a mask that
// drops the diagonal in the parallel form), so each suspect is worded for the form graded.
enum class Form { Recurrent, Parallel };
std::vector<Suspect> sequence_suspects(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                       double eps, Form form);

// One decode step. S_prev: (d_phi, d_v); z_prev, fq, fk: (d_phi); v: (d_v); k: (d_k), the raw key.
struct StepSuspects {
  std::vector<Suspect> o;  // values as column vectors (d_v x 1)
  std::vector<Suspect> S;
  std::vector<Suspect> z;  // column vectors (d_phi x 1)
};
StepSuspects step_suspects(const Matrix& S_prev, const Vector& z_prev, const Vector& fq,
                           const Vector& fk, const Vector& k, const Vector& v, double eps);

}  // namespace grader::causal
