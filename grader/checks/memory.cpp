// Checks of exercise 5, `memory` (20 points): write (8), read (6) and crosstalk_energy (6).
// Keys of different lengths expose a missing normalization, d_k != d_v exposes the
// orientation, and the textbook's three pairs are checked exactly.
#include "../common/wire.hpp"
#include "../src/check.hpp"
#include "../src/compare.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace grader {
namespace {

const char* kWrite = "write";
const char* kRead = "read";
const char* kCrosstalk = "crosstalk_energy";

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

Verdict judge_write(const std::string& note, const json& rq, const json& rp) {
  return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
    const Matrix K = wire::to_matrix(a.at("K")), V = wire::to_matrix(a.at("V"));
    const Matrix got = wire::to_matrix(r.at("S"));
    const Comparison c = compare_matrices(linref::memory_write(K, V), got, kTight, "S", "d_k x d_v");
    if (c.ok) return std::nullopt;
    Vector lengths = K.rowwise().norm();
    std::string tried = std::string(kWrite) + "(K: " + shape_of(K) + " (n x d_k), V: " +
                        shape_of(V) + " (n x d_v)); key lengths from " + fmt(lengths.minCoeff()) +
                        " to " + fmt(lengths.maxCoeff());
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, diagnose(got, write_suspects(K, V)));
  });
}

json write_call(const Matrix& K, const Matrix& V) {
  return json{{"K", wire::from_matrix(K)}, {"V", wire::from_matrix(V)}};
}

Check write_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                  std::function<json(std::uint64_t)> calls, std::string note) {
  return make_check(kWrite, name, points, vis, seed, std::move(calls),
                    [note](const json& rq, const json& rp) { return judge_write(note, rq, rp); });
}

// ---- read --------------------------------------------------------------------------------

Verdict judge_read(const std::string& note, const json& rq, const json& rp) {
  return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
    const Matrix S = wire::to_matrix(a.at("S"));
    const Vector q = wire::to_vector(a.at("q"));
    const Vector got = wire::to_vector(r.at("value"));
    const Comparison c = compare_vectors(linref::memory_read(S, q), got, kTight, "value", "d_v");
    if (c.ok) return std::nullopt;
    std::vector<Suspect> s{{"the query is not normalized: the read is S^T q_hat with "
                            "q_hat = q / |q|.", Matrix(S.transpose() * q)}};
    if (S.rows() == S.cols()) {
      s.push_back({"the read is S q_hat; the memory is read as S^T q_hat (rows of S index key "
                   "dimensions).", Matrix(S * q.normalized())});
      s.push_back({"this is the starter's S q: the state is used untransposed and the query "
                   "is not normalized.", Matrix(S * q)});
    }
    std::optional<std::string> mistake = diagnose(Matrix(got), s);
    if (!c.shape_ok && got.size() == S.rows())
      mistake = "the result has d_k entries; a read returns a value, of length d_v: S^T q_hat.";
    std::string tried = std::string(kRead) + "(S: " + shape_of(S) + " (d_k x d_v), q: length " +
                        std::to_string(q.size()) + ", |q| = " + fmt(q.norm()) + ")";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, mistake);
  });
}

json read_call(const Matrix& S, const Vector& q) {
  return json{{"S", wire::from_matrix(S)}, {"q", wire::from_vector(q)}};
}

Check read_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                 Eigen::Index d_k, Eigen::Index d_v, double q_len, std::string note) {
  return make_check(
      kRead, name, points, vis, seed,
      [=](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix S = random_matrix(rng, d_k, d_v);
        const Vector q = rng.unit_rows(1, d_k).row(0).transpose() * q_len;
        return json::array({read_call(S, q)});
      },
      [note](const json& rq, const json& rp) { return judge_read(note, rq, rp); });
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

Verdict judge_crosstalk(const std::string& note, const json& rq, const json& rp) {
  return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
    const Matrix K = wire::to_matrix(a.at("K"));
    const double expected = linref::crosstalk_energy(K);
    const double got = r.at("value").get<double>();
    const Comparison c = compare_scalars(expected, got, kTight, "crosstalk energy");
    if (c.ok) return std::nullopt;
    std::string tried = std::string(kCrosstalk) + "(K: " + shape_of(K) + " (n x d_k))";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, c.report, diagnose_scalar(got, crosstalk_suspects(K)));
  });
}

Check crosstalk_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                      std::function<json(std::uint64_t)> calls, std::string note) {
  return make_check(kCrosstalk, name, points, vis, seed, std::move(calls),
                    [note](const json& rq, const json& rp) { return judge_crosstalk(note, rq, rp); });
}

json keys_call(const Matrix& K) { return json{{"K", wire::from_matrix(K)}}; }

std::vector<Check> make_memory_checks() {
  std::vector<Check> checks;
  // write: 8 points.
  checks.push_back(write_check(
      "write/unnormalized-keys", 3.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix K = random_rows_of_lengths(rng, 6, 4, 0.5, 4.0);
        return json::array({write_call(K, random_matrix(rng, 6, 4))});
      },
      "Six keys of lengths 0.5 to 4: each must be scaled to unit length before writing."));
  checks.push_back(write_check(
      "write/unequal-widths", 2.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix K = random_rows_of_lengths(rng, 5, 3, 1.0, 2.5);
        return json::array({write_call(K, random_matrix(rng, 5, 6))});
      },
      "d_k = 3, d_v = 6: S must be (d_k, d_v) = 3 x 6."));
  checks.push_back(write_check(
      "write/three-pairs", 2.0, Visibility::Visible, 1,
      [](std::uint64_t) {
        return json::array({write_call(three_keys(), three_values()),
                            write_call(three_keys_scaled(), three_values())});
      },
      "The textbook's three pairs: S = [[1, 5], [4, 4]]. Call 2 passes the same keys at lengths "
      "2, 0.5 and 5, which must give the same S."));
  checks.push_back(write_check(
      "write/random-hidden", 1.0, Visibility::Hidden, 37,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix K = random_rows_of_lengths(rng, 9, 5, 0.3, 3.0);
        return json::array({write_call(K, random_matrix(rng, 9, 3))});
      },
      ""));
  // read: 6 points.
  checks.push_back(read_check("read/orientation", 2.0, Visibility::Visible, 1, 3, 5, 1.0,
                              "S is 3 x 5 (d_k x d_v), so the value read has 5 entries."));
  checks.push_back(read_check("read/square-state", 1.5, Visibility::Visible, 1, 4, 4, 3.0,
                              "A square S, where S q and S^T q both fit but differ; |q| = 3."));
  checks.push_back(read_check("read/unnormalized-query", 1.5, Visibility::Visible, 1, 3, 2, 7.0,
                              "The query has length 7 and must be normalized first."));
  checks.push_back(make_check(
      kRead, "read/three-pairs", 1.0, Visibility::Visible, 1,
      [](std::uint64_t) {
        const Matrix S = linref::memory_write(three_keys(), three_values());
        const Matrix K = three_keys();
        return json::array({read_call(S, K.row(0).transpose()), read_call(S, K.row(2).transpose()),
                            read_call(S, 2.0 * K.row(0).transpose())});
      },
      [](const json& rq, const json& rp) {
        return judge_read("The textbook's memory S = [[1, 5], [4, 4]]: reading with k_1 gives "
                          "(1, 5), with k_3 gives (3.8, 6.2), and with 2 k_1 again (1, 5).",
                          rq, rp);
      }));
  // crosstalk_energy: 6 points.
  checks.push_back(crosstalk_check(
      "crosstalk/single-and-orthogonal", 1.5, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        Matrix ortho = Matrix::Zero(3, 4);
        ortho(0, 0) = 2.0;
        ortho(1, 2) = 0.5;
        ortho(2, 3) = 3.0;
        return json::array({keys_call(random_matrix(rng, 1, 4)), keys_call(ortho)});
      },
      "A single key has no crosstalk (0), and neither do orthogonal keys of any length."));
  checks.push_back(crosstalk_check(
      "crosstalk/three-pairs", 1.5, Visibility::Visible, 1,
      [](std::uint64_t) {
        return json::array({keys_call(three_keys()), keys_call(three_keys_scaled())});
      },
      "The textbook's keys: the squared overlaps are 0, 0.36 and 0.64, each counted from both "
      "ends, so the mean over j is 2/3 = 0.6666666667."));
  checks.push_back(crosstalk_check(
      "crosstalk/unnormalized-keys", 1.5, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return json::array({keys_call(random_rows_of_lengths(rng, 5, 4, 0.3, 3.0))});
      },
      "Five keys of lengths 0.3 to 3."));
  checks.push_back(crosstalk_check(
      "crosstalk/random-keys", 1.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return json::array({keys_call(rng.unit_rows(64, 256))});
      },
      "64 random unit keys in 256 dimensions: the energy is close to (n - 1)/d_k = 63/256 "
      "= 0.246, and must equal the exact mean for these keys."));
  checks.push_back(crosstalk_check(
      "crosstalk/random-hidden", 0.5, Visibility::Hidden, 41,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return json::array({keys_call(random_rows_of_lengths(rng, 40, 100, 0.5, 2.0))});
      },
      ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar memory_registrar{"memory", {"write", "read", "crosstalk_energy"},
                                          grader::make_memory_checks};
