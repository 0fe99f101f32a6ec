// Non-causal kernel attention in both multiplication orders, and the normalized variant
// without a denominator.
#include "linref/attention.hpp"

#include <stdexcept>
#include <string>

namespace linref {

namespace {

void check_qkv(const Matrix& Q, const Matrix& K, const Matrix& V, const char* who) {
  if (Q.cols() != K.cols()) throw std::invalid_argument(std::string(who) + ": d_k differs");
  if (K.rows() != V.rows()) throw std::invalid_argument(std::string(who) + ": K, V lengths differ");
}

}  // namespace

Matrix kernel_attention_left(const Matrix& Q, const Matrix& K, const Matrix& V,
                             const FeatureMap& phi, double eps) {
  check_qkv(Q, K, V, "kernel_attention_left");
  // The quadratic order: every query against every key first.
  const Matrix A = phi(Q) * phi(K).transpose();                // (T_q, T_k) kernel values
  const Vector denominator = A.rowwise().sum().array() + eps;  // (T_q)
  Matrix O = A * V;                                            // (T_q, d_v)
  O.array().colwise() /= denominator.array();
  return O;
}

Matrix kernel_attention_right(const Matrix& Q, const Matrix& K, const Matrix& V,
                              const FeatureMap& phi, double eps) {
  check_qkv(Q, K, V, "kernel_attention_right");
  // The linear order: summarise keys and values once, then let each query read the summary.
  const Matrix FQ = phi(Q);                                 // (T_q, d_phi)
  const Matrix FK = phi(K);                                 // (T_k, d_phi)
  const Matrix summary = FK.transpose() * V;                // (d_phi, d_v)
  const Vector key_sum = FK.colwise().sum().transpose();    // (d_phi): phi(K)^T 1
  const Vector denominator = (FQ * key_sum).array() + eps;  // (T_q)
  Matrix O = FQ * summary;                                  // (T_q, d_v)
  O.array().colwise() /= denominator.array();
  return O;
}

Matrix normalized_linear_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                   const FeatureMap& phi, bool causal, double eps) {
  check_qkv(Q, K, V, "normalized_linear_attention");
  const Matrix FQ = phi(Q);  // (T_q, d_phi)
  const Matrix FK = phi(K);  // (T_k, d_phi)
  Matrix O;                  // (T_q, d_v), before normalization
  if (!causal) {
    O = FQ * (FK.transpose() * V);
  } else {
    if (Q.rows() != K.rows())
      throw std::invalid_argument("normalized_linear_attention: causal needs T_q == T_k");
    // The same running state as causal linear attention, read without any division.
    Matrix S = Matrix::Zero(FK.cols(), V.cols());  // S: (d_phi, d_v)
    O.resize(Q.rows(), V.cols());
    for (Eigen::Index t = 0; t < Q.rows(); ++t) {
      S.noalias() += FK.row(t).transpose() * V.row(t);
      O.row(t).noalias() = FQ.row(t) * S;
    }
  }
  // No denominator to keep the scale in check, so each output row is brought to unit root
  // mean square instead (an RMSNorm without learned gains).
  const Vector mean_square = O.rowwise().squaredNorm() / static_cast<double>(O.cols());  // (T_q)
  O.array().colwise() /= (mean_square.array() + eps).sqrt();
  return O;
}

}  // namespace linref
