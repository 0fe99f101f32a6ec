// Types shared by every exercise. Owned by the kit: a submission never ships its own copy.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <stdexcept>
#include <string>

namespace linattn {

using Matrix = Eigen::MatrixXd;  // one row per token (or key, query, sample)
using Vector = Eigen::VectorXd;

// A feature map phi applied row by row: (n, d_k) -> (n, d_phi).
// For a single vector x, call it on a one-row matrix: phi(x.transpose()).
using FeatureMap = std::function<Matrix(const Matrix&)>;

// Thrown by every function that has not been written yet. The grader reports such a check
// as `not_implemented` rather than as an error.
class NotImplemented : public std::logic_error {
 public:
  explicit NotImplemented(const std::string& function)
      : std::logic_error(function + " is not implemented yet") {}
};

}  // namespace linattn
