// Exercise 8 (core): forgetting, and a normalizer that cannot blow up.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// The matrix LSTM of xLSTM, no output gate, identity features.
// Q, K: (T, d_k); V: (T, d_v); f, i: (T), one forget and one input gate per token.
// Returns H: (T, d_v), with C_0 = 0, n_0 = 0 and, for t = 1..T,
//   C(t) = f(t) C(t-1) + i(t) outer(v(t), k(t))        C: (d_v, d_k)
//   n(t) = f(t) n(t-1) + i(t) k(t)              n: (d_k)
//   h(t) = C(t) q(t) / max(|dot(n(t), q(t))|, 1)
// Loops over time; must never hold anything that grows like T x T or T x d_k x d_v.
Matrix mlstm(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f, const Vector& i);

// Lightning attention / TransNormer, no output gate. silu(x) = x / (1 + e^-x), entrywise on
// Q, K and V; 0 < gamma <= 1; gain: (d_v). Returns O: (T, d_v), with S_0 = 0 and
//   S(t) = gamma S(t-1) + outer(silu(k(t)), silu(v(t)))      S: (d_k, d_v)
//   y_t = S_t^T silu(q_t)                            no denominator
//   o_t = gain .* y_t / sqrt(mean(y_t^2) + eps)      the mean over the d_v entries of y_t
// Same memory rule as mlstm.
Matrix decayed_normalized_attention(const Matrix& Q, const Matrix& K, const Matrix& V, double gamma,
                                    const Vector& gain, double eps = 1e-6);

}  // namespace linattn
