// The modern recipe: a state that forgets, and a normalizer that cannot blow up. Two layers
// the seed describes, each as a recurrence that keeps one state (memory independent of T).
// Q, K: (T, d_k); V: (T, d_v); outputs (T, d_v).
#pragma once

#include "types.hpp"

namespace linref {

// The matrix LSTM of xLSTM, without its output gate, with identity features. One forget gate
// f_t and one input gate i_t per token (f, i: (T)); C_0 = 0, n_0 = 0:
//   C(t) = f(t) C(t-1) + i(t) outer(v(t), k(t))        C: (d_v, d_k)
//   n(t) = f(t) n(t-1) + i(t) k(t)              n: (d_k)
//   h(t) = C(t) q(t) / max(|dot(n(t), q(t))|, 1)      h: (d_v)
Matrix mlstm(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f, const Vector& i);

// SiLU entrywise: x sigma(x) = x / (1 + e^-x).
Matrix silu(const Matrix& X);

// Lightning attention / TransNormer without the output gate: SiLU features on Q, K and V, a
// fixed decay 0 < gamma <= 1, no denominator, and an RMSNorm with gains (gain: (d_v)):
//   S(t) = gamma S(t-1) + outer(silu(k(t)), silu(v(t)))      S: (d_k, d_v)
//   y_t = S_t^T silu(q_t)                            y: (d_v)
//   o_t = gain .* y_t / sqrt(mean_j y_tj^2 + eps)    mean over the d_v entries of y_t
Matrix decayed_normalized_attention(const Matrix& Q, const Matrix& K, const Matrix& V, double gamma,
                                    const Vector& gain, double eps = 1e-6);

}  // namespace linref
