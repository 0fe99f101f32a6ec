// Attention in all the forms the seed discusses. Q, K: (T, d_k); V: (T, d_v); outputs (T, d_v).
#pragma once

#include "types.hpp"

namespace linref {

// Softmax attention with the 1/sqrt(d_k) temperature, causal or not. Numerically stable
// (row maximum subtracted).
Matrix softmax_attention(const Matrix& Q, const Matrix& K, const Matrix& V, bool causal);
// The softmax attention weights, (T, T), rows summing to one (zeros above the diagonal if causal).
Matrix softmax_weights(const Matrix& Q, const Matrix& K, bool causal);

// Non-causal kernel attention with kappa(q, k) = phi(q)^T phi(k), two multiplication orders:
//   left:  diag(A 1 + eps)^{-1} A V with A = phi(Q) phi(K)^T     (T x T in the middle)
//   right: diag(phi(Q) (phi(K)^T 1) + eps)^{-1} phi(Q) (phi(K)^T V)  (d_phi x d_v in the middle)
Matrix kernel_attention_left(const Matrix& Q, const Matrix& K, const Matrix& V,
                             const FeatureMap& phi, double eps = 0.0);
Matrix kernel_attention_right(const Matrix& Q, const Matrix& K, const Matrix& V,
                              const FeatureMap& phi, double eps = 0.0);

// Causal linear attention, o_t = S_t^T phi(q_t) / (z_t^T phi(q_t) + eps), in three forms that
// must agree. The recurrence keeps one state; the parallel form builds the masked T x T kernel
// matrix; the chunkwise form uses the parallel form inside chunks of `chunk` tokens and the
// recurrence across them (T need not be a multiple of chunk).
Matrix causal_linear_attention_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, double eps = 1e-6);
Matrix causal_linear_attention_parallel(const Matrix& Q, const Matrix& K, const Matrix& V,
                                        const FeatureMap& phi, double eps = 1e-6);
Matrix causal_linear_attention_chunkwise(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, Eigen::Index chunk,
                                         double eps = 1e-6);

// The same three forms taking features already computed: FQ, FK: (T, d_phi). The versions
// above apply phi once and call these; the benchmark times these, so that the feature map is
// not what is measured.
Matrix causal_recurrent_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                      double eps = 1e-6);
Matrix causal_parallel_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                     double eps = 1e-6);
Matrix causal_chunkwise_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                      Eigen::Index chunk, double eps = 1e-6);

struct DecodeStep {
  Vector o;  // (d_v)
  Matrix S;  // (d_phi, d_v)
  Vector z;  // (d_phi)
};
// One decode step from the state after t-1 tokens; inputs are not changed.
DecodeStep linear_attention_step(const Matrix& S, const Vector& z, const Vector& q, const Vector& k,
                                 const Vector& v, const FeatureMap& phi, double eps = 1e-6);

// Normalized linear attention (TransNormer style): no denominator; each output row is
// divided by its root mean square, o / sqrt(mean(o^2) + eps). Causal or not.
Matrix normalized_linear_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                   const FeatureMap& phi, bool causal, double eps = 1e-6);

}  // namespace linref
