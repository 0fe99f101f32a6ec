// Causal linear attention as masked attention: the whole T x T kernel matrix at once. Quadratic
// in T, but only matrix products, which is what makes it useful inside short chunks.
#include "linref/attention.hpp"

#include "causal_check.hpp"

namespace linref {

Matrix causal_parallel_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                     double eps) {
  detail::check_causal_features(FQ, FK, V, "causal_parallel_from_features");
  // W = (phi(Q) phi(K)^T) masked to s <= t; entry (t, s) is how much token t weighs token s.
  Matrix W = FQ * FK.transpose();                              // (T, T)
  W.triangularView<Eigen::StrictlyUpper>().setZero();          // the causal mask L
  const Vector denominator = W.rowwise().sum().array() + eps;  // (T): z_t^T phi(q_t) + eps
  Matrix O = W * V;                                            // (T, d_v): S_t^T phi(q_t) per row
  O.array().colwise() /= denominator.array();
  return O;
}

Matrix causal_linear_attention_parallel(const Matrix& Q, const Matrix& K, const Matrix& V,
                                        const FeatureMap& phi, double eps) {
  return causal_parallel_from_features(phi(Q), phi(K), V, eps);
}

}  // namespace linref
