// The matrix state read as an associative memory: identity feature map, no denominator,
// unit-length keys, so that a stored value comes back with weight exactly |k_hat|^2 = 1.
#include "linref/memory.hpp"

namespace linref {

Matrix normalize_rows(const Matrix& X) { return X.rowwise().normalized(); }

Matrix memory_write(const Matrix& K, const Matrix& V) {
  // sum_s k_hat_s v_s^T is one matrix product: (d_k, n) times (n, d_v).
  return normalize_rows(K).transpose() * V;  // S: (d_k, d_v)
}

Vector memory_read(const Matrix& S, const Vector& q) {
  // S^T q_hat = sum_s (k_hat_s . q_hat) v_s: each stored value weighted by key similarity.
  return S.transpose() * q.normalized();  // (d_v)
}

double crosstalk_energy(const Matrix& K) {
  const Eigen::Index n = K.rows();
  if (n < 2) return 0.0;  // a lone key has nothing to interfere with
  const Matrix Khat = normalize_rows(K);
  const Matrix G = Khat * Khat.transpose();  // (n, n) Gram matrix, ones on the diagonal
  // Sum of squared off-diagonal cosines; subtracting the diagonal's own squares removes s = j.
  const double off_diagonal = G.squaredNorm() - G.diagonal().squaredNorm();
  return off_diagonal / static_cast<double>(n);
}

double retrieval_cosine(const Matrix& K, const Matrix& V) {
  const Matrix S = memory_write(K, V);  // (d_k, d_v)
  double total = 0.0;
  for (Eigen::Index j = 0; j < K.rows(); ++j) {
    const Vector got = memory_read(S, K.row(j).transpose());
    const Vector want = V.row(j).transpose();
    total += got.dot(want) / (got.norm() * want.norm());
  }
  return total / static_cast<double>(K.rows());
}

}  // namespace linref
