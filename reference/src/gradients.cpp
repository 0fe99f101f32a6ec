// Hand-derived gradients of causal linear attention; the derivation is in gradients.hpp.
#include "linref/gradients.hpp"

#include <algorithm>
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

// The two-pass gradients work on chunks of this many tokens: large enough that the products
// per chunk run at matrix-multiplication speed, small enough that the masked in-chunk
// products (their cost grows with the chunk) stay a small part of the work.
constexpr Eigen::Index kGradientChunk = 64;

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
                                                    const Matrix& V, const Matrix& G, double eps) {
  check_shapes(FQ, FK, V, &G);
  const Matrix W = masked_kernel(FQ, FK);                                    // (T, T)
  const Vector den = W.rowwise().sum().array() + eps;                        // (T)
  const Matrix O = (W * V).array().colwise() / den.array();                  // (T, d_v)
  const Matrix U = G.array().colwise() / den.array();                        // dL/dN, (T, d_v)
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
                                                  const Matrix& V, const Matrix& G, double eps) {
  check_shapes(FQ, FK, V, &G);
  const Eigen::Index T = FQ.rows(), d_phi = FQ.cols(), d_v = V.cols();
  LinearAttentionGrads g;
  g.dQ.resize(T, d_phi);
  g.dK.resize(T, d_phi);
  g.dV.resize(T, d_v);
  Matrix U(T, d_v);  // u_t per token
  Vector w(T);       // w_t per token

  // Both passes go a chunk of tokens at a time, so that the sums over one chunk's tokens are
  // matrix products. Inside a chunk, with s <= t both in it:
  //   A_ts = a_t . b_s,   D_ts = u_t . v_s + w_t   (dL/dA_ts)
  // and, S, z, R, r being the running sums of the other chunks only,
  //   dFQ = U S^T + w z^T + D Kc,   dFK = Vc R^T + 1 r^T + D^T Qc,   dFV = Kc R + A^T U.
  const Eigen::Index C = std::max<Eigen::Index>(1, std::min(kGradientChunk, T));
  Matrix A = Matrix::Zero(C, C), D = Matrix::Zero(C, C);  // lower triangles only
  Matrix O(C, d_v);                                       // one chunk's outputs
  Vector den(C);

  // Forward in time: S, z over the earlier chunks give the outputs, u_t and w_t, all of dFQ,
  // and the parts of dFK and dFV that come from the chunk's own tokens.
  Matrix S = Matrix::Zero(d_phi, d_v);
  Vector z = Vector::Zero(d_phi);
  for (Eigen::Index start = 0; start < T; start += C) {
    const Eigen::Index c = std::min(C, T - start);
    const auto Qc = FQ.middleRows(start, c), Kc = FK.middleRows(start, c);
    const auto Vc = V.middleRows(start, c), Gc = G.middleRows(start, c);
    auto Uc = U.middleRows(start, c);
    auto wc = w.segment(start, c);
    auto Ac = A.topLeftCorner(c, c), Dc = D.topLeftCorner(c, c);
    auto Oc = O.topRows(c);
    auto dc = den.head(c);

    Ac.triangularView<Eigen::Lower>() = Qc * Kc.transpose();
    dc.noalias() = Qc * z;
    dc += Ac.rowwise().sum();  // the strictly upper triangle of Ac is zero
    dc.array() += eps;
    Oc.noalias() = Qc * S;
    Oc.noalias() += Ac.triangularView<Eigen::Lower>() * Vc;
    Oc.array().colwise() /= dc.array();
    Uc = Gc.array().colwise() / dc.array();
    wc = -(Gc.cwiseProduct(Oc).rowwise().sum().array() / dc.array()).matrix();

    Dc.triangularView<Eigen::Lower>() = Uc * Vc.transpose();
    Dc.triangularView<Eigen::Lower>() += wc * Eigen::RowVectorXd::Ones(c);
    auto dQc = g.dQ.middleRows(start, c);
    dQc.noalias() = Uc * S.transpose();
    dQc.noalias() += wc * z.transpose();
    dQc.noalias() += Dc.triangularView<Eigen::Lower>() * Kc;
    g.dK.middleRows(start, c).noalias() = Dc.triangularView<Eigen::Lower>().transpose() * Qc;
    g.dV.middleRows(start, c).noalias() = Ac.triangularView<Eigen::Lower>().transpose() * Uc;

    S.noalias() += Kc.transpose() * Vc;
    z += Kc.colwise().sum().transpose();
  }

  // Backward in time: R, r over the later chunks add the rest of dFK and dFV.
  Matrix R = Matrix::Zero(d_phi, d_v);
  Vector r = Vector::Zero(d_phi);
  for (Eigen::Index start = (T - 1) / C * C; start >= 0; start -= C) {  // last chunk first
    const Eigen::Index c = std::min(C, T - start);
    const auto Qc = FQ.middleRows(start, c), Kc = FK.middleRows(start, c);
    const auto Vc = V.middleRows(start, c);
    const auto Uc = U.middleRows(start, c);
    auto dKc = g.dK.middleRows(start, c);
    dKc.noalias() += Vc * R.transpose();
    dKc.rowwise() += r.transpose();
    g.dV.middleRows(start, c).noalias() += Kc * R;
    R.noalias() += Qc.transpose() * Uc;
    r.noalias() += Qc.transpose() * w.segment(start, c);
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
