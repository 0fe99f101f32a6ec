// BEGIN SOLUTION
// Verified solution of exercise 4 (core): Taylor features and what their state costs.
// The stub exercises/taylor/taylor.cpp is generated from this file (see tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 4 (core): second-order Taylor features and their cost. The hand-out is README.md
// STUB: // next to this file. Replace the starter and each `throw` with your code; taylor.hpp belongs
// STUB: // to the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "taylor.hpp"

#include <cmath>

namespace linattn {

Matrix taylor_features(const Matrix& X) {
  // BEGIN SOLUTION
  const Eigen::Index n = X.rows();
  const Eigen::Index d = X.cols();
  const double inv_sqrt2 = 1.0 / std::sqrt(2.0);

  Matrix F(n, 1 + d + d * d);
  F.col(0).setOnes();      // the constant term
  F.middleCols(1, d) = X;  // the linear terms
  // The quadratic terms: entry (i, j) of x x^T goes to column 1 + d + i*d + j (row-major).
  for (Eigen::Index i = 0; i < d; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) {
      F.col(1 + d + i * d + j) = inv_sqrt2 * X.col(i).cwiseProduct(X.col(j));
    }
  }
  return F;
  // END SOLUTION
  // STUB: // The textbook's starter: first order only, the constant and the linear terms.
  // STUB: Matrix features(X.rows(), 1 + X.cols());
  // STUB: features << Matrix::Ones(X.rows(), 1), X;
  // STUB: return features;
}

// BEGIN SOLUTION
std::int64_t taylor_state_bytes(std::int64_t d_head, std::int64_t d_v, std::int64_t n_heads,
                                std::int64_t bytes_per) {
  const std::int64_t d_phi = 1 + d_head + d_head * d_head;
  const std::int64_t numbers_per_head = d_phi * d_v + d_phi;  // S and z
  return n_heads * numbers_per_head * bytes_per;
}
// END SOLUTION
// STUB: std::int64_t taylor_state_bytes(std::int64_t /*d_head*/, std::int64_t /*d_v*/,
// STUB:                                 std::int64_t /*n_heads*/, std::int64_t /*bytes_per*/) {
// STUB:   throw NotImplemented("taylor_state_bytes");
// STUB: }

// BEGIN SOLUTION
std::int64_t kv_cache_tokens(std::int64_t state_bytes, std::int64_t n_kv, std::int64_t d_k,
                             std::int64_t bytes_per) {
  const std::int64_t bytes_per_token = 2 * n_kv * d_k * bytes_per;  // a key and a value per head
  // The smallest T with T * bytes_per_token >= state_bytes: a division rounded up (0 gives 0).
  return (state_bytes + bytes_per_token - 1) / bytes_per_token;
}
// END SOLUTION
// STUB: std::int64_t kv_cache_tokens(std::int64_t /*state_bytes*/, std::int64_t /*n_kv*/,
// STUB:                              std::int64_t /*d_k*/, std::int64_t /*bytes_per*/) {
// STUB:   throw NotImplemented("kv_cache_tokens");
// STUB: }

}  // namespace linattn
