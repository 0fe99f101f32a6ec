// BEGIN SOLUTION
// Verified solution of exercise 7 (interview): the gradients of causal linear attention.
// The stub exercises/backward/backward.cpp is generated from this file (see
// tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 7 (interview): the gradients of causal linear attention as running sums. The
// STUB: // hand-out is README.md next to this file. Replace the `throw` with your code; backward.hpp
// STUB: // belongs to the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "backward.hpp"

namespace linattn {

// BEGIN SOLUTION
AttentionGrads causal_linear_attention_backward(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                                const Matrix& dO, double eps) {
  const Eigen::Index T = FQ.rows();
  const Eigen::Index d_phi = FQ.cols();
  const Eigen::Index d_v = V.cols();
  AttentionGrads g{Matrix(T, d_phi), Matrix(T, d_phi), Matrix(T, d_v)};

  // Two numbers per token carry what the second pass needs from the first:
  // o_t = N_t / D_t, so dL/dN_t = dO_t / D_t and dL/dD_t = -(dO_t . o_t) / D_t.
  Matrix U(T, d_v);  // U: (T, d_v), row t = dO_t / D_t
  Vector w(T);       // w: (T),      w_t = -(dO_t . o_t) / D_t

  // Forward in time: S and z hold the tokens s <= t, all that query t saw.
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v)
  Vector z = Vector::Zero(d_phi);       // z: (d_phi)
  for (Eigen::Index t = 0; t < T; ++t) {
    S.noalias() += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    const double D = FQ.row(t).dot(z) + eps;
    const Eigen::RowVectorXd o = FQ.row(t) * S / D;  // (1, d_v)
    U.row(t) = dO.row(t) / D;
    w(t) = -dO.row(t).dot(o) / D;
    // FQ_t enters o_t twice: in the numerator S^T FQ_t and in the denominator z . FQ_t.
    g.dFQ.row(t) = U.row(t) * S.transpose() + w(t) * z.transpose();
  }

  // Backward in time: key s is read by every query t >= s, its own included.
  Matrix R = Matrix::Zero(d_phi, d_v);  // R: (d_phi, d_v), sum over t >= s of FQ_t U_t
  Vector r = Vector::Zero(d_phi);       // r: (d_phi),      sum over t >= s of w_t FQ_t
  for (Eigen::Index s = T - 1; s >= 0; --s) {
    R.noalias() += FQ.row(s).transpose() * U.row(s);
    r += w(s) * FQ.row(s).transpose();
    g.dFK.row(s) = V.row(s) * R.transpose() + r.transpose();
    g.dV.row(s) = FK.row(s) * R;
  }
  return g;
}
// END SOLUTION
// STUB: AttentionGrads causal_linear_attention_backward(const Matrix& /*FQ*/, const Matrix& /*FK*/,
// STUB:                                                 const Matrix& /*V*/, const Matrix& /*dO*/,
// STUB:                                                 double /*eps*/) {
// STUB:   throw NotImplemented("causal_linear_attention_backward");
// STUB: }

}  // namespace linattn
