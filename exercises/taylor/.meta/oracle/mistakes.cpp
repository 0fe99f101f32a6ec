#include "mistakes.hpp"

namespace grader::taylor {

Matrix taylor_variant(const Matrix& X, double qscale, bool quadratic_first, bool constant_last) {
  const Eigen::Index n = X.rows(), d = X.cols();
  Matrix F(n, 1 + d + d * d);
  for (Eigen::Index r = 0; r < n; ++r) {
    Eigen::RowVectorXd quad(d * d);
    for (Eigen::Index i = 0; i < d; ++i)
      for (Eigen::Index j = 0; j < d; ++j) quad(i * d + j) = X(r, i) * X(r, j) * qscale;
    Eigen::RowVectorXd row(1 + d + d * d);
    Eigen::Index at = 0;
    if (!constant_last) row(at++) = 1.0;
    if (quadratic_first) {
      row.segment(at, d * d) = quad;
      at += d * d;
    }
    row.segment(at, d) = X.row(r);
    at += d;
    if (!quadratic_first) {
      row.segment(at, d * d) = quad;
      at += d * d;
    }
    if (constant_last) row(at++) = 1.0;
    F.row(r) = row;
  }
  return F;
}

}  // namespace grader::taylor
