#include "mistakes.hpp"

namespace grader::backward {

Grads two_pass(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps,
               const Slip& slip) {
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = V.cols();
  Grads g{Matrix(T, d_phi), Matrix(T, d_phi), Matrix(T, d_v)};
  auto read = [&](const Matrix& M) { return slip.transposed ? Matrix(M.transpose()) : M; };
  // Per token: dL/dN_t = dO_t / D_t and dL/dD_t = -(dO_t . o_t) / D_t.
  Matrix U(T, d_v);
  Vector w(T);
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v)
  Vector z = Vector::Zero(d_phi);
  for (Eigen::Index t = 0; t < T; ++t) {
    const Matrix S_before = S;
    const Vector z_before = z;
    S += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    const double D = FQ.row(t).dot(z) + slip.eps_times * eps;
    const Vector o = S.transpose() * FQ.row(t).transpose() / D;
    U.row(t) = dO.row(t) / D;
    w(t) = slip.no_normalizer ? 0.0 : (slip.normalizer_sign ? 1.0 : -1.0) * dO.row(t).dot(o) / D;
    const Matrix& St = slip.strict_forward ? S_before : S;
    const Vector& zt = slip.strict_forward ? z_before : z;
    g.dFQ.row(t) = (read(St) * U.row(t).transpose() + w(t) * zt).transpose();
  }
  if (slip.forward_reversed) {  // dFQ_t from the sums over s >= t instead
    S.setZero();
    z.setZero();
    for (Eigen::Index t = T - 1; t >= 0; --t) {
      S += FK.row(t).transpose() * V.row(t);
      z += FK.row(t).transpose();
      g.dFQ.row(t) = (read(S) * U.row(t).transpose() + w(t) * z).transpose();
    }
  }
  // dFK_s = R v_s + r, dV_s = R^T FK_s, with R, r summed over t >= s (or the slip's range).
  Matrix R = Matrix::Zero(d_phi, d_v);
  Vector r = Vector::Zero(d_phi);
  const bool forward = slip.backward_reversed;
  for (Eigen::Index k = 0; k < T; ++k) {
    const Eigen::Index s = forward ? k : T - 1 - k;
    if (!slip.strict_backward) {
      R += FQ.row(s).transpose() * U.row(s);
      r += w(s) * FQ.row(s).transpose();
    }
    g.dFK.row(s) = (read(R) * V.row(s).transpose() + r).transpose();
    g.dV.row(s) = (read(R).transpose() * FK.row(s).transpose()).transpose();
    if (slip.strict_backward) {
      R += FQ.row(s).transpose() * U.row(s);
      r += w(s) * FQ.row(s).transpose();
    }
  }
  return g;
}

}  // namespace grader::backward
