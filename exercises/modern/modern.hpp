// Exercise 8 (core): forgetting, and a normalizer that cannot blow up.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// The matrix LSTM of xLSTM, no output gate, identity features.
// Q, K: (T, d_k); V: (T, d_v); f, i: (T), one forget and one input gate per token.
// Returns H: (T, d_v), with C_0 = 0, n_0 = 0 and, for t = 1..T,
//   C_t = f_t C_{t-1} + i_t v_t k_t^T        C: (d_v, d_k)
//   n_t = f_t n_{t-1} + i_t k_t              n: (d_k)
//   h_t = C_t q_t / max(|n_t^T q_t|, 1)
// Loops over time; must never hold anything that grows like T x T or T x d_k x d_v.
Matrix mlstm(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f, const Vector& i);

// Lightning attention / TransNormer, no output gate. silu(x) = x / (1 + e^-x), entrywise on
// Q, K and V; 0 < gamma <= 1; gain: (d_v). Returns O: (T, d_v), with S_0 = 0 and
//   S_t = gamma S_{t-1} + silu(k_t) silu(v_t)^T      S: (d_k, d_v)
//   y_t = S_t^T silu(q_t)                            no denominator
//   o_t = gain .* y_t / sqrt(mean(y_t^2) + eps)      the mean over the d_v entries of y_t
// Same memory rule as mlstm.
Matrix decayed_normalized_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                    double gamma, const Vector& gain, double eps = 1e-6);

}  // namespace linattn
