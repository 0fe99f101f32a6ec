// Hand-derived gradients of causal linear attention; the derivation is in gradients.hpp.
#include "linref/gradients.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace linref {

namespace {

void check_shapes(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix* G) {
  if (FQ.rows() != FK.rows() || FQ.rows() != V.rows() || FQ.cols() != FK.cols())
    throw std::invalid_argument("linref gradients: FQ, FK (T, d_phi) and V (T, d_v) disagree");
  if (G && (G->rows() != V.rows() || G->cols() != V.cols()))
    throw std::invalid_argument("linref gradients: G must have the shape of O, (T, d_v)");
}

// elu(x) + 1, kept local so this file depends on nothing else in the library.
Matrix elu1(const Matrix& X) {
  return X.unaryExpr([](double x) { return x > 0.0 ? x + 1.0 : std::exp(x); });
}

// The masked kernel matrix W = (FQ FK^T) .* L: (T, T).
Matrix masked_kernel(const Matrix& FQ, const Matrix& FK) {
  Matrix W = FQ * FK.transpose();
  W.triangularView<Eigen::StrictlyUpper>().setZero();
  return W;
}

}  // namespace

Matrix causal_cumsum_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                   double eps) {
  check_shapes(FQ, FK, V, nullptr);
  const Eigen::Index T = FQ.rows();
  // Every state, as the cumulative sum of the outer products b_t v_t^T: T of (d_phi, d_v).
  std::vector<Matrix> states(static_cast<std::size_t>(T));
  Matrix Z(T, FK.cols());  // cumulative sums of the key features, (T, d_phi)
  for (Eigen::Index t = 0; t < T; ++t) {
    Matrix outer = FK.row(t).transpose() * V.row(t);
    states[static_cast<std::size_t>(t)] =
        t == 0 ? outer : Matrix(states[static_cast<std::size_t>(t - 1)] + outer);
    Z.row(t) = t == 0 ? Matrix(FK.row(t)) : Matrix(Z.row(t - 1) + FK.row(t));
  }
  Matrix O(T, V.cols());
  for (Eigen::Index t = 0; t < T; ++t) {
    const double den = Z.row(t).dot(FQ.row(t)) + eps;
    O.row(t) = FQ.row(t) * states[static_cast<std::size_t>(t)] / den;
  }
  return O;
}

LinearAttentionGrads causal_grad_quadratic_features(const Matrix& FQ, const Matrix& FK,
                                                    const Matrix& V, const Matrix& G,
                                                    double eps) {
  check_shapes(FQ, FK, V, &G);
  const Matrix W = masked_kernel(FQ, FK);                 // (T, T)
  const Vector den = W.rowwise().sum().array() + eps;     // (T)
  const Matrix O = (W * V).array().colwise() / den.array();  // (T, d_v)
  const Matrix U = G.array().colwise() / den.array();     // dL/dN, (T, d_v)
  const Vector w = -(G.cwiseProduct(O).rowwise().sum()).cwiseQuotient(den);  // dL/dden, (T)
  // dL/dW = U V^T + w 1^T, then only the entries the mask keeps reach FQ FK^T.
  Matrix dW = U * V.transpose();
  dW.colwise() += w;
  dW.triangularView<Eigen::StrictlyUpper>().setZero();
  LinearAttentionGrads g;
  g.dQ = dW * FK;              // (T, d_phi)
  g.dK = dW.transpose() * FQ;  // (T, d_phi)
  g.dV = W.transpose() * U;    // (T, d_v)
  return g;
}

LinearAttentionGrads causal_grad_running_features(const Matrix& FQ, const Matrix& FK,
                                                  const Matrix& V, const Matrix& G,
                                                  double eps) {
  check_shapes(FQ, FK, V, &G);
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = V.cols();
  LinearAttentionGrads g;
  g.dQ.resize(T, d_phi);
  g.dK.resize(T, d_phi);
  g.dV.resize(T, d_v);
  Matrix U(T, d_v);  // u_t per token
  Vector w(T);       // w_t per token

  // Forward in time: the running state gives the output, and with it the query gradient.
  Matrix S = Matrix::Zero(d_phi, d_v);  // S_t
  Vector z = Vector::Zero(d_phi);       // z_t
  for (Eigen::Index t = 0; t < T; ++t) {
    const Vector a = FQ.row(t).transpose();
    S.noalias() += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    const double den = z.dot(a) + eps;
    const Vector o = S.transpose() * a / den;
    const Vector u = G.row(t).transpose() / den;
    const double wt = -G.row(t).dot(o) / den;
    U.row(t) = u.transpose();
    w(t) = wt;
    g.dQ.row(t) = (S * u + wt * z).transpose();
  }

  // Backward in time: the running sums over the future give the key and value gradients.
  Matrix R = Matrix::Zero(d_phi, d_v);  // R_s = sum_{t>=s} a_t u_t^T
  Vector r = Vector::Zero(d_phi);       // r_s = sum_{t>=s} w_t a_t
  for (Eigen::Index s = T - 1; s >= 0; --s) {
    R.noalias() += FQ.row(s).transpose() * U.row(s);
    r += w(s) * FQ.row(s).transpose();
    g.dK.row(s) = (R * V.row(s).transpose() + r).transpose();
    g.dV.row(s) = (R.transpose() * FK.row(s).transpose()).transpose();
  }
  return g;
}

Matrix elu_plus_one_derivative(const Matrix& X) {
  return X.unaryExpr([](double x) { return x > 0.0 ? 1.0 : std::exp(x); });
}

LinearAttentionGrads causal_elu_grad_running(const Matrix& Q, const Matrix& K, const Matrix& V,
                                             const Matrix& G, double eps) {
  LinearAttentionGrads g = causal_grad_running_features(elu1(Q), elu1(K), V, G, eps);
  g.dQ = g.dQ.cwiseProduct(elu_plus_one_derivative(Q));
  g.dK = g.dK.cwiseProduct(elu_plus_one_derivative(K));
  return g;
}

LinearAttentionGrads causal_elu_grad_quadratic(const Matrix& Q, const Matrix& K, const Matrix& V,
                                               const Matrix& G, double eps) {
  LinearAttentionGrads g = causal_grad_quadratic_features(elu1(Q), elu1(K), V, G, eps);
  g.dQ = g.dQ.cwiseProduct(elu_plus_one_derivative(Q));
  g.dK = g.dK.cwiseProduct(elu_plus_one_derivative(K));
  return g;
}

double causal_elu_loss(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& G,
                       double eps) {
  const Matrix FQ = elu1(Q), FK = elu1(K);
  check_shapes(FQ, FK, V, &G);
  Matrix S = Matrix::Zero(FK.cols(), V.cols());
  Vector z = Vector::Zero(FK.cols());
  double loss = 0.0;
  for (Eigen::Index t = 0; t < Q.rows(); ++t) {
    S.noalias() += FK.row(t).transpose() * V.row(t);
    z += FK.row(t).transpose();
    const double den = z.dot(FQ.row(t)) + eps;
    loss += (FQ.row(t) * S).dot(G.row(t)) / den;
  }
  return loss;
}

}  // namespace linref
