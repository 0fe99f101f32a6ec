// Softmax attention, the baseline every linear form is compared against.
#include "linref/attention.hpp"

#include <cmath>
#include <stdexcept>

namespace linref {

Matrix softmax_weights(const Matrix& Q, const Matrix& K, bool causal) {
  if (Q.cols() != K.cols()) throw std::invalid_argument("softmax_weights: d_k differs");
  if (causal && Q.rows() != K.rows())
    throw std::invalid_argument("softmax_weights: causal needs as many queries as keys");
  const double temperature = 1.0 / std::sqrt(static_cast<double>(Q.cols()));
  Matrix W = (Q * K.transpose()) * temperature;  // (T_q, T_k) scores
  for (Eigen::Index t = 0; t < W.rows(); ++t) {
    // Query t may look at keys 0..last. Subtracting the largest visible score before exp
    // leaves the weights unchanged (the factor cancels) and keeps every exp() <= 1.
    const Eigen::Index visible = causal ? t + 1 : W.cols();
    auto row = W.row(t);
    const double largest = row.head(visible).maxCoeff();
    row.head(visible) = (row.head(visible).array() - largest).exp().matrix();
    row.head(visible) /= row.head(visible).sum();
    row.tail(W.cols() - visible).setZero();  // the causal mask
  }
  return W;
}

Matrix softmax_attention(const Matrix& Q, const Matrix& K, const Matrix& V, bool causal) {
  if (K.rows() != V.rows())
    throw std::invalid_argument("softmax_attention: K and V lengths differ");
  return softmax_weights(Q, K, causal) * V;  // (T_q, T_k) times (T_k, d_v)
}

}  // namespace linref
