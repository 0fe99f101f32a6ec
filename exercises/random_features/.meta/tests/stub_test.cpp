// The random-features stub as handed out: the seed's wrong starter [sin, cos], computed here
// independently by plain loops, and an estimate that throws linattn::NotImplemented.
#include "helpers.hpp"
#include "random_features.hpp"

#include <cmath>

using extest::Matrix;
using extest::Vector;

TEST_CASE("stubs/random_features: the starter returns [sin(X Omega^T), cos(X Omega^T)]") {
  linref::Rng rng(1);
  const Matrix X = rng.normal_matrix(4, 3), Omega = rng.normal_matrix(5, 3);
  Matrix want(4, 10);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) {
      double p = 0;
      for (int c = 0; c < 3; ++c) p += X(i, c) * Omega(j, c);
      want(i, j) = std::sin(p);
      want(i, 5 + j) = std::cos(p);
    }
  }
  const Matrix got = linattn::positive_random_features(X, Omega);
  EX_CHECK_CLOSE(got, want, 1e-14);
  // The reference keeps the same starter under its own name, for the grader to recognise.
  EX_CHECK_CLOSE(got, linref::trig_random_features(X, Omega), 1e-14);
  // And it is wrong: the right answer has the other shape.
  CHECK(got.cols() != linref::positive_random_features(X, Omega).cols());
}

TEST_CASE("stubs/random_features: the estimate is not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(
      linattn::softmax_kernel_estimate(Vector::Ones(2), Vector::Ones(2), Matrix::Ones(3, 2)),
      "softmax_kernel_estimate");
}
