// The oracle of exercise 5, `memory`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "oracle/makers.hpp"
#include <cmath>
#include <cstdint>
#include <functional>

#include <string>
#include <vector>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References memory_reference{
    api::reference("write", &linref::memory_write),
    api::reference("read", &linref::memory_read),
    api::reference("crosstalk_energy", &linref::crosstalk_energy),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================

// The textbook's three pairs in a two-dimensional memory.
Matrix three_keys() {
  Matrix K(3, 2);
  K << 1, 0, 0, 1, 0.6, 0.8;
  return K;
}
Matrix three_values() {
  Matrix V(3, 2);
  V << 1, 2, 4, 0, 0, 5;
  return V;
}
// The same keys at lengths 2, 0.5 and 5: normalizing must give the same memory.
Matrix three_keys_scaled() {
  Matrix K = three_keys();
  K.row(0) *= 2.0;
  K.row(1) *= 0.5;
  K.row(2) *= 5.0;
  return K;
}

// ---- write -------------------------------------------------------------------------------

std::vector<Suspect> write_suspects(const Matrix& K, const Matrix& V) {
  const Matrix Kh = linref::normalize_rows(K);
  Matrix Kcol = K;  // columns normalized instead of rows
  for (Eigen::Index c = 0; c < K.cols(); ++c) Kcol.col(c).normalize();
  Matrix Ksq = K;  // divided by the squared length
  for (Eigen::Index r = 0; r < K.rows(); ++r) Ksq.row(r) /= K.row(r).squaredNorm();
  return {
      {"the keys are not normalized: this is the starter's K^T V. Divide each key by its "
       "length first; S = sum_s k_hat_s v_s^T.",
       K.transpose() * V},
      {"the values were normalized instead of the keys.",
       K.transpose() * linref::normalize_rows(V)},
      {"the columns of K were normalized; each key (a row of K) is scaled to unit length.",
       Kcol.transpose() * V},
      {"each key was divided by its squared length instead of its length.", Ksq.transpose() * V},
      {"the memory was averaged over the n pairs; it is a plain sum.",
       Kh.transpose() * V / static_cast<double>(K.rows())},
      {"S is transposed: it is (d_k, d_v), sum of k_hat_s v_s^T, not v_s k_hat_s^T.",
       V.transpose() * Kh},
  };
}

json expect_write(const json& a) {
  const Matrix K = wire::to_matrix(a.at("K")), V = wire::to_matrix(a.at("V"));
  return json{{"S", wire::from_matrix(linref::memory_write(K, V))},
              {"suspects", suspects_json(write_suspects(K, V))}};
}

json write_call(const Matrix& K, const Matrix& V) {
  return json{{"K", wire::from_matrix(K)}, {"V", wire::from_matrix(V)}};
}

json calls_write_unnormalized_keys(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix K = random_rows_of_lengths(rng, 6, 4, 0.5, 4.0);
  return json::array({write_call(K, random_matrix(rng, 6, 4))});
}
json calls_write_unequal_widths(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix K = random_rows_of_lengths(rng, 5, 3, 1.0, 2.5);
  return json::array({write_call(K, random_matrix(rng, 5, 6))});
}
json calls_write_three_pairs(std::uint64_t) {
  return json::array(
      {write_call(three_keys(), three_values()), write_call(three_keys_scaled(), three_values())});
}
json calls_write_random_hidden(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix K = random_rows_of_lengths(rng, 9, 5, 0.3, 3.0);
  return json::array({write_call(K, random_matrix(rng, 9, 3))});
}

// ---- read --------------------------------------------------------------------------------

json expect_read(const json& a) {
  const Matrix S = wire::to_matrix(a.at("S"));
  const Vector q = wire::to_vector(a.at("q"));
  std::vector<Suspect> s{
      {"the query is not normalized: the read is S^T q_hat with "
       "q_hat = q / |q|.",
       Matrix(S.transpose() * q)}};
  if (S.rows() == S.cols()) {
    s.push_back(
        {"the read is S q_hat; the memory is read as S^T q_hat (rows of S index key "
         "dimensions).",
         Matrix(S * q.normalized())});
    s.push_back(
        {"this is the starter's S q: the state is used untransposed and the query "
         "is not normalized.",
         Matrix(S * q)});
  }
  return json{{"value", wire::from_vector(linref::memory_read(S, q))},
              {"suspects", suspects_json(s)}};
}

json read_call(const Matrix& S, const Vector& q) {
  return json{{"S", wire::from_matrix(S)}, {"q", wire::from_vector(q)}};
}

// One read of a random (d_k, d_v) memory with a random query of length q_len.
std::function<json(std::uint64_t)> read_calls(Eigen::Index d_k, Eigen::Index d_v, double q_len) {
  return [=](std::uint64_t s) {
    linref::Rng rng(s);
    const Matrix S = random_matrix(rng, d_k, d_v);
    const Vector q = rng.unit_rows(1, d_k).row(0).transpose() * q_len;
    return json::array({read_call(S, q)});
  };
}

json calls_read_three_pairs(std::uint64_t) {
  const Matrix S = linref::memory_write(three_keys(), three_values());
  const Matrix K = three_keys();
  return json::array({read_call(S, K.row(0).transpose()), read_call(S, K.row(2).transpose()),
                      read_call(S, 2.0 * K.row(0).transpose())});
}

// ---- crosstalk_energy --------------------------------------------------------------------

std::vector<ScalarSuspect> crosstalk_suspects(const Matrix& K) {
  const double n = static_cast<double>(K.rows());
  const Matrix G = linref::normalize_rows(K) * linref::normalize_rows(K).transpose();
  const Matrix Graw = K * K.transpose();
  double off_sq = 0.0, off_abs = 0.0, raw_sq = 0.0;
  for (Eigen::Index j = 0; j < K.rows(); ++j)
    for (Eigen::Index s = 0; s < K.rows(); ++s)
      if (s != j) {
        off_sq += G(s, j) * G(s, j);
        off_abs += std::fabs(G(s, j));
        raw_sq += Graw(s, j) * Graw(s, j);
      }
  const double truth = off_sq / n;
  std::vector<ScalarSuspect> out{
      {"the s = j term is included: each key with itself adds (k_hat_j . k_hat_j)^2 = 1, so the "
       "value is 1 too high. Sum over s != j only.",
       truth + 1.0},
      {"the keys are not normalized; crosstalk is measured between unit keys.", raw_sq / n},
      {"the squares are missing: sum the squared dot products (k_hat_s . k_hat_j)^2.", off_abs / n},
  };
  if (K.rows() > 1) {
    out.push_back(
        {"the sum over j was not divided by n: it is the mean over the n stored keys.", off_sq});
    out.push_back(
        {"the total was divided by n (n - 1) pairs; the mean is over j only, each j "
         "summing over all s != j.",
         off_sq / (n * (n - 1.0))});
  }
  return out;
}

json expect_crosstalk(const json& a) {
  const Matrix K = wire::to_matrix(a.at("K"));
  return json{{"value", linref::crosstalk_energy(K)},
              {"suspects", scalar_suspects_json(crosstalk_suspects(K))}};
}

json keys_call(const Matrix& K) { return json{{"K", wire::from_matrix(K)}}; }

json calls_crosstalk_single_and_orthogonal(std::uint64_t s) {
  linref::Rng rng(s);
  Matrix ortho = Matrix::Zero(3, 4);
  ortho(0, 0) = 2.0;
  ortho(1, 2) = 0.5;
  ortho(2, 3) = 3.0;
  return json::array({keys_call(random_matrix(rng, 1, 4)), keys_call(ortho)});
}
json calls_crosstalk_three_pairs(std::uint64_t) {
  return json::array({keys_call(three_keys()), keys_call(three_keys_scaled())});
}
json calls_crosstalk_unnormalized_keys(std::uint64_t s) {
  linref::Rng rng(s);
  return json::array({keys_call(random_rows_of_lengths(rng, 5, 4, 0.3, 3.0))});
}
json calls_crosstalk_random_keys(std::uint64_t s) {
  linref::Rng rng(s);
  return json::array({keys_call(rng.unit_rows(64, 256))});
}
json calls_crosstalk_random_hidden(std::uint64_t s) {
  linref::Rng rng(s);
  return json::array({keys_call(random_rows_of_lengths(rng, 40, 100, 0.5, 2.0))});
}

OracleTable make_memory_oracles() {
  return {
      {"write/unnormalized-keys", {calls_write_unnormalized_keys, expect_write}},
      {"write/unequal-widths", {calls_write_unequal_widths, expect_write}},
      {"write/three-pairs", {calls_write_three_pairs, expect_write}},
      {"write/random-hidden", {calls_write_random_hidden, expect_write}},
      {"read/orientation", {read_calls(3, 5, 1.0), expect_read}},
      {"read/square-state", {read_calls(4, 4, 3.0), expect_read}},
      {"read/unnormalized-query", {read_calls(3, 2, 7.0), expect_read}},
      {"read/three-pairs", {calls_read_three_pairs, expect_read}},
      {"crosstalk/single-and-orthogonal",
       {calls_crosstalk_single_and_orthogonal, expect_crosstalk}},
      {"crosstalk/three-pairs", {calls_crosstalk_three_pairs, expect_crosstalk}},
      {"crosstalk/unnormalized-keys", {calls_crosstalk_unnormalized_keys, expect_crosstalk}},
      {"crosstalk/random-keys", {calls_crosstalk_random_keys, expect_crosstalk}},
      {"crosstalk/random-hidden", {calls_crosstalk_random_hidden, expect_crosstalk}},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration memory_oracles{"memory", grader::make_memory_oracles};
