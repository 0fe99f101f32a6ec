// Random feature maps for the softmax kernel exp(q^T k), and the ways to draw Omega.
#include "linref/feature_maps.hpp"

#include <cmath>
#include <stdexcept>

namespace linref {

Matrix positive_random_features(const Matrix& X, const Matrix& Omega) {
  if (X.cols() != Omega.cols())
    throw std::invalid_argument("positive_random_features: X and Omega disagree on d_k");
  const Eigen::Index d_phi = Omega.rows();
  // Exponent of feature i for row x: w_i^T x - |x|^2 / 2. Subtracting before exponentiating
  // keeps a long x from producing inf * 0 where the product itself is representable.
  Matrix exponent = X * Omega.transpose();                      // (n, d_phi)
  const Vector half_sq_norm = 0.5 * X.rowwise().squaredNorm();  // (n)
  exponent.colwise() -= half_sq_norm;
  return exponent.array().exp().matrix() / std::sqrt(static_cast<double>(d_phi));
}

double softmax_kernel_estimate(const Vector& q, const Vector& k, const Matrix& Omega) {
  const Matrix phi_q = positive_random_features(q.transpose(), Omega);  // (1, d_phi)
  const Matrix phi_k = positive_random_features(k.transpose(), Omega);  // (1, d_phi)
  return phi_q.row(0).dot(phi_k.row(0));
}

Matrix trig_random_features(const Matrix& X, const Matrix& Omega) {
  if (X.cols() != Omega.cols())
    throw std::invalid_argument("trig_random_features: X and Omega disagree on d_k");
  const Matrix projection = X * Omega.transpose();  // (n, d_phi)
  Matrix features(X.rows(), 2 * Omega.rows());      // (n, 2 d_phi): sin block, then cos block
  features << projection.array().sin().matrix(), projection.array().cos().matrix();
  return features;
}

Matrix gaussian_omega(Eigen::Index d_phi, Eigen::Index d_k, Rng& rng) {
  return rng.normal_matrix(d_phi, d_k);
}

namespace {

// A d x d orthogonal matrix drawn from the uniform (Haar) distribution. Householder QR of a
// Gaussian matrix gives an orthogonal Q, but its column signs follow the algorithm's sign
// convention rather than chance; multiplying column i by sign(R_ii) makes Q exactly Haar.
Matrix haar_orthogonal(Eigen::Index d, Rng& rng) {
  const Matrix G = rng.normal_matrix(d, d);
  const Eigen::HouseholderQR<Matrix> qr(G);
  Matrix Q = qr.householderQ();     // (d, d)
  const Matrix& R = qr.matrixQR();  // R sits on and above the diagonal
  for (Eigen::Index i = 0; i < d; ++i)
    if (R(i, i) < 0.0) Q.col(i) = -Q.col(i);
  return Q;
}

}  // namespace

Matrix orthogonal_omega(Eigen::Index d_phi, Eigen::Index d_k, Rng& rng) {
  Matrix Omega(d_phi, d_k);  // (d_phi, d_k)
  for (Eigen::Index first = 0; first < d_phi; first += d_k) {
    const Eigen::Index rows = std::min(d_k, d_phi - first);  // the last block may be cut short
    const Matrix block = haar_orthogonal(d_k, rng);          // rows: orthonormal directions
    for (Eigen::Index r = 0; r < rows; ++r) {
      // A Gaussian vector is a uniform direction times an independent chi(d_k) length; giving
      // each orthonormal row such a length makes every single row N(0, I) again, which is what
      // keeps the kernel estimate unbiased.
      Omega.row(first + r) = block.row(r) * rng.chi(static_cast<int>(d_k));
    }
  }
  return Omega;
}

}  // namespace linref
