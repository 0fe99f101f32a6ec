// Small helpers shared by the reference tests.
#pragma once

#include "linref/types.hpp"

#include <initializer_list>
#include <limits>

namespace test_helpers {

using linref::Matrix;
using linref::Vector;

// Largest absolute entry-wise difference; shapes must match (otherwise +infinity).
inline double max_abs_diff(const Matrix& A, const Matrix& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols()) return std::numeric_limits<double>::infinity();
  if (A.size() == 0) return 0.0;
  return (A - B).cwiseAbs().maxCoeff();
}

// A matrix written row by row in the test, as on paper: rows({{1, 2}, {3, 4}}).
inline Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
  const Eigen::Index r = static_cast<Eigen::Index>(values.size());
  const Eigen::Index c = static_cast<Eigen::Index>(values.begin()->size());
  Matrix M(r, c);
  Eigen::Index i = 0;
  for (const auto& row : values) {
    Eigen::Index j = 0;
    for (double x : row) M(i, j++) = x;
    ++i;
  }
  return M;
}

inline Vector vec(std::initializer_list<double> values) {
  Vector v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v(i++) = x;
  return v;
}

}  // namespace test_helpers
