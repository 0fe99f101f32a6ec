#include "token_rows.hpp"

namespace grader {

bool shifted_by_one(const Matrix& expected, const Matrix& got, const Tolerance& tol) {
  const Eigen::Index T = expected.rows();
  if (T < 2 || got.rows() != T || got.cols() != expected.cols()) return false;
  return same_values(expected.topRows(T - 1), got.bottomRows(T - 1), tol);
}

}  // namespace grader
