// The recurrent, parallel and chunkwise forms and the decode step must agree on any data.
// Random inputs with d_phi != d_v (catches a transposed state) and T not a multiple of the
// chunk (catches a lost tail). Outputs are weighted averages of N(0,1) values, of order 1, so
// 1e-12 absolute is far above rounding (~1e-15) and far below any real mistake.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"

#include <doctest/doctest.h>

#include <initializer_list>

#include <stdexcept>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

constexpr double kAgree = 1e-12;

struct Case {
  const char* name;
  Matrix Q, K, V;
  linref::FeatureMap phi;
};

// Taylor features: d_k = 3 -> d_phi = 13, d_v = 5, T = 23 (prime).
Case taylor_case() {
  linref::Rng rng(41);
  return {"taylor", rng.normal_matrix(23, 3), rng.normal_matrix(23, 3), rng.normal_matrix(23, 5),
          linref::taylor_features};
}

// Positive random features: d_k = 4 -> d_phi = 9, d_v = 6, T = 29.
Case random_feature_case() {
  linref::Rng rng(43);
  const Matrix Omega = linref::gaussian_omega(9, 4, rng);
  Matrix Q = 0.5 * rng.normal_matrix(29, 4), K = 0.5 * rng.normal_matrix(29, 4);
  return {"positive random features", Q, K, rng.normal_matrix(29, 6),
          [Omega](const Matrix& X) { return linref::positive_random_features(X, Omega); }};
}

}  // namespace

TEST_CASE("recurrent == parallel == chunkwise (chunks 1, 3, 7, T, > T), d_phi != d_v") {
  for (const Case& c : {taylor_case(), random_feature_case()}) {
    CAPTURE(c.name);
    const Eigen::Index T = c.Q.rows();
    const Matrix recurrent = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, c.phi);
    const Matrix parallel = linref::causal_linear_attention_parallel(c.Q, c.K, c.V, c.phi);
    REQUIRE(recurrent.rows() == T);
    REQUIRE(recurrent.cols() == c.V.cols());
    CHECK(max_abs_diff(recurrent, parallel) < kAgree);
    for (Eigen::Index chunk : {Eigen::Index{1}, Eigen::Index{3}, Eigen::Index{7}, T, T + 5}) {
      CAPTURE(chunk);
      CHECK(max_abs_diff(linref::causal_linear_attention_chunkwise(c.Q, c.K, c.V, c.phi, chunk),
                         recurrent) < kAgree);
    }
  }
}

TEST_CASE("the phi forms equal the *_from_features forms on phi(Q), phi(K)") {
  const Case c = taylor_case();
  const Matrix FQ = c.phi(c.Q), FK = c.phi(c.K);
  const Matrix recurrent = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, c.phi);
  CHECK(max_abs_diff(linref::causal_recurrent_from_features(FQ, FK, c.V), recurrent) == 0.0);
  CHECK(max_abs_diff(linref::causal_parallel_from_features(FQ, FK, c.V), recurrent) < kAgree);
  CHECK(max_abs_diff(linref::causal_chunkwise_from_features(FQ, FK, c.V, 5), recurrent) < kAgree);
}

TEST_CASE("causal outputs: constant values give that constant, the first token returns v_1") {
  // A weighted average of equal vectors is that vector, whatever the weights (this catches a
  // denominator summed over the wrong axis). Token 1 sees only itself.
  const Case c = random_feature_case();
  const Matrix constant = Matrix::Constant(c.V.rows(), c.V.cols(), 3.0);
  const Matrix O = linref::causal_linear_attention_chunkwise(c.Q, c.K, constant, c.phi, 4, 0.0);
  CHECK(max_abs_diff(O, constant) < kAgree);
  const Matrix first = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, c.phi, 0.0);
  CHECK(max_abs_diff(first.row(0), c.V.row(0)) < kAgree);
}

TEST_CASE("decode steps reproduce the recurrence and leave their inputs unchanged") {
  const Case c = taylor_case();
  const Matrix recurrent = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, c.phi);
  const Eigen::Index d_phi = 13;
  Matrix S = Matrix::Zero(d_phi, c.V.cols());
  Vector z = Vector::Zero(d_phi);
  for (Eigen::Index t = 0; t < c.Q.rows(); ++t) {
    const Vector q = c.Q.row(t).transpose(), k = c.K.row(t).transpose(), v = c.V.row(t).transpose();
    const Matrix S_before = S;
    const Vector z_before = z, q_before = q, k_before = k, v_before = v;
    const linref::DecodeStep step = linref::linear_attention_step(S, z, q, k, v, c.phi);
    CHECK(max_abs_diff(step.o, recurrent.row(t).transpose()) < kAgree);
    // Bit-for-bit: the step must not have written into any argument.
    CHECK((S.array() == S_before.array()).all());
    CHECK((z.array() == z_before.array()).all());
    CHECK((q.array() == q_before.array()).all());
    CHECK((k.array() == k_before.array()).all());
    CHECK((v.array() == v_before.array()).all());
    S = step.S;
    z = step.z;
  }
}

TEST_CASE("chunkwise rejects a chunk size below 1, mismatched shapes throw") {
  const Case c = taylor_case();
  CHECK_THROWS_AS(linref::causal_linear_attention_chunkwise(c.Q, c.K, c.V, c.phi, 0),
                  std::invalid_argument);
  const Matrix short_V = c.V.topRows(c.V.rows() - 1);
  CHECK_THROWS_AS(linref::causal_linear_attention_recurrent(c.Q, c.K, short_V, c.phi),
                  std::invalid_argument);
  CHECK_THROWS_AS(linref::causal_linear_attention_parallel(c.Q, c.K, short_V, c.phi),
                  std::invalid_argument);
}
