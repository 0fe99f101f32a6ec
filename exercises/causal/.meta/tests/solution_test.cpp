// The causal solution: the seed's three-token example, the two forms against each other and
// against the reference on several shapes, and the decode step.
#include "causal.hpp"
#include "helpers.hpp"

#include <vector>

using extest::Matrix;
using extest::Vector;

namespace {

struct HandExample {
  Matrix Q{3, 2}, K{3, 2}, V{3, 2}, O{3, 2};
  HandExample() {
    Q << 0, 0, 1, 0, 0, 1;
    K << 1, 0, 0, 1, 0, 0;
    V << 1, 0, 0, 1, 1, 1;
    O << 1, 0, 5.0 / 9, 4.0 / 9, 7.0 / 12, 2.0 / 3;  // the seed's hand computation
  }
};

struct Shape {
  Eigen::Index T, d_k, d_v;
  const char* map;  // "elu": d_phi = d_k; "taylor": 1 + d_k + d_k^2; "prf": 2 d_k + 1
};

// The feature map named by `map`, the same function for the solution and the reference.
extest::FeatureMap make_map(const std::string& map, Eigen::Index d_k, linref::Rng& rng) {
  if (map == "elu") return linref::elu_plus_one;
  if (map == "taylor") return linref::taylor_features;
  const Matrix Omega = rng.normal_matrix(2 * d_k + 1, d_k);
  return [Omega](const Matrix& X) { return linref::positive_random_features(X, Omega); };
}

const std::vector<Shape> kShapes{
    {1, 3, 2, "elu"},                       // T = 1
    {6, 3, 5, "elu"},                       // d_phi = 3 != d_v = 5
    {9, 4, 2, "elu"},                       // d_phi = 4 != d_v = 2, d_k != d_v
    {7, 2, 3, "taylor"},                    // d_phi = 7
    {12, 3, 3, "prf"},                      // d_phi = 7 != d_k = d_v = 3
    {40, 8, 16, "elu"},  {1, 5, 1, "prf"},  // T = 1, d_v = 1
};

}  // namespace

TEST_CASE("solutions/causal: the seed's three-token example, eps = 0") {
  const HandExample h;
  EX_CHECK_CLOSE(
      linattn::causal_linear_attention_recurrent(h.Q, h.K, h.V, extest::elu_plus_one, 0.0), h.O,
      1e-14);
  EX_CHECK_CLOSE(
      linattn::causal_linear_attention_parallel(h.Q, h.K, h.V, extest::elu_plus_one, 0.0), h.O,
      1e-14);
}

TEST_CASE("solutions/causal: eps is added to the denominator as written") {
  // Token 1 of the hand example: numerator (3, 0), denominator 3 + eps.
  const HandExample h;
  const double eps = 0.5;
  Matrix O(3, 2);
  O << 3 / 3.5, 0, 5 / 9.5, 4 / 9.5, 7 / 12.5, 8 / 12.5;
  EX_CHECK_CLOSE(
      linattn::causal_linear_attention_recurrent(h.Q, h.K, h.V, extest::elu_plus_one, eps), O,
      1e-14);
  EX_CHECK_CLOSE(
      linattn::causal_linear_attention_parallel(h.Q, h.K, h.V, extest::elu_plus_one, eps), O,
      1e-14);
}

TEST_CASE("solutions/causal: the decode step reproduces the hand example") {
  const HandExample h;
  Matrix S = Matrix::Zero(2, 2);
  Vector z = Vector::Zero(2);
  for (int t = 0; t < 3; ++t) {
    const Vector q = h.Q.row(t).transpose(), k = h.K.row(t).transpose(), v = h.V.row(t).transpose();
    const Matrix S_before = S;
    const Vector z_before = z, q_before = q, k_before = k, v_before = v;
    const linattn::DecodeStep step =
        linattn::linear_attention_step(S, z, q, k, v, extest::elu_plus_one, 0.0);
    // Nothing the step was given has changed.
    CHECK(S == S_before);
    CHECK(z == z_before);
    CHECK(q == q_before);
    CHECK(k == k_before);
    CHECK(v == v_before);
    EX_CHECK_CLOSE(step.o.transpose(), h.O.row(t), 1e-14);
    S = step.S;
    z = step.z;
  }
  Matrix S3(2, 2);
  S3 << 3, 2, 2, 3;
  EX_CHECK_CLOSE(S, S3, 0.0);
  EX_CHECK_CLOSE(z.transpose(), Matrix::Constant(1, 2, 4.0), 0.0);
}

TEST_CASE("solutions/causal: recurrent and parallel agree with the reference on several shapes") {
  linref::Rng rng(2024);
  for (const Shape& s : kShapes) {
    CAPTURE(s.T);
    CAPTURE(s.d_k);
    CAPTURE(s.d_v);
    CAPTURE(std::string(s.map));
    const Matrix Q = rng.normal_matrix(s.T, s.d_k), K = rng.normal_matrix(s.T, s.d_k);
    const Matrix V = rng.normal_matrix(s.T, s.d_v);
    const extest::FeatureMap phi = make_map(s.map, s.d_k, rng);
    const Matrix Q0 = Q, K0 = K, V0 = V;
    for (double eps : {1e-6, 0.0, 0.25}) {
      const Matrix want = linref::causal_linear_attention_recurrent(Q, K, V, phi, eps);
      EX_CHECK_CLOSE(linattn::causal_linear_attention_recurrent(Q, K, V, phi, eps), want, 1e-10);
      EX_CHECK_CLOSE(linattn::causal_linear_attention_parallel(Q, K, V, phi, eps), want, 1e-10);
      EX_CHECK_CLOSE(linattn::causal_linear_attention_parallel(Q, K, V, phi, eps),
                     linref::causal_linear_attention_parallel(Q, K, V, phi, eps), 1e-10);
    }
    CHECK(Q == Q0);
    CHECK(K == K0);
    CHECK(V == V0);
  }
}

TEST_CASE("solutions/causal: the default eps is 1e-6") {
  const HandExample h;
  Matrix O(3, 2);
  O << 3 / (3 + 1e-6), 0, 5 / (9 + 1e-6), 4 / (9 + 1e-6), 7 / (12 + 1e-6), 8 / (12 + 1e-6);
  EX_CHECK_CLOSE(linattn::causal_linear_attention_recurrent(h.Q, h.K, h.V, extest::elu_plus_one), O,
                 1e-15);
  EX_CHECK_CLOSE(linattn::causal_linear_attention_parallel(h.Q, h.K, h.V, extest::elu_plus_one), O,
                 1e-15);
}

TEST_CASE("solutions/causal: constant values give constant outputs") {
  // With every v_t equal, each output is a weighted average of equal vectors (eps = 0).
  linref::Rng rng(5);
  const Matrix Q = rng.normal_matrix(10, 3), K = rng.normal_matrix(10, 3);
  const Matrix V = Matrix::Constant(10, 4, 2.5);
  EX_CHECK_CLOSE(linattn::causal_linear_attention_recurrent(Q, K, V, extest::elu_plus_one, 0.0), V,
                 1e-12);
  EX_CHECK_CLOSE(linattn::causal_linear_attention_parallel(Q, K, V, extest::elu_plus_one, 0.0), V,
                 1e-12);
}

TEST_CASE("solutions/causal: the step agrees with the reference from a random state") {
  linref::Rng rng(77);
  for (const Shape& s : kShapes) {
    CAPTURE(s.d_k);
    CAPTURE(s.d_v);
    CAPTURE(std::string(s.map));
    const extest::FeatureMap phi = make_map(s.map, s.d_k, rng);
    const Eigen::Index d_phi = phi(Matrix::Zero(1, s.d_k)).cols();
    // A state that some earlier tokens could have left: positive keys' features summed.
    const Matrix FK = phi(rng.normal_matrix(4, s.d_k));
    const Matrix Vs = rng.normal_matrix(4, s.d_v);
    const Matrix S = FK.transpose() * Vs;
    const Vector z = FK.colwise().sum().transpose();
    REQUIRE(S.rows() == d_phi);
    const Vector q = rng.normal_vector(s.d_k), k = rng.normal_vector(s.d_k),
                 v = rng.normal_vector(s.d_v);
    const linattn::DecodeStep got = linattn::linear_attention_step(S, z, q, k, v, phi, 1e-6);
    const linref::DecodeStep want = linref::linear_attention_step(S, z, q, k, v, phi, 1e-6);
    EX_CHECK_CLOSE(got.o, want.o, 1e-10);
    EX_CHECK_CLOSE(got.S, want.S, 1e-12);
    EX_CHECK_CLOSE(got.z, want.z, 1e-12);
  }
}

TEST_CASE("solutions/causal: T steps of decoding equal the recurrent form") {
  linref::Rng rng(11);
  const Eigen::Index T = 15, d_k = 3, d_v = 4;
  const Matrix Q = rng.normal_matrix(T, d_k), K = rng.normal_matrix(T, d_k),
               V = rng.normal_matrix(T, d_v);
  const Matrix want =
      linref::causal_linear_attention_recurrent(Q, K, V, linref::elu_plus_one, 1e-6);
  Matrix S = Matrix::Zero(d_k, d_v);
  Vector z = Vector::Zero(d_k);
  for (Eigen::Index t = 0; t < T; ++t) {
    const linattn::DecodeStep step =
        linattn::linear_attention_step(S, z, Q.row(t).transpose(), K.row(t).transpose(),
                                       V.row(t).transpose(), linref::elu_plus_one, 1e-6);
    EX_CHECK_CLOSE(step.o.transpose(), want.row(t), 1e-10);
    S = step.S;
    z = step.z;
  }
}
