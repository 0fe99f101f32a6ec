// The gradients the grader takes as expected for exercise 7 (`backward`): the two-pass running
// sums (causal_grad_running_features) against three independent oracles: numbers derived by
// hand on the seed's three tokens, the masked quadratic form's gradients, and central
// differences of a forward pass written here as the plain double sum of the definition.
// The loss is L = sum(O .* dO), so dL/dO = dO, and O uses the contract's eps placement,
// o_t = sum_{s<=t} k_ts v_s / (sum_{s<=t} k_ts + eps).
#include "linref/gradients.hpp"
#include "linref/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

// The loss of the definition, no state and no library code: sum_t dO_t . o_t.
double loss(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps) {
  double L = 0.0;
  for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
    double den = eps;
    Vector num = Vector::Zero(V.cols());  // (d_v)
    for (Eigen::Index s = 0; s <= t; ++s) {
      const double k = FQ.row(t).dot(FK.row(s));
      den += k;
      num += k * V.row(s).transpose();
    }
    L += dO.row(t).dot(num) / den;
  }
  return L;
}

// dL/dX by central differences, entry by entry; `which` picks the argument moved.
Matrix central(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps,
               int which, double h) {
  Matrix args[3] = {FQ, FK, V};
  Matrix& X = args[which];
  Matrix D(X.rows(), X.cols());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double keep = X(i, j);
      X(i, j) = keep + h;
      const double up = loss(args[0], args[1], args[2], dO, eps);
      X(i, j) = keep - h;
      const double down = loss(args[0], args[1], args[2], dO, eps);
      X(i, j) = keep;
      D(i, j) = (up - down) / (2 * h);
    }
  return D;
}

// Largest |a - b| / max(1, |b|).
double rel(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  double worst = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a(i) - b(i)) / std::max(1.0, std::abs(b(i))));
  return worst;
}

Matrix positive(linref::Rng& rng, Eigen::Index T, Eigen::Index d) {
  return (rng.normal_matrix(T, d).array().abs() + 0.2).matrix();
}

}  // namespace

TEST_CASE("gradients: the seed's three tokens, dO rows (1, 0), eps = 0, derived by hand") {
  // a_t = phi(q_t), b_s = phi(k_s); the loss is the sum of the outputs' first coordinates.
  // dFQ_t = N'/D - N D'/D^2 for o_t1 = N/D: token 2: (2, 1)/9 - 5 (3, 3)/81 = (1/27, -2/27);
  // token 3: (3, 2)/12 - 7 (4, 4)/144 = (1/18, -1/36); token 1's output is v_1 whatever a_1 is.
  // dFK_s sums over t >= s: b_3 only reaches o_3, a_3 (1/12 - 7/144) = (5/144, 10/144);
  // b_2 reaches o_2 and o_3 only through their denominators (v_2 has first coordinate 0):
  // -5 a_2/81 - 7 a_3/144 = (-223/1296, -206/1296); b_1: 0 + (8/81, 4/81) + (5/144, 10/144)
  // = (173/1296, 154/1296). dV_s = sum_{t>=s} k_ts / D_t in the first column:
  // v_1: 3/3 + 5/9 + 4/12 = 17/9, v_2: 4/9 + 5/12 = 31/36, v_3: 3/12 = 1/4.
  const Matrix FQ = rows({{1, 1}, {2, 1}, {1, 2}});
  const Matrix FK = rows({{2, 1}, {1, 2}, {1, 1}});
  const Matrix V = rows({{1, 0}, {0, 1}, {1, 1}});
  const Matrix dO = rows({{1, 0}, {1, 0}, {1, 0}});
  const Matrix dFQ = rows({{0, 0}, {1.0 / 27, -2.0 / 27}, {1.0 / 18, -1.0 / 36}});
  const Matrix dFK =
      rows({{173.0 / 1296, 154.0 / 1296}, {-223.0 / 1296, -206.0 / 1296}, {5.0 / 144, 10.0 / 144}});
  const Matrix dV = rows({{17.0 / 9, 0}, {31.0 / 36, 0}, {1.0 / 4, 0}});
  const auto running = linref::causal_grad_running_features(FQ, FK, V, dO, 0.0);
  CHECK(max_abs_diff(running.dQ, dFQ) < 1e-15);
  CHECK(max_abs_diff(running.dK, dFK) < 1e-15);
  CHECK(max_abs_diff(running.dV, dV) < 1e-15);
  const auto quadratic = linref::causal_grad_quadratic_features(FQ, FK, V, dO, 0.0);
  CHECK(max_abs_diff(quadratic.dQ, dFQ) < 1e-15);
  CHECK(max_abs_diff(quadratic.dK, dFK) < 1e-15);
  CHECK(max_abs_diff(quadratic.dV, dV) < 1e-15);
}

TEST_CASE("gradients: one token with eps = 0 gives o = v, so dFQ = dFK = 0 and dV = dO") {
  const Matrix FQ = rows({{0.5, 2.0, 1.0}}), FK = rows({{1.5, 0.25, 3.0}});
  const Matrix V = rows({{2.0, -1.0}}), dO = rows({{0.75, -3.0}});
  const auto g = linref::causal_grad_running_features(FQ, FK, V, dO, 0.0);
  CHECK(g.dQ.cwiseAbs().maxCoeff() < 1e-15);
  CHECK(g.dK.cwiseAbs().maxCoeff() < 1e-15);
  CHECK(max_abs_diff(g.dV, dO) < 1e-15);
}

TEST_CASE("gradients: running sums == quadratic form == central differences, eps 0, 1e-6, 5") {
  linref::Rng rng(701);
  for (auto [T, d_phi, d_v] : {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index>{1, 2, 3},
                               {2, 3, 1},
                               {6, 4, 2},
                               {9, 2, 5},
                               {11, 5, 5}}) {
    const Matrix FQ = positive(rng, T, d_phi), FK = positive(rng, T, d_phi);
    const Matrix V = rng.normal_matrix(T, d_v), dO = rng.normal_matrix(T, d_v);
    for (double eps : {0.0, 1e-6, 5.0}) {
      CAPTURE(T);
      CAPTURE(d_phi);
      CAPTURE(d_v);
      CAPTURE(eps);
      const auto run = linref::causal_grad_running_features(FQ, FK, V, dO, eps);
      const auto quad = linref::causal_grad_quadratic_features(FQ, FK, V, dO, eps);
      REQUIRE(run.dQ.rows() == T);
      REQUIRE(run.dQ.cols() == d_phi);
      REQUIRE(run.dK.rows() == T);
      REQUIRE(run.dK.cols() == d_phi);
      REQUIRE(run.dV.rows() == T);
      REQUIRE(run.dV.cols() == d_v);
      CHECK(rel(run.dQ, quad.dQ) < 1e-12);
      CHECK(rel(run.dK, quad.dK) < 1e-12);
      CHECK(rel(run.dV, quad.dV) < 1e-12);
      // h = 1e-5: truncation ~h^2 and rounding ~1e-16/h, both far below 1e-7.
      CHECK(rel(run.dQ, central(FQ, FK, V, dO, eps, 0, 1e-5)) < 1e-7);
      CHECK(rel(run.dK, central(FQ, FK, V, dO, eps, 1, 1e-5)) < 1e-7);
      CHECK(rel(run.dV, central(FQ, FK, V, dO, eps, 2, 1e-5)) < 1e-7);
    }
  }
}

TEST_CASE("gradients: constant values make O independent of the features, eps = 0") {
  // Every o_t is then the common value c, so dL/dFQ = dL/dFK = 0; dV_s = sum_{t>=s} p_ts dO_t.
  linref::Rng rng(702);
  const Matrix FQ = positive(rng, 7, 3), FK = positive(rng, 7, 3);
  Matrix V(7, 2);
  V.rowwise() = rows({{0.3, -1.2}}).row(0);
  const Matrix dO = rng.normal_matrix(7, 2);
  const auto g = linref::causal_grad_running_features(FQ, FK, V, dO, 0.0);
  CHECK(g.dQ.cwiseAbs().maxCoeff() < 1e-13);
  CHECK(g.dK.cwiseAbs().maxCoeff() < 1e-13);
  // The weights p_ts of each row t add up to one, so the rows of dV add up to those of dO.
  CHECK((g.dV.colwise().sum() - dO.colwise().sum()).cwiseAbs().maxCoeff() < 1e-13);
}
