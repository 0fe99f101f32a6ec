// Exercise 7 (interview): the gradients of causal linear attention, without stored states.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

struct AttentionGrads {
  Matrix dFQ;  // (T, d_phi)  dL/dFQ
  Matrix dFK;  // (T, d_phi)  dL/dFK
  Matrix dV;   // (T, d_v)    dL/dV
};

// FQ = phi(Q), FK = phi(K): (T, d_phi), the features themselves; V: (T, d_v);
// dO = dL/dO: (T, d_v), where O is exercise 2's output from these features and this eps:
//   o_t = S_t^T FQ_t / (z_t^T FQ_t + eps),  S_t = sum_{s<=t} FK_s V_s^T,  z_t = sum_{s<=t} FK_s.
// Returns dL/dFQ, dL/dFK and dL/dV. Running sums forward in time give dFQ, running sums
// backward in time give dFK and dV. Memory: no T x T matrix and no state per token
// (T x d_phi x d_v); a few T x d_phi or T x d_v arrays and a state or two are fine.
AttentionGrads causal_linear_attention_backward(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                                const Matrix& dO, double eps = 1e-6);

}  // namespace linattn
