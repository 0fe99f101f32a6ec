// The chunkwise form against an independent one, the plain sum of the definition, for every
// chunk size from 1 past T, on lengths that are and are not multiples of the chunk. The grader
// (exercise 6) takes its expected outputs from causal_linear_attention_chunkwise, so it must
// hold for every chunk >= 1, with eps where the contract puts it.
#include "linref/attention.hpp"
#include "linref/feature_maps.hpp"
#include "linref/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <tuple>

#include "helpers.hpp"

using namespace test_helpers;

namespace {

// o_t = sum_{s<=t} (a_t . b_s) v_s / (sum_{s<=t} a_t . b_s + eps), written as the double sum
// it is: no state, no matrix product, nothing shared with the library's forms.
Matrix definition(const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
  Matrix O = Matrix::Zero(V.rows(), V.cols());  // (T, d_v)
  for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
    double den = eps;
    for (Eigen::Index s = 0; s <= t; ++s) {
      double k = 0.0;
      for (Eigen::Index i = 0; i < FQ.cols(); ++i) k += FQ(t, i) * FK(s, i);
      den += k;
      for (Eigen::Index j = 0; j < V.cols(); ++j) O(t, j) += k * V(s, j);
    }
    O.row(t) /= den;
  }
  return O;
}

// Strictly positive features of width d_phi, so no denominator is near zero.
Matrix positive(linref::Rng& rng, Eigen::Index T, Eigen::Index d_phi) {
  return (rng.normal_matrix(T, d_phi).array().abs() + 0.1).matrix();
}

}  // namespace

TEST_CASE("chunkwise == the definition for every chunk from 1 to T + 3, d_phi != d_v") {
  linref::Rng rng(601);
  // (T, d_phi, d_v): T = 1, a prime, a power of two, one below a multiple.
  for (auto [T, d_phi, d_v] : {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index>{1, 3, 2},
                               {2, 2, 5},
                               {13, 4, 3},
                               {16, 3, 6},
                               {23, 7, 2}}) {
    const Matrix FQ = positive(rng, T, d_phi), FK = positive(rng, T, d_phi);
    const Matrix V = rng.normal_matrix(T, d_v);
    for (double eps : {0.0, 1e-6, 3.0}) {
      const Matrix want = definition(FQ, FK, V, eps);
      for (Eigen::Index chunk = 1; chunk <= T + 3; ++chunk) {
        CAPTURE(T);
        CAPTURE(chunk);
        CAPTURE(eps);
        CHECK(max_abs_diff(linref::causal_chunkwise_from_features(FQ, FK, V, chunk, eps), want) <
              1e-12);
      }
    }
  }
}

TEST_CASE(
    "chunkwise with a feature map: T = 10 in chunks of 4 (the last one of 2) is the definition") {
  linref::Rng rng(602);
  const Matrix Q = rng.normal_matrix(10, 3), K = rng.normal_matrix(10, 3),
               V = rng.normal_matrix(10, 5);
  const Matrix want = definition(linref::elu_plus_one(Q), linref::elu_plus_one(K), V, 1e-6);
  CHECK(max_abs_diff(linref::causal_linear_attention_chunkwise(Q, K, V, linref::elu_plus_one, 4),
                     want) < 1e-12);
}

TEST_CASE(
    "chunkwise on the seed's three tokens in chunks of 2: the second chunk reads the first through "
    "S, z") {
  // Chunk 1 (tokens 1, 2) alone gives (1, 0) and (5/9, 4/9). Then S = [[2, 1], [1, 2]],
  // z = (3, 3); token 3 reads phi(q_3)^T S = (4, 5), phi(q_3) . z = 9, and its own kernel
  // value 3 adds 3 v_3 = (3, 3) and 3: (7, 8) / 12.
  const Matrix FQ = rows({{1, 1}, {2, 1}, {1, 2}});
  const Matrix FK = rows({{2, 1}, {1, 2}, {1, 1}});
  const Matrix V = rows({{1, 0}, {0, 1}, {1, 1}});
  const Matrix want = rows({{1, 0}, {5.0 / 9, 4.0 / 9}, {7.0 / 12, 8.0 / 12}});
  CHECK(max_abs_diff(linref::causal_chunkwise_from_features(FQ, FK, V, 2, 0.0), want) < 1e-15);
  // eps = 1 once per row: token 3 becomes (7, 8) / 13.
  const Matrix with_eps = linref::causal_chunkwise_from_features(FQ, FK, V, 2, 1.0);
  CHECK(std::abs(with_eps(2, 0) - 7.0 / 13) < 1e-15);
  CHECK(std::abs(with_eps(2, 1) - 8.0 / 13) < 1e-15);
  CHECK(std::abs(with_eps(0, 0) - 3.0 / 4) < 1e-15);
}
