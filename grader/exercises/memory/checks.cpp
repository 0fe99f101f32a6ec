// Checks of exercise 5, `memory` (20 points): write (8), read (6) and crosstalk_energy (6).
// The inputs, the expected values and the values of the usual mistakes come from the
// reference, in the oracle regions.
//
// Keys of different lengths expose a missing normalization, d_k != d_v exposes the
// orientation, and the textbook's three pairs are checked exactly.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../../common/api.hpp"
#include "memory.hpp"

// ==== API =====================================================================================

// K: (n, d_k), V: (n, d_v) -> S: (d_k, d_v); read: S, q (d_k) -> value (d_v).
static const api::Exercise memory_api{"memory", {
    api::function(LINATTN_SIGNATURE(write), {"K", "V"}, {"S"}),
    api::function(LINATTN_SIGNATURE(read), {"S", "q"}, {"value"}),
    api::function(LINATTN_SIGNATURE(crosstalk_energy), {"K"}, {"value"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../../common/wire.hpp"
#include "../../src/check.hpp"
#include "../../src/compare.hpp"

#include <string>
#include <vector>

#ifdef LINATTN_ORACLE
#include "../../oracle/makers.hpp"
#include "../../src/api_registry.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#endif

#ifdef LINATTN_ORACLE
// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References memory_reference{
    api::reference("write", &linref::memory_write),
    api::reference("read", &linref::memory_read),
    api::reference("crosstalk_energy", &linref::crosstalk_energy),
};
#endif

namespace grader {
namespace {

const char* kWrite = "write";
const char* kRead = "read";
const char* kCrosstalk = "crosstalk_energy";

#ifdef LINATTN_ORACLE
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
  Matrix Ksq = K;   // divided by the squared length
  for (Eigen::Index r = 0; r < K.rows(); ++r) Ksq.row(r) /= K.row(r).squaredNorm();
  return {
      {"the keys are not normalized: this is the starter's K^T V. Divide each key by its "
       "length first; S = sum_s k_hat_s v_s^T.", K.transpose() * V},
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
  return json::array({write_call(three_keys(), three_values()),
                      write_call(three_keys_scaled(), three_values())});
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
  std::vector<Suspect> s{{"the query is not normalized: the read is S^T q_hat with "
                          "q_hat = q / |q|.", Matrix(S.transpose() * q)}};
  if (S.rows() == S.cols()) {
    s.push_back({"the read is S q_hat; the memory is read as S^T q_hat (rows of S index key "
                 "dimensions).", Matrix(S * q.normalized())});
    s.push_back({"this is the starter's S q: the state is used untransposed and the query "
                 "is not normalized.", Matrix(S * q)});
  }
  return json{{"value", wire::from_vector(linref::memory_read(S, q))}, {"suspects", suspects_json(s)}};
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
       "value is 1 too high. Sum over s != j only.", truth + 1.0},
      {"the keys are not normalized; crosstalk is measured between unit keys.", raw_sq / n},
      {"the squares are missing: sum the squared dot products (k_hat_s . k_hat_j)^2.", off_abs / n},
  };
  if (K.rows() > 1) {
    out.push_back({"the sum over j was not divided by n: it is the mean over the n stored keys.",
                   off_sq});
    out.push_back({"the total was divided by n (n - 1) pairs; the mean is over j only, each j "
                   "summing over all s != j.", off_sq / (n * (n - 1.0))});
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
#endif  // LINATTN_ORACLE

// ---- write -------------------------------------------------------------------------------

// expected per call: {"S": (d_k, d_v), "suspects"}
Verdict judge_write(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix K = wire::to_matrix(a.at("K")), V = wire::to_matrix(a.at("V"));
    const Matrix got = wire::to_matrix(r.at("S"));
    const Comparison c = compare_matrices(wire::to_matrix(e.at("S")), got, kTight, "S", "d_k x d_v");
    if (c.ok) return std::nullopt;
    Vector lengths = K.rowwise().norm();
    std::string tried = std::string(kWrite) + "(K: " + shape_of(K) + " (n x d_k), V: " +
                        shape_of(V) + " (n x d_v)); key lengths from " + fmt(lengths.minCoeff()) +
                        " to " + fmt(lengths.maxCoeff());
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, diagnose(got, e.at("suspects")));
  });
}

Check write_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                  std::string note) {
  return make_check(kWrite, name, points, vis, seed,
                    [note](const json& rq, const json& ex, const json& rp) { return judge_write(note, rq, ex, rp); });
}

// ---- read --------------------------------------------------------------------------------

// expected per call: {"value": (d_v), "suspects"}
Verdict judge_read(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix S = wire::to_matrix(a.at("S"));
    const Vector q = wire::to_vector(a.at("q"));
    const Vector got = wire::to_vector(r.at("value"));
    const Comparison c = compare_vectors(wire::to_vector(e.at("value")), got, kTight, "value", "d_v");
    if (c.ok) return std::nullopt;
    std::optional<std::string> mistake = diagnose(Matrix(got), e.at("suspects"));
    if (!c.shape_ok && got.size() == S.rows())
      mistake = "the result has d_k entries; a read returns a value, of length d_v: S^T q_hat.";
    std::string tried = std::string(kRead) + "(S: " + shape_of(S) + " (d_k x d_v), q: length " +
                        std::to_string(q.size()) + ", |q| = " + fmt(q.norm()) + ")";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, mistake);
  });
}

Check read_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                 std::string note) {
  Check c = make_check(kRead, name, points, vis, seed,
                       [note](const json& rq, const json& ex, const json& rp) { return judge_read(note, rq, ex, rp); });
  c.crash_hint = "the read multiplies S by q as S q; S is (d_k, d_v), so with d_k != d_v only "
                 "S^T q_hat has matching shapes (this is the starter's read).";
  return c;
}

// ---- crosstalk_energy --------------------------------------------------------------------

// expected per call: {"value", "suspects": scalar suspects}
Verdict judge_crosstalk(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix K = wire::to_matrix(a.at("K"));
    const double got = r.at("value").get<double>();
    const Comparison c = compare_scalars(e.at("value").get<double>(), got, kTight, "crosstalk energy");
    if (c.ok) return std::nullopt;
    std::string tried = std::string(kCrosstalk) + "(K: " + shape_of(K) + " (n x d_k))";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, diagnose_scalar(got, e.at("suspects")));
  });
}

Check crosstalk_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                      std::string note) {
  return make_check(kCrosstalk, name, points, vis, seed,
                    [note](const json& rq, const json& ex, const json& rp) { return judge_crosstalk(note, rq, ex, rp); });
}

std::vector<Check> make_memory_checks() {
  std::vector<Check> checks;
  // write: 8 points.
  checks.push_back(with_oracle(write_check(
      "write/unnormalized-keys", 3.0, Visibility::Visible, 1,
      "Six keys of lengths 0.5 to 4: each must be scaled to unit length before writing."),
      LINATTN_ORACLE_OF(calls_write_unnormalized_keys, expect_write)));
  checks.push_back(with_oracle(write_check("write/unequal-widths", 2.0, Visibility::Visible, 1,
                                           "d_k = 3, d_v = 6: S must be (d_k, d_v) = 3 x 6."),
                               LINATTN_ORACLE_OF(calls_write_unequal_widths, expect_write)));
  checks.push_back(with_oracle(write_check(
      "write/three-pairs", 2.0, Visibility::Visible, 1,
      "The textbook's three pairs: S = [[1, 5], [4, 4]]. Call 2 passes the same keys at lengths "
      "2, 0.5 and 5, which must give the same S."),
      LINATTN_ORACLE_OF(calls_write_three_pairs, expect_write)));
  checks.push_back(with_oracle(write_check("write/random-hidden", 1.0, Visibility::Hidden, 37, ""),
                               LINATTN_ORACLE_OF(calls_write_random_hidden, expect_write)));
  // read: 6 points.
  checks.push_back(with_oracle(read_check("read/orientation", 2.0, Visibility::Visible, 1,
                                          "S is 3 x 5 (d_k x d_v), so the value read has 5 entries."),
                               LINATTN_ORACLE_OF(read_calls(3, 5, 1.0), expect_read)));
  checks.push_back(with_oracle(read_check("read/square-state", 1.5, Visibility::Visible, 1,
                                          "A square S, where S q and S^T q both fit but differ; |q| = 3."),
                               LINATTN_ORACLE_OF(read_calls(4, 4, 3.0), expect_read)));
  checks.push_back(with_oracle(read_check("read/unnormalized-query", 1.5, Visibility::Visible, 1,
                                          "The query has length 7 and must be normalized first."),
                               LINATTN_ORACLE_OF(read_calls(3, 2, 7.0), expect_read)));
  checks.push_back(with_oracle(read_check(
      "read/three-pairs", 1.0, Visibility::Visible, 1,
      "The textbook's memory S = [[1, 5], [4, 4]]: reading with k_1 gives (1, 5), with k_3 gives "
      "(3.8, 6.2), and with 2 k_1 again (1, 5)."),
      LINATTN_ORACLE_OF(calls_read_three_pairs, expect_read)));
  // crosstalk_energy: 6 points.
  checks.push_back(with_oracle(crosstalk_check(
      "crosstalk/single-and-orthogonal", 1.5, Visibility::Visible, 1,
      "A single key has no crosstalk (0), and neither do orthogonal keys of any length."),
      LINATTN_ORACLE_OF(calls_crosstalk_single_and_orthogonal, expect_crosstalk)));
  checks.push_back(with_oracle(crosstalk_check(
      "crosstalk/three-pairs", 1.5, Visibility::Visible, 1,
      "The textbook's keys: the squared overlaps are 0, 0.36 and 0.64, each counted from both "
      "ends, so the mean over j is 2/3 = 0.6666666667."),
      LINATTN_ORACLE_OF(calls_crosstalk_three_pairs, expect_crosstalk)));
  checks.push_back(with_oracle(crosstalk_check("crosstalk/unnormalized-keys", 1.5, Visibility::Visible, 1,
                                               "Five keys of lengths 0.3 to 3."),
                               LINATTN_ORACLE_OF(calls_crosstalk_unnormalized_keys, expect_crosstalk)));
  checks.push_back(with_oracle(crosstalk_check(
      "crosstalk/random-keys", 1.0, Visibility::Visible, 1,
      "64 random unit keys in 256 dimensions: the energy is close to (n - 1)/d_k = 63/256 "
      "= 0.246, and must equal the exact mean for these keys."),
      LINATTN_ORACLE_OF(calls_crosstalk_random_keys, expect_crosstalk)));
  checks.push_back(with_oracle(crosstalk_check("crosstalk/random-hidden", 0.5, Visibility::Hidden, 41, ""),
                               LINATTN_ORACLE_OF(calls_crosstalk_random_hidden, expect_crosstalk)));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar memory_registrar{"memory", grader::make_memory_checks};

#endif  // LINATTN_RUNNER
