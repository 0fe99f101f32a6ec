// Causal linear attention as a recurrent network: one state, one token at a time. This is
// how a model decodes, and the form whose memory does not grow with T.
#include "linref/attention.hpp"

#include "causal_check.hpp"

namespace linref {

Matrix causal_recurrent_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                      double eps) {
  detail::check_causal_features(FQ, FK, V, "causal_recurrent_from_features");
  const Eigen::Index T = FQ.rows();
  const Eigen::Index d_phi = FQ.cols();
  const Eigen::Index d_v = V.cols();

  // Eigen stores matrices column by column, so a row of FQ is scattered over memory. Working
  // on the transposes makes each token's features and value one contiguous column. These
  // copies are the size of the inputs: nothing here grows like T^2 or T d_phi d_v.
  const Matrix FQt = FQ.transpose();  // (d_phi, T)
  const Matrix FKt = FK.transpose();  // (d_phi, T)
  const Matrix Vt = V.transpose();    // (d_v, T)
  Matrix Ot(d_v, T);                  // (d_v, T), transposed back at the end

  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v), sum of phi(k_s) v_s^T so far
  Vector z = Vector::Zero(d_phi);       // z: (d_phi),      sum of phi(k_s) so far
  for (Eigen::Index t = 0; t < T; ++t) {
    // Write first, then read: token t must see its own key and value.
    S.noalias() += FKt.col(t) * Vt.col(t).transpose();  // rank-one update
    z += FKt.col(t);
    const double denominator = z.dot(FQt.col(t)) + eps;
    Ot.col(t).noalias() = S.transpose() * FQt.col(t);  // (d_v)
    Ot.col(t) /= denominator;
  }
  return Ot.transpose();
}

Matrix causal_linear_attention_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, double eps) {
  return causal_recurrent_from_features(phi(Q), phi(K), V, eps);
}

DecodeStep linear_attention_step(const Matrix& S, const Vector& z, const Vector& q, const Vector& k,
                                 const Vector& v, const FeatureMap& phi, double eps) {
  // A feature map works on matrices; one token is a one-row matrix.
  const Vector fq = phi(q.transpose()).row(0).transpose();  // (d_phi)
  const Vector fk = phi(k.transpose()).row(0).transpose();  // (d_phi)
  if (S.rows() != fk.size() || z.size() != fk.size() || S.cols() != v.size())
    throw std::invalid_argument("linear_attention_step: state does not match phi(k) and v");

  // New objects throughout: the caller's S and z stay as they were.
  DecodeStep next;
  next.S = S + fk * v.transpose();                            // (d_phi, d_v)
  next.z = z + fk;                                            // (d_phi)
  next.o = next.S.transpose() * fq / (next.z.dot(fq) + eps);  // (d_v)
  return next;
}

}  // namespace linref
