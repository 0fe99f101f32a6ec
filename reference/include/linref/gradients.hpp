// Causal linear attention in the forms the seed's PyTorch block compares, and its gradients
// derived by hand.
//
// Everything works on features: FQ = phi(Q), FK = phi(K): (T, d_phi); V: (T, d_v). With
// W = (FQ FK^T) .* L (L lower-triangular ones) the output is
//   O = diag(W 1 + eps)^{-1} W V,  (T, d_v),
// the same function as causal_linear_attention_* in attention.hpp. The loss the gradients are
// taken of is L = sum(O .* G) for a given G: (T, d_v), so dL/dO = G.
//
// Notation used by the gradient code, per token t (a_t = row t of FQ, b_t = row t of FK):
//   S_t = sum_{s<=t} b_s v_s^T (d_phi, d_v),  z_t = sum_{s<=t} b_s (d_phi),
//   den_t = z_t . a_t + eps,  o_t = S_t^T a_t / den_t,
//   u_t = g_t / den_t (d_v)            -- dL/d(numerator_t)
//   w_t = -(g_t . o_t) / den_t         -- dL/d(den_t)
// Then
//   dL/da_t = S_t u_t + w_t z_t                        (a sum over the past: forward in time)
//   dL/db_s = R_s v_s + r_s,  dL/dv_s = R_s^T b_s      (sums over the future: backward in time)
// with R_s = sum_{t>=s} a_t u_t^T (d_phi, d_v) and r_s = sum_{t>=s} w_t a_t (d_phi).
#pragma once

#include "types.hpp"

namespace linref {

struct LinearAttentionGrads {
  Matrix dQ;  // (T, d_k) or (T, d_phi): w.r.t. Q, or w.r.t. FQ for the *_features functions
  Matrix dK;  // same shape as dQ
  Matrix dV;  // (T, d_v)
};

// Forward: the cumulative-sum form. It materialises every state S_1..S_T, as the seed's
// cumulative-sum tensor does, so it allocates T * d_phi * d_v numbers (their size is
// stored_states_bytes() in costs.hpp); it returns O.
Matrix causal_cumsum_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                   double eps = 1e-6);

// Gradients of sum(O .* G) w.r.t. FQ, FK and V through the masked quadratic form:
//   dW = (U V^T + w 1^T) .* L,  dFQ = dW FK,  dFK = dW^T FQ,  dV = W^T U,
// where U has rows u_t and w entries w_t (see above). O(T^2) memory.
LinearAttentionGrads causal_grad_quadratic_features(const Matrix& FQ, const Matrix& FK,
                                                    const Matrix& V, const Matrix& G,
                                                    double eps = 1e-6);
// The same gradients in two passes with running sums and no stored state, a chunk of tokens
// at a time (so that the sums over a chunk are matrix products): a forward pass (running S, z
// over the earlier chunks) gives dFQ, the per-token u_t and w_t, and the parts of dFK and dV
// that come from each chunk's own tokens; a backward pass (running R, r over the later chunks)
// adds the rest of dFK and dV. Extra memory O(T d_v + d_phi d_v + C^2), C = 64 tokens.
LinearAttentionGrads causal_grad_running_features(const Matrix& FQ, const Matrix& FK,
                                                  const Matrix& V, const Matrix& G,
                                                  double eps = 1e-6);

// elu(x) + 1 and its derivative, entry by entry: 1 for x > 0, e^x for x <= 0 (the two
// one-sided derivatives agree at 0).
Matrix elu_plus_one_derivative(const Matrix& X);

// Gradients w.r.t. Q, K and V themselves, through the fixed feature map elu+1 (chain rule on
// top of the running-sum gradients): dQ = dFQ .* phi'(Q), dK = dFK .* phi'(K).
LinearAttentionGrads causal_elu_grad_running(const Matrix& Q, const Matrix& K, const Matrix& V,
                                             const Matrix& G, double eps = 1e-6);
// The same through the quadratic-form gradients (for checking).
LinearAttentionGrads causal_elu_grad_quadratic(const Matrix& Q, const Matrix& K, const Matrix& V,
                                               const Matrix& G, double eps = 1e-6);
// The loss itself, sum(O .* G), with elu+1 features, computed by the recurrence (used for
// finite differences).
double causal_elu_loss(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& G,
                       double eps = 1e-6);

}  // namespace linref
