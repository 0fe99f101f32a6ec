// The chunkwise solution: the seed's three tokens for every chunk size, and agreement with the
// definition (a double sum written here) and with the reference's recurrent form, for every chunk
// from 1 past T, on shapes with d_phi != d_v and T not a multiple of the chunk.
#include "chunkwise.hpp"
#include "helpers.hpp"

#include <tuple>

using extest::Matrix;
using extest::Vector;

namespace {

// o_t = sum_{s<=t} k_ts v_s / (sum_{s<=t} k_ts + eps), k_ts = phi(q_t) . phi(k_s): no state at all.
Matrix definition(const Matrix& FQ, const Matrix& FK, const Matrix& V, double eps) {
  Matrix O = Matrix::Zero(V.rows(), V.cols());
  for (Eigen::Index t = 0; t < FQ.rows(); ++t) {
    double den = eps;
    for (Eigen::Index s = 0; s <= t; ++s) {
      const double k = FQ.row(t).dot(FK.row(s));
      den += k;
      O.row(t) += k * V.row(s);
    }
    O.row(t) /= den;
  }
  return O;
}

}  // namespace

TEST_CASE("solutions/chunkwise: the seed's three tokens, eps = 0, chunks 1 to 5") {
  Matrix Q(3, 2), K(3, 2), V(3, 2), O(3, 2);
  Q << 0, 0, 1, 0, 0, 1;
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;
  O << 1, 0, 5.0 / 9, 4.0 / 9, 7.0 / 12, 2.0 / 3;  // the seed's hand computation
  for (Eigen::Index chunk = 1; chunk <= 5; ++chunk) {
    CAPTURE(chunk);
    EX_CHECK_CLOSE(
        linattn::causal_linear_attention_chunkwise(Q, K, V, extest::elu_plus_one, chunk, 0.0), O,
        1e-14);
  }
  // eps once per row: token 3 with eps = 1 is (7, 8) / 13, in chunks of 2 as in one chunk.
  const Matrix with_eps =
      linattn::causal_linear_attention_chunkwise(Q, K, V, extest::elu_plus_one, 2, 1.0);
  CHECK(std::abs(with_eps(2, 0) - 7.0 / 13) < 1e-15);
  CHECK(std::abs(with_eps(2, 1) - 8.0 / 13) < 1e-15);
  // The default eps is 1e-6: token 1 is (3, 0) / (3 + 1e-6).
  CHECK(
      std::abs(linattn::causal_linear_attention_chunkwise(Q, K, V, extest::elu_plus_one, 2)(0, 0) -
               3 / (3 + 1e-6)) < 1e-15);
}

TEST_CASE("solutions/chunkwise: every chunk from 1 to T + 2 is the definition and the reference") {
  linref::Rng rng(606);
  for (auto [T, d_k, d_v] : {std::tuple<Eigen::Index, Eigen::Index, Eigen::Index>{1, 3, 2},
                             {7, 2, 5},
                             {13, 4, 3},
                             {16, 3, 3}}) {
    const Matrix Q = rng.normal_matrix(T, d_k), K = rng.normal_matrix(T, d_k),
                 V = rng.normal_matrix(T, d_v);
    const Matrix Q0 = Q, K0 = K, V0 = V;
    for (double eps : {0.0, 1e-6, 2.0}) {
      const Matrix want = definition(extest::elu_plus_one(Q), extest::elu_plus_one(K), V, eps);
      EX_CHECK_CLOSE(linref::causal_linear_attention_recurrent(Q, K, V, linref::elu_plus_one, eps),
                     want, 1e-12);
      for (Eigen::Index chunk = 1; chunk <= T + 2; ++chunk) {
        CAPTURE(T);
        CAPTURE(chunk);
        CAPTURE(eps);
        EX_CHECK_CLOSE(
            linattn::causal_linear_attention_chunkwise(Q, K, V, extest::elu_plus_one, chunk, eps),
            want, 1e-12);
      }
    }
    CHECK(Q == Q0);
    CHECK(K == K0);
    CHECK(V == V0);
  }
}

TEST_CASE("solutions/chunkwise: Taylor features (d_phi = 7 != d_v = 3) against the reference") {
  linref::Rng rng(607);
  const Matrix Q = 0.7 * rng.normal_matrix(20, 2), K = 0.7 * rng.normal_matrix(20, 2),
               V = rng.normal_matrix(20, 3);
  const Matrix want =
      linref::causal_linear_attention_recurrent(Q, K, V, linref::taylor_features, 1e-6);
  for (Eigen::Index chunk : {1, 3, 6, 7, 19, 20, 64})
    EX_CHECK_CLOSE(
        linattn::causal_linear_attention_chunkwise(Q, K, V, linref::taylor_features, chunk), want,
        1e-12);
}
