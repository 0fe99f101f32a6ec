// BEGIN SOLUTION
// Verified solution of exercise 5 (interview): a matrix state as an associative memory.
// The stub exercises/memory/memory.cpp is generated from this file (see tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 5 (interview): a matrix state as an associative memory. The hand-out is README.md
// STUB: // next to this file. Replace the starters and the `throw` with your code; memory.hpp belongs
// STUB: // to the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "memory.hpp"

namespace linattn {

Matrix write(const Matrix& K, const Matrix& V) {
  // BEGIN SOLUTION
  const Matrix K_hat = K.rowwise().normalized();  // every key at unit length
  return K_hat.transpose() * V;                   // sum over s of k_hat_s v_s^T, (d_k, d_v)
  // END SOLUTION
  // STUB: // The textbook's starter.
  // STUB: return K.transpose() * V;
}

Vector read(const Matrix& S, const Vector& q) {
  // BEGIN SOLUTION
  return S.transpose() * q.normalized();  // (d_v)
  // END SOLUTION
  // STUB: // The textbook's starter.
  // STUB: return S * q;
}

// BEGIN SOLUTION
double crosstalk_energy(const Matrix& K) {
  const Matrix K_hat = K.rowwise().normalized();
  Matrix G = K_hat * K_hat.transpose();                    // G(s, j) = k_hat_s . k_hat_j, (n, n)
  G.diagonal().setZero();                                  // s = j is the signal, not crosstalk
  return G.squaredNorm() / static_cast<double>(K.rows());  // the mean over j of column sums
}
// END SOLUTION
// STUB: double crosstalk_energy(const Matrix& /*K*/) { throw NotImplemented("crosstalk_energy"); }

}  // namespace linattn
