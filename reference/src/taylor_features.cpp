// Polynomial feature maps whose dot products are exact polynomial kernels of s = q^T k.
#include "linref/costs.hpp"
#include "linref/feature_maps.hpp"

#include <cmath>
#include <type_traits>

namespace linref {

// feature_maps.hpp and costs.hpp both declare taylor_feature_count, one with Eigen::Index and
// one with std::int64_t. Where the two are the same type (every LP64 platform, this one
// included) they are one function, defined once in costs.cpp. Elsewhere they would be two
// overloads and the Eigen::Index one would lack a definition; fail loudly here instead.
static_assert(std::is_same<Eigen::Index, std::int64_t>::value,
              "taylor_feature_count is declared twice and must name a single function");

Matrix taylor_features(const Matrix& X) {
  const Eigen::Index n = X.rows();
  const Eigen::Index d = X.cols();
  const double inv_sqrt2 = 1.0 / std::sqrt(2.0);
  Matrix F(n, taylor_feature_count(d));  // (n, 1 + d + d^2)
  F.col(0).setOnes();                    // order 0: contributes 1 to every kernel value
  F.middleCols(1, d) = X;                // order 1: contributes s
  // Order 2: x_i x_j / sqrt(2) for every (i, j), i major. Two such blocks multiply to
  // sum_ij q_i q_j k_i k_j / 2 = s^2 / 2.
  for (Eigen::Index i = 0; i < d; ++i)
    for (Eigen::Index j = 0; j < d; ++j)
      F.col(1 + d + i * d + j) = X.col(i).cwiseProduct(X.col(j)) * inv_sqrt2;
  return F;
}

Matrix quadratic_features(const Matrix& X) {
  const Eigen::Index d = X.cols();
  const double sqrt2 = std::sqrt(2.0);
  Matrix F(X.rows(), d * (d + 1) / 2);  // (n, d (d + 1) / 2)
  // The pair (i, j) and (j, i) of vec(x x^T) hold the same number; merging them into one
  // feature scaled by sqrt(2) keeps the dot product at (q^T k)^2 with about half the width.
  Eigen::Index col = 0;
  for (Eigen::Index i = 0; i < d; ++i) {
    F.col(col++) = X.col(i).cwiseAbs2();
    for (Eigen::Index j = i + 1; j < d; ++j) F.col(col++) = X.col(i).cwiseProduct(X.col(j)) * sqrt2;
  }
  return F;
}

}  // namespace linref
