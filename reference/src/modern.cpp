// The two modern layers as recurrences: one state carried over the tokens, as a model decodes.
// Like the causal recurrence, they work on transposed copies so that each token is one
// contiguous column; those copies are the size of the inputs, never T x T or T x d_k x d_v.
#include "linref/modern.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace linref {

namespace {

void check_sequence(const Matrix& Q, const Matrix& K, const Matrix& V, const char* who) {
  if (Q.cols() != K.cols())
    throw std::invalid_argument(std::string(who) + ": Q and K have different widths");
  if (Q.rows() != K.rows() || K.rows() != V.rows())
    throw std::invalid_argument(std::string(who) + ": Q, K and V must have T rows each");
}

}  // namespace

Matrix mlstm(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f, const Vector& i) {
  check_sequence(Q, K, V, "mlstm");
  const Eigen::Index T = Q.rows();
  if (f.size() != T || i.size() != T)
    throw std::invalid_argument("mlstm: f and i need one gate per token");
  const Matrix Qt = Q.transpose();  // (d_k, T)
  const Matrix Kt = K.transpose();  // (d_k, T)
  const Matrix Vt = V.transpose();  // (d_v, T)
  Matrix Ht(V.cols(), T);           // (d_v, T), transposed back at the end

  Matrix C = Matrix::Zero(V.cols(), K.cols());  // C: (d_v, d_k)
  Vector n = Vector::Zero(K.cols());            // n: (d_k)
  for (Eigen::Index t = 0; t < T; ++t) {
    // Forget first, then write: the gate f_t scales only what earlier tokens left.
    C *= f(t);
    C.noalias() += i(t) * Vt.col(t) * Kt.col(t).transpose();
    n = f(t) * n + i(t) * Kt.col(t);
    // The floor keeps the division away from zero whatever the sign of n_t^T q_t.
    const double denominator = std::max(std::abs(n.dot(Qt.col(t))), 1.0);
    Ht.col(t).noalias() = C * Qt.col(t);
    Ht.col(t) /= denominator;
  }
  return Ht.transpose();
}

Matrix silu(const Matrix& X) {
  return X.unaryExpr([](double x) { return x / (1.0 + std::exp(-x)); });
}

Matrix decayed_normalized_attention(const Matrix& Q, const Matrix& K, const Matrix& V, double gamma,
                                    const Vector& gain, double eps) {
  check_sequence(Q, K, V, "decayed_normalized_attention");
  if (gain.size() != V.cols())
    throw std::invalid_argument("decayed_normalized_attention: gain needs d_v entries");
  if (!(gamma > 0.0 && gamma <= 1.0))
    throw std::invalid_argument("decayed_normalized_attention: gamma must be in (0, 1]");
  const Eigen::Index T = Q.rows();
  const Matrix FQt = silu(Q).transpose();  // (d_k, T)
  const Matrix FKt = silu(K).transpose();  // (d_k, T)
  const Matrix FVt = silu(V).transpose();  // (d_v, T): the values get the map too
  Matrix Ot(V.cols(), T);                  // (d_v, T)

  Matrix S = Matrix::Zero(K.cols(), V.cols());  // S: (d_k, d_v)
  const double d_v = static_cast<double>(V.cols());
  for (Eigen::Index t = 0; t < T; ++t) {
    // Decay what is there, then add token t undecayed: its own weight is gamma^0 = 1.
    S *= gamma;
    S.noalias() += FKt.col(t) * FVt.col(t).transpose();
    const Vector y = S.transpose() * FQt.col(t);  // (d_v), no denominator
    // RMSNorm of this token's vector alone: the mean runs over its d_v entries.
    const double rms = std::sqrt(y.squaredNorm() / d_v + eps);
    Ot.col(t) = gain.cwiseProduct(y) / rms;
  }
  return Ot.transpose();
}

}  // namespace linref
