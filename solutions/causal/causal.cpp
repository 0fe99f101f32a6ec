// BEGIN SOLUTION
// Verified solution of exercise 2 (interview): causal linear attention.
// The stub exercises/causal/causal.cpp is generated from this file (see tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 2 (interview): causal linear attention, recurrent and parallel, and one decode
// STUB: // step. The hand-out is README.md next to this file. Replace each `throw` with your code;
// STUB: // causal.hpp belongs to the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "causal.hpp"

namespace linattn {

// BEGIN SOLUTION
Matrix causal_linear_attention_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, double eps) {
  const Matrix FQ = phi(Q);  // (T, d_phi)
  const Matrix FK = phi(K);  // (T, d_phi)
  const Eigen::Index T = V.rows();
  const Eigen::Index d_phi = FK.cols();
  const Eigen::Index d_v = V.cols();

  // The whole memory of the loop: one state and one normalizer, whatever T is.
  Matrix S = Matrix::Zero(d_phi, d_v);
  Vector z = Vector::Zero(d_phi);
  Matrix O(T, d_v);
  for (Eigen::Index t = 0; t < T; ++t) {
    // Write token t first, so that it takes part in its own output.
    S.noalias() += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    // Then read: the row phi(q_t)^T S is (S^T phi(q_t))^T.
    const double denominator = FQ.row(t).dot(z) + eps;
    O.row(t).noalias() = FQ.row(t) * S;
    O.row(t) /= denominator;
  }
  return O;
}
// END SOLUTION
// STUB: Matrix causal_linear_attention_recurrent(const Matrix& /*Q*/, const Matrix& /*K*/,
// STUB:                                          const Matrix& /*V*/, const FeatureMap& /*phi*/,
// STUB:                                          double /*eps*/) {
// STUB:   throw NotImplemented("causal_linear_attention_recurrent");
// STUB: }

// BEGIN SOLUTION
Matrix causal_linear_attention_parallel(const Matrix& Q, const Matrix& K, const Matrix& V,
                                        const FeatureMap& phi, double eps) {
  // W = (phi(Q) phi(K)^T) masked to s <= t: keep the lower triangle and the diagonal.
  Matrix W = phi(Q) * phi(K).transpose();  // (T, T)
  W.triangularView<Eigen::StrictlyUpper>().setZero();
  const Vector denominators = (W.rowwise().sum().array() + eps).matrix();  // sums over keys
  return (W * V).array().colwise() / denominators.array();
}
// END SOLUTION
// STUB: Matrix causal_linear_attention_parallel(const Matrix& /*Q*/, const Matrix& /*K*/,
// STUB:                                         const Matrix& /*V*/, const FeatureMap& /*phi*/,
// STUB:                                         double /*eps*/) {
// STUB:   throw NotImplemented("causal_linear_attention_parallel");
// STUB: }

// BEGIN SOLUTION
DecodeStep linear_attention_step(const Matrix& S, const Vector& z, const Vector& q, const Vector& k,
                                 const Vector& v, const FeatureMap& phi, double eps) {
  // A feature map takes a matrix, so each vector goes in as a one-row matrix.
  const Vector fq = phi(q.transpose()).row(0).transpose();  // (d_phi)
  const Vector fk = phi(k.transpose()).row(0).transpose();  // (d_phi)

  // New objects only: S and z are read, never written.
  DecodeStep next;
  next.S = S + fk * v.transpose();
  next.z = z + fk;
  next.o = next.S.transpose() * fq / (next.z.dot(fq) + eps);
  return next;
}
// END SOLUTION
// STUB: DecodeStep linear_attention_step(const Matrix& /*S*/, const Vector& /*z*/, const Vector& /*q*/,
// STUB:                                  const Vector& /*k*/, const Vector& /*v*/,
// STUB:                                  const FeatureMap& /*phi*/, double /*eps*/) {
// STUB:   throw NotImplemented("linear_attention_step");
// STUB: }

}  // namespace linattn
