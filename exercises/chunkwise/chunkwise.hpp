// Exercise 6 (core): causal linear attention, chunkwise.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// Q, K: (T, d_k); V: (T, d_v); returns O: (T, d_v), the same numbers as exercise 2's
//   o_t = S_t^T phi(q_t) / (z_t^T phi(q_t) + eps),  S_t = sum_{s<=t} phi(k_s) v_s^T,
//                                                   z_t = sum_{s<=t} phi(k_s),
// computed chunk by chunk. Tokens 0..T-1 form consecutive chunks of `chunk` tokens, the last
// one shorter when chunk does not divide T. Within a chunk, the masked quadratic form (key s
// visible to query t when s <= t); across chunks, the state (S, z) of all earlier chunks.
// Any chunk >= 1: chunk = 1 is the recurrence, chunk >= T one chunk, the parallel form.
// Memory: phi(Q), phi(K), the output, one chunk x chunk block and the state; one state per
// chunk at most. Never anything like T x T or T x d_phi x d_v.
Matrix causal_linear_attention_chunkwise(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, Eigen::Index chunk,
                                         double eps = 1e-6);

}  // namespace linattn
