#include "mistakes.hpp"

#include <algorithm>

namespace grader::chunkwise {

Matrix chunked(const Matrix& FQ, const Matrix& FK, const Matrix& V, Eigen::Index chunk, double eps,
               const Slip& slip) {
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = V.cols();
  const Eigen::Index C = std::max<Eigen::Index>(1, std::min(chunk, T));
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v)
  Vector z = Vector::Zero(d_phi);       // z: (d_phi)
  Matrix O = Matrix::Zero(T, d_v);
  for (Eigen::Index start = 0; start < T; start += C) {
    const Eigen::Index c = std::min(C, T - start);
    if (slip.drop_last && c < C) break;
    const Matrix Qc = FQ.middleRows(start, c), Kc = FK.middleRows(start, c),
                 Vc = V.middleRows(start, c);
    Matrix A = Qc * Kc.transpose();  // (c, c)
    if (slip.strict) A.triangularView<Eigen::Upper>().setZero();
    else if (slip.upper) A.triangularView<Eigen::StrictlyLower>().setZero();
    else if (!slip.no_mask) A.triangularView<Eigen::StrictlyUpper>().setZero();
    Matrix S_read = S;
    Vector z_read = z;
    if (slip.fold_first) {
      S_read += Kc.transpose() * Vc;
      z_read += Kc.colwise().sum().transpose();
    }
    const Matrix num =
        (slip.transposed ? Matrix(Qc * S_read.transpose()) : Matrix(Qc * S_read)) + A * Vc;
    const Vector den = Qc * z_read + A.rowwise().sum();
    O.middleRows(start, c) =
        (num.array() + slip.eps_num).colwise() / (den.array() + slip.eps_times * eps);
    if (slip.carry_S) S += Kc.transpose() * Vc;
    if (slip.carry_z) z += Kc.colwise().sum().transpose();
  }
  return O;
}

}  // namespace grader::chunkwise
