// Exercise 5 (interview): a matrix state as an associative memory.
#pragma once

#include "../common/linattn.hpp"

namespace linattn {

// K: (n, d_k), V: (n, d_v). Normalizes each key to unit length and returns
// S = sum_s k_hat_s v_s^T, of shape (d_k, d_v).
Matrix write(const Matrix& K, const Matrix& V);

// S: (d_k, d_v), q: (d_k). Normalizes the query and returns S^T q_hat, of shape (d_v).
Vector read(const Matrix& S, const Vector& q);

// K: (n, d_k). Scales each key to unit length, then averages over j = 1..n the sum over the
// other keys s != j of (k_hat_s . k_hat_j)^2. A single key has no crosstalk: 0.
double crosstalk_energy(const Matrix& K);

}  // namespace linattn
