// The runner's feature maps; every one maps (n, d_k) to (n, d_phi) row by row.
#include "feature_maps.hpp"

#include "../common/wire.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace runner {

namespace {

using linattn::Matrix;

// elu(x) + 1: x + 1 where x >= 0, e^x below. Positive everywhere.
Matrix elu_plus_one(const Matrix& X) {
  return X.unaryExpr([](double x) { return x >= 0.0 ? x + 1.0 : std::exp(x); });
}

Matrix relu(const Matrix& X) { return X.cwiseMax(0.0); }

// (1, x, x_i x_j / sqrt(2) for i, then j): (n, 1 + d + d^2), so phi(q).phi(k) = 1 + s + s^2/2.
Matrix taylor(const Matrix& X) {
  const Eigen::Index n = X.rows(), d = X.cols();
  const double scale = 1.0 / std::sqrt(2.0);
  Matrix F(n, 1 + d + d * d);
  F.col(0).setOnes();
  F.middleCols(1, d) = X;
  for (Eigen::Index i = 0; i < d; ++i)
    for (Eigen::Index j = 0; j < d; ++j)
      F.col(1 + d + i * d + j) = X.col(i).cwiseProduct(X.col(j)) * scale;
  return F;
}

// exp(w_i.x - |x|^2/2) / sqrt(d_phi) for each row w_i of Omega: (n, d_phi). The subtraction
// comes before exp so that a long x does not turn into inf * 0.
Matrix positive_random(const Matrix& X, const Matrix& Omega) {
  if (X.cols() != Omega.cols())
    throw std::invalid_argument("positive_random feature map: X has " + std::to_string(X.cols()) +
                                " columns, Omega " + std::to_string(Omega.cols()));
  Matrix exponent = X * Omega.transpose();
  exponent.colwise() -= 0.5 * X.rowwise().squaredNorm();
  return exponent.array().exp().matrix() / std::sqrt(static_cast<double>(Omega.rows()));
}

}  // namespace

linattn::FeatureMap feature_map_from_spec(const nlohmann::json& spec) {
  const std::string name = spec.at("name").get<std::string>();
  if (name == "elu_plus_one") return elu_plus_one;
  if (name == "relu") return relu;
  if (name == "identity") return [](const Matrix& X) { return X; };
  if (name == "taylor") return taylor;
  if (name == "positive_random") {
    Matrix Omega = wire::to_matrix(spec.at("Omega"));
    return [Omega](const Matrix& X) { return positive_random(X, Omega); };
  }
  throw std::invalid_argument("unknown feature map \"" + name + "\" in the request");
}

}  // namespace runner
