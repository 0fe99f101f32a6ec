// Slipped copies of exercise 7's two passes: the gradients of causal linear attention as
// running sums, with one of the usual slips switched on. The oracle runs them on a probe's
// inputs and hands the gradients to the judge as suspects; the sentence that names each slip
// to the student is beside the checks, in ../checks.cpp. Oracle side only.
#pragma once

#include "judge/compare.hpp"

namespace grader::backward {

// dL/dFQ, dL/dFK and dL/dV, the three parts of a reply.
struct Grads {
  Matrix dFQ, dFK, dV;
};

// The usual slips, each off by default; a suspect switches one on.
struct Slip {
  bool no_normalizer = false;      // dL/dD_t left out: w_t = 0
  bool normalizer_sign = false;    // w_t = +(dO_t . o_t) / D_t
  bool strict_forward = false;     // dFQ_t reads S_{t-1}, z_{t-1}
  bool forward_reversed = false;   // dFQ_t reads sums over s >= t
  bool strict_backward = false;    // R_s, r_s sum over t > s
  bool backward_reversed = false;  // R_s, r_s sum over t <= s
  bool transposed = false;         // S, R used transposed (d_phi = d_v only)
  int eps_times = 1;               // eps in each D_t this many times
};

// The two passes with the slips of `slip` switched on. FQ, FK: (T, d_phi); V, dO: (T, d_v).
Grads two_pass(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps,
               const Slip& slip);

}  // namespace grader::backward
