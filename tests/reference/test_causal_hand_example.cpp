// The seed's three-token example with phi = elu + 1, d_k = d_v = 2, worked as exact fractions
// (eps = 0). Every form of causal linear attention must give o = (1, 0), (5/9, 4/9), (7/12, 2/3).
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"

#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

const Matrix Q = rows({{0, 0}, {1, 0}, {0, 1}});
const Matrix K = rows({{1, 0}, {0, 1}, {0, 0}});
const Matrix V = rows({{1, 0}, {0, 1}, {1, 1}});
const Matrix expected = rows({{1.0, 0.0}, {5.0 / 9.0, 4.0 / 9.0}, {7.0 / 12.0, 2.0 / 3.0}});
const linref::FeatureMap phi = linref::elu_plus_one;
// The fractions are exact; only the last bit of each division may differ.
constexpr double kExact = 1e-15;

}  // namespace

TEST_CASE(
    "seed hand example: the feature table and the kernel matrix rows (3,3,2),(5,4,3),(4,5,3)") {
  CHECK(max_abs_diff(phi(Q), rows({{1, 1}, {2, 1}, {1, 2}})) == 0.0);
  CHECK(max_abs_diff(phi(K), rows({{2, 1}, {1, 2}, {1, 1}})) == 0.0);
  CHECK(max_abs_diff(phi(Q) * phi(K).transpose(), rows({{3, 3, 2}, {5, 4, 3}, {4, 5, 3}})) == 0.0);
}

TEST_CASE("seed hand example: recurrent form") {
  CHECK(max_abs_diff(linref::causal_linear_attention_recurrent(Q, K, V, phi, 0.0), expected) <
        kExact);
}

TEST_CASE("seed hand example: parallel (masked) form") {
  CHECK(max_abs_diff(linref::causal_linear_attention_parallel(Q, K, V, phi, 0.0), expected) <
        kExact);
}

TEST_CASE("seed hand example: chunkwise form, every chunk size 1..4") {
  for (Eigen::Index chunk = 1; chunk <= 4; ++chunk) {
    CAPTURE(chunk);
    CHECK(max_abs_diff(linref::causal_linear_attention_chunkwise(Q, K, V, phi, chunk, 0.0),
                       expected) < kExact);
  }
}

TEST_CASE("seed hand example: decode steps give the seed's S_t, z_t and o_t") {
  // S_1 = [[2,0],[1,0]], z_1 = (2,1); S_2 = [[2,1],[1,2]], z_2 = (3,3);
  // S_3 = [[3,2],[2,3]], z_3 = (4,4).
  const Matrix S_expected[3] = {rows({{2, 0}, {1, 0}}), rows({{2, 1}, {1, 2}}),
                                rows({{3, 2}, {2, 3}})};
  const Vector z_expected[3] = {vec({2, 1}), vec({3, 3}), vec({4, 4})};
  Matrix S = Matrix::Zero(2, 2);
  Vector z = Vector::Zero(2);
  for (int t = 0; t < 3; ++t) {
    CAPTURE(t);
    const linref::DecodeStep step = linref::linear_attention_step(
        S, z, Q.row(t).transpose(), K.row(t).transpose(), V.row(t).transpose(), phi, 0.0);
    CHECK(max_abs_diff(step.S, S_expected[t]) == 0.0);
    CHECK(max_abs_diff(step.z, z_expected[t]) == 0.0);
    CHECK(max_abs_diff(step.o, expected.row(t).transpose()) < kExact);
    S = step.S;
    z = step.z;
  }
}

TEST_CASE("eps is added to the denominator as written, in every form") {
  // One token, q = k = (1, 0): phi = (2, 1), kernel 5, v = (1, 0). With eps = 0.5 the output is
  // 5 / 5.5 v = (10/11, 0).
  const Matrix q = rows({{1, 0}}), v = rows({{1, 0}});
  const Matrix o = rows({{10.0 / 11.0, 0.0}});
  CHECK(max_abs_diff(linref::causal_linear_attention_recurrent(q, q, v, phi, 0.5), o) < kExact);
  CHECK(max_abs_diff(linref::causal_linear_attention_parallel(q, q, v, phi, 0.5), o) < kExact);
  CHECK(max_abs_diff(linref::causal_linear_attention_chunkwise(q, q, v, phi, 4, 0.5), o) < kExact);
  const linref::DecodeStep step = linref::linear_attention_step(
      Matrix::Zero(2, 2), Vector::Zero(2), vec({1, 0}), vec({1, 0}), vec({1, 0}), phi, 0.5);
  CHECK(max_abs_diff(step.o, o.transpose()) < kExact);
}
