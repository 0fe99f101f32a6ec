// Exercise 2 (interview): causal linear attention, recurrent and parallel, and one decode step.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// Q, K: (T, d_k); V: (T, d_v); returns O: (T, d_v), with
//   S_t = S_{t-1} + phi(k_t) v_t^T        S: (d_phi, d_v)
//   z_t = z_{t-1} + phi(k_t)              z: (d_phi)
//   o_t = S_t^T phi(q_t) / (z_t^T phi(q_t) + eps)
// Token t is part of its own sum. Loops over time; must never hold anything that grows like
// T x T or like T x d_phi x d_v (phi(Q), phi(K), the output and one state are fine).
Matrix causal_linear_attention_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, double eps = 1e-6);

// The same output from the masked kernel matrix W = (phi(Q) phi(K)^T) .* L, L lower-triangular
// ones: O = diag(W 1 + eps)^{-1} W V.
Matrix causal_linear_attention_parallel(const Matrix& Q, const Matrix& K, const Matrix& V,
                                        const FeatureMap& phi, double eps = 1e-6);

struct DecodeStep {
  Vector o;  // (d_v)         the output of this token
  Matrix S;  // (d_phi, d_v)  the state after this token
  Vector z;  // (d_phi)       the normalizer after this token
};

// One decode step. S, z: the state after t-1 tokens; q, k: (d_k); v: (d_v).
// Returns (o_t, S_t, z_t) and leaves every input unchanged.
DecodeStep linear_attention_step(const Matrix& S, const Vector& z, const Vector& q, const Vector& k,
                                 const Vector& v, const FeatureMap& phi, double eps = 1e-6);

}  // namespace linattn
