// BEGIN SOLUTION
// Verified solution of exercise 8 (core): the matrix LSTM and decayed, normalized attention.
// The stub exercises/modern/modern.cpp is generated from this file (see tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 8 (core): forgetting, and a normalizer that cannot blow up. The hand-out is
// STUB: // README.md next to this file. Replace each `throw` with your code; modern.hpp belongs to
// STUB: // the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "modern.hpp"
// BEGIN SOLUTION

#include <algorithm>
#include <cmath>
// END SOLUTION

namespace linattn {

// BEGIN SOLUTION
Matrix mlstm(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f, const Vector& i) {
  const Eigen::Index T = Q.rows();
  const Eigen::Index d_k = K.cols();
  const Eigen::Index d_v = V.cols();

  // One cell and one normalizer, whatever T is.
  Matrix C = Matrix::Zero(d_v, d_k);  // (d_v, d_k)
  Vector n = Vector::Zero(d_k);       // (d_k)
  Matrix H(T, d_v);
  for (Eigen::Index t = 0; t < T; ++t) {
    const Vector q = Q.row(t).transpose(), k = K.row(t).transpose(), v = V.row(t).transpose();
    // The forget gate scales what is already there; the new pair comes in at weight i_t.
    C = f(t) * C + i(t) * v * k.transpose();
    n = f(t) * n + i(t) * k;
    // The absolute value keeps a negative n_t^T q_t from being floored to 1.
    const double denominator = std::max(std::abs(n.dot(q)), 1.0);
    H.row(t) = (C * q).transpose() / denominator;
  }
  return H;
}
// END SOLUTION
// STUB: Matrix mlstm(const Matrix& /*Q*/, const Matrix& /*K*/, const Matrix& /*V*/, const Vector& /*f*/,
// STUB:              const Vector& /*i*/) {
// STUB:   throw NotImplemented("mlstm");
// STUB: }

// BEGIN SOLUTION
Matrix decayed_normalized_attention(const Matrix& Q, const Matrix& K, const Matrix& V, double gamma,
                                    const Vector& gain, double eps) {
  // silu(x) = x sigma(x): the features of queries, keys and values alike.
  auto silu = [](const Matrix& X) {
    return X.unaryExpr([](double x) { return x / (1.0 + std::exp(-x)); });
  };
  const Matrix FQ = silu(Q);  // (T, d_k)
  const Matrix FK = silu(K);  // (T, d_k)
  const Matrix FV = silu(V);  // (T, d_v)
  const Eigen::Index T = Q.rows();
  const Eigen::Index d_v = V.cols();

  Matrix S = Matrix::Zero(K.cols(), d_v);  // (d_k, d_v)
  Matrix O(T, d_v);
  for (Eigen::Index t = 0; t < T; ++t) {
    // Decay the old state, then add token t at full weight.
    S = gamma * S + FK.row(t).transpose() * FV.row(t);
    const Vector y = S.transpose() * FQ.row(t).transpose();  // (d_v)
    // RMSNorm over this token's own d_v entries, eps inside the square root.
    const double rms = std::sqrt(y.squaredNorm() / static_cast<double>(d_v) + eps);
    O.row(t) = gain.cwiseProduct(y).transpose() / rms;
  }
  return O;
}
// END SOLUTION
// STUB: Matrix decayed_normalized_attention(const Matrix& /*Q*/, const Matrix& /*K*/, const Matrix& /*V*/,
// STUB:                                     double /*gamma*/, const Vector& /*gain*/, double /*eps*/) {
// STUB:   throw NotImplemented("decayed_normalized_attention");
// STUB: }

}  // namespace linattn
