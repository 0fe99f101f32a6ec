// The backward solution: the hand-derived gradients on the seed's three tokens, central
// differences of a forward pass written here as a double sum, and the reference's gradients on
// several shapes.
#include "backward.hpp"
#include "helpers.hpp"

#include <linref/gradients.hpp>

#include <tuple>

using extest::Matrix;
using extest::Vector;

namespace {

// sum_t dO_t . o_t with o_t from the definition (no state, no library code).
double loss(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps) {
  double L = 0.0;
  for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
    double den = eps;
    Vector num = Vector::Zero(V.cols());
    for (Eigen::Index s = 0; s <= t; ++s) {
      const double k = FQ.row(t).dot(FK.row(s));
      den += k;
      num += k * V.row(s).transpose();
    }
    L += dO.row(t).dot(num) / den;
  }
  return L;
}

// Central differences with h = 1e-5 in entry `i` of argument `which` (0: FQ, 1: FK, 2: V).
Matrix central(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO, double eps,
               int which) {
  Matrix args[3] = {FQ, FK, V};
  Matrix D(args[which].rows(), args[which].cols());
  for (Eigen::Index i = 0; i < D.size(); ++i) {
    const double keep = args[which](i);
    args[which](i) = keep + 1e-5;
    const double up = loss(args[0], args[1], args[2], dO, eps);
    args[which](i) = keep - 1e-5;
    const double down = loss(args[0], args[1], args[2], dO, eps);
    args[which](i) = keep;
    D(i) = (up - down) / 2e-5;
  }
  return D;
}

Matrix positive(linref::Rng& rng, Eigen::Index T, Eigen::Index d) {
  return (rng.normal_matrix(T, d).array().abs() + 0.2).matrix();
}

}  // namespace

TEST_CASE("solutions/backward: the hand-out's three tokens, dO rows (1, 0), eps = 0") {
  Matrix FQ(3, 2), FK(3, 2), V(3, 2), dO(3, 2), dFQ(3, 2), dFK(3, 2), dV(3, 2);
  FQ << 1, 1, 2, 1, 1, 2;
  FK << 2, 1, 1, 2, 1, 1;
  V << 1, 0, 0, 1, 1, 1;
  dO << 1, 0, 1, 0, 1, 0;
  // Derived by hand in the hand-out (and in tests/reference/test_gradients.cpp).
  dFQ << 0, 0, 1.0 / 27, -2.0 / 27, 1.0 / 18, -1.0 / 36;
  dFK << 173.0 / 1296, 154.0 / 1296, -223.0 / 1296, -206.0 / 1296, 5.0 / 144, 10.0 / 144;
  dV << 17.0 / 9, 0, 31.0 / 36, 0, 1.0 / 4, 0;
  const linattn::AttentionGrads g = linattn::causal_linear_attention_backward(FQ, FK, V, dO, 0.0);
  EX_CHECK_CLOSE(g.dFQ, dFQ, 1e-15);
  EX_CHECK_CLOSE(g.dFK, dFK, 1e-15);
  EX_CHECK_CLOSE(g.dV, dV, 1e-15);
}

TEST_CASE(
    "solutions/backward: central differences of the definition, and the reference, on several "
    "shapes") {
  linref::Rng rng(707);
  for (auto [T, d_phi, d_v] : {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index>{1, 3, 2},
                               {5, 2, 4},
                               {8, 4, 3},
                               {10, 3, 3}}) {
    const Matrix FQ = positive(rng, T, d_phi), FK = positive(rng, T, d_phi);
    const Matrix V = rng.normal_matrix(T, d_v), dO = rng.normal_matrix(T, d_v);
    const Matrix FQ0 = FQ, FK0 = FK, V0 = V, dO0 = dO;
    for (double eps : {0.0, 1e-6, 4.0}) {
      CAPTURE(T);
      CAPTURE(eps);
      const linattn::AttentionGrads g =
          linattn::causal_linear_attention_backward(FQ, FK, V, dO, eps);
      EX_CHECK_CLOSE(g.dFQ, central(FQ, FK, V, dO, eps, 0), 1e-7);
      EX_CHECK_CLOSE(g.dFK, central(FQ, FK, V, dO, eps, 1), 1e-7);
      EX_CHECK_CLOSE(g.dV, central(FQ, FK, V, dO, eps, 2), 1e-7);
      const linref::LinearAttentionGrads ref =
          linref::causal_grad_quadratic_features(FQ, FK, V, dO, eps);
      EX_CHECK_CLOSE(g.dFQ, ref.dQ, 1e-12);
      EX_CHECK_CLOSE(g.dFK, ref.dK, 1e-12);
      EX_CHECK_CLOSE(g.dV, ref.dV, 1e-12);
    }
    CHECK(FQ == FQ0);
    CHECK(FK == FK0);
    CHECK(V == V0);
    CHECK(dO == dO0);
  }
}
