// Exercise 3 (core): positive random features for the softmax kernel.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// X: (n, d_k); Omega: (d_phi, d_k), one random direction w_i per row. Returns (n, d_phi):
//   phi(x) = exp(-|x|^2 / 2) / sqrt(d_phi) * (exp(w_1^T x), ..., exp(w_{d_phi}^T x))
// No temperature: use x as given. Every entry is positive.
Matrix positive_random_features(const Matrix& X, const Matrix& Omega);

// q, k: (d_k). Returns phi(q)^T phi(k) for this Omega: an unbiased estimate of exp(q^T k).
double softmax_kernel_estimate(const Vector& q, const Vector& k, const Matrix& Omega);

}  // namespace linattn
