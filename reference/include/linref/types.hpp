// Basic types of the reference library (the grader's oracle). Its own namespace, `linref`,
// so nothing here can be confused with, or linked into, a student's `linattn` code.
#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <functional>

namespace linref {

using Matrix = Eigen::MatrixXd;  // one row per token / key / query / sample
using Vector = Eigen::VectorXd;
using FeatureMap = std::function<Matrix(const Matrix&)>;  // (n, d_k) -> (n, d_phi), row by row

}  // namespace linref
