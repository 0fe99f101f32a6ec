// Slipped copies of exercise 6's chunked loop: causal linear attention chunk by chunk, with
// one of the usual slips switched on. The oracle runs it on a probe's features and hands the
// outputs to the judge as suspects; the sentence that names each slip to the student is
// beside the checks, in ../checks.cpp. Oracle side only.
#pragma once

#include "judge/compare.hpp"

namespace grader::chunkwise {

// The usual slips, each off by default; a suspect switches one on (or both carries off).
struct Slip {
  bool fold_first = false;  // the chunk joins the state before its own outputs are read
  bool strict = false;      // the mask inside a chunk drops the diagonal
  bool no_mask = false;     // no mask inside a chunk
  bool upper = false;       // the mask keeps s >= t inside a chunk
  bool carry_S = true, carry_z = true;
  bool drop_last = false;   // the last, shorter chunk is never computed (its rows stay 0)
  bool transposed = false;  // state read as S phi(q) (d_phi = d_v only)
  double eps_num = 0.0;     // eps added to each numerator entry as well
  int eps_times = 1;        // eps added this many times to a denominator
};

// The chunked loop with the slips of `slip` switched on. FQ, FK: (T, d_phi); V: (T, d_v) -> O.
Matrix chunked(const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk, double eps,
               const Slip& slip);

}  // namespace grader::chunkwise
