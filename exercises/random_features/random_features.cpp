// Exercise 3 (core): positive random features for the softmax kernel. The hand-out is
// README.md next to this file. Replace the starter and the `throw` with your code;
// random_features.hpp belongs to the kit and stays as it is.
// Parameter names are commented out only so that the unfinished file compiles without
// warnings: restore a name when you use it.
#include "random_features.hpp"

#include <cmath>

namespace linattn {

Matrix positive_random_features(const Matrix& X, const Matrix& Omega) {
  // The textbook's starter: trigonometric random features, sin block then cos block.
  const Matrix projections = X * Omega.transpose();  // (n, d_phi)
  Matrix features(X.rows(), 2 * Omega.rows());
  features << projections.array().sin().matrix(), projections.array().cos().matrix();
  return features;
}

double softmax_kernel_estimate(const Vector& /*q*/, const Vector& /*k*/, const Matrix& /*Omega*/) {
  throw NotImplemented("softmax_kernel_estimate");
}

}  // namespace linattn
