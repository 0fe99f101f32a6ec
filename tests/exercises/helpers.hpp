// Small helpers shared by the exercises' tests: inputs, feature maps and comparisons.
#pragma once

#include <linref/linref.hpp>

#include <doctest/doctest.h>

#include <Eigen/Dense>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>

namespace extest {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using FeatureMap = std::function<Matrix(const Matrix&)>;

// elu(x) + 1 written out here, so that the hand example does not depend on the reference.
inline Matrix elu_plus_one(const Matrix& X) {
  return X.unaryExpr([](double x) { return x >= 0.0 ? x + 1.0 : std::exp(x); });
}

// Largest |a - b| relative to max(1, |b|), entry by entry; infinite if the shapes differ.
inline double rel_error(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  double worst = 0.0;
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const double scale = std::max(1.0, std::abs(b(i, j)));
      worst = std::max(worst, std::abs(a(i, j) - b(i, j)) / scale);
    }
  }
  return worst;
}

inline std::string shape(const Matrix& m) {
  std::ostringstream s;
  s << "(" << m.rows() << ", " << m.cols() << ")";
  return s.str();
}

// CHECK that got matches want (same shape, relative error at most tol), saying both shapes.
#define EX_CHECK_CLOSE(got, want, tol)                                                        \
  do {                                                                                        \
    const ::extest::Matrix ex_got_ = (got);                                                   \
    const ::extest::Matrix ex_want_ = (want);                                                 \
    INFO("got shape " << ::extest::shape(ex_got_) << ", want " << ::extest::shape(ex_want_)); \
    CHECK(::extest::rel_error(ex_got_, ex_want_) <= (tol));                                   \
  } while (0)

// CHECK that `expr` throws linattn::NotImplemented whose message names `name`.
#define EX_CHECK_NOT_IMPLEMENTED(expr, name)                                 \
  do {                                                                       \
    std::string ex_message_;                                                 \
    bool ex_thrown_ = false;                                                 \
    try {                                                                    \
      (void)(expr);                                                          \
    } catch (const linattn::NotImplemented& e) {                             \
      ex_thrown_ = true;                                                     \
      ex_message_ = e.what();                                                \
    }                                                                        \
    CHECK_MESSAGE(ex_thrown_, name " does not throw NotImplemented");        \
    CHECK_MESSAGE(ex_message_.find(name) != std::string::npos, ex_message_); \
  } while (0)

}  // namespace extest
