// Checks of exercise 5, `memory` (20 points): write (8), read (6) and crosstalk_energy (6).
// The inputs, the expected values and the values of the usual mistakes come from the
// reference, in oracle/.
//
// Keys of different lengths expose a missing normalization, d_k != d_v exposes the
// orientation, and the textbook's three pairs are checked exactly.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"

#include <string>
#include <vector>

namespace grader {
namespace {

// ---- write -------------------------------------------------------------------------------

// expected per call: {"S": (d_k, d_v), "suspects"}
Verdict judge_write(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix K = wire::to_matrix(a.at("K")), V = wire::to_matrix(a.at("V"));
        const Matrix got = wire::to_matrix(r.at("S"));
        const Comparison c =
            compare_matrices(wire::to_matrix(e.at("S")), got, kTight, "S", "d_k x d_v");
        if (c.ok) return std::nullopt;
        Vector lengths = K.rowwise().norm();
        std::string tried = std::string(kWrite) + "(K: " + shape_of(K) +
                            " (n x d_k), V: " + shape_of(V) + " (n x d_v)); key lengths from " +
                            fmt(lengths.minCoeff()) + " to " + fmt(lengths.maxCoeff());
        if (!note.empty()) tried += "\n" + note;
        return failure(tried, c.report, diagnose(got, e.at("suspects")));
      });
}

Check write_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                  std::string note) {
  return make_check(kWrite, name, points, vis, seed,
                    [note](const json& rq, const json& ex, const json& rp) {
                      return judge_write(note, rq, ex, rp);
                    });
}

// ---- read --------------------------------------------------------------------------------

// expected per call: {"value": (d_v), "suspects"}
Verdict judge_read(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix S = wire::to_matrix(a.at("S"));
        const Vector q = wire::to_vector(a.at("q"));
        const Vector got = wire::to_vector(r.at("value"));
        const Comparison c =
            compare_vectors(wire::to_vector(e.at("value")), got, kTight, "value", "d_v");
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
                       [note](const json& rq, const json& ex, const json& rp) {
                         return judge_read(note, rq, ex, rp);
                       });
  c.crash_hint =
      "the read multiplies S by q as S q; S is (d_k, d_v), so with d_k != d_v only "
      "S^T q_hat has matching shapes (this is the starter's read).";
  return c;
}

// ---- crosstalk_energy --------------------------------------------------------------------

// expected per call: {"value", "suspects": scalar suspects}
Verdict judge_crosstalk(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix K = wire::to_matrix(a.at("K"));
        const double got = r.at("value").get<double>();
        const Comparison c =
            compare_scalars(e.at("value").get<double>(), got, kTight, "crosstalk energy");
        if (c.ok) return std::nullopt;
        std::string tried = std::string(kCrosstalk) + "(K: " + shape_of(K) + " (n x d_k))";
        if (!note.empty()) tried += "\n" + note;
        return failure(tried, c.report, diagnose_scalar(got, e.at("suspects")));
      });
}

Check crosstalk_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                      std::string note) {
  return make_check(kCrosstalk, name, points, vis, seed,
                    [note](const json& rq, const json& ex, const json& rp) {
                      return judge_crosstalk(note, rq, ex, rp);
                    });
}

std::vector<Check> make_memory_checks() {
  std::vector<Check> checks;
  // write: 8 points.
  checks.push_back(write_check(
      "write/unnormalized-keys", 3.0, Visibility::Visible, 1,
      "Six keys of lengths 0.5 to 4: each must be scaled to unit length before writing."));
  checks.push_back(write_check("write/unequal-widths", 2.0, Visibility::Visible, 1,
                               "d_k = 3, d_v = 6: S must be (d_k, d_v) = 3 x 6."));
  checks.push_back(write_check(
      "write/three-pairs", 2.0, Visibility::Visible, 1,
      "The textbook's three pairs: S = [[1, 5], [4, 4]]. Call 2 passes the same keys at lengths "
      "2, 0.5 and 5, which must give the same S."));
  checks.push_back(write_check("write/random-hidden", 1.0, Visibility::Hidden, 37, ""));
  // read: 6 points.
  checks.push_back(read_check("read/orientation", 2.0, Visibility::Visible, 1,
                              "S is 3 x 5 (d_k x d_v), so the value read has 5 entries."));
  checks.push_back(read_check("read/square-state", 1.5, Visibility::Visible, 1,
                              "A square S, where S q and S^T q both fit but differ; |q| = 3."));
  checks.push_back(read_check("read/unnormalized-query", 1.5, Visibility::Visible, 1,
                              "The query has length 7 and must be normalized first."));
  checks.push_back(read_check(
      "read/three-pairs", 1.0, Visibility::Visible, 1,
      "The textbook's memory S = [[1, 5], [4, 4]]: reading with k_1 gives (1, 5), with k_3 gives "
      "(3.8, 6.2), and with 2 k_1 again (1, 5)."));
  // crosstalk_energy: 6 points.
  checks.push_back(crosstalk_check(
      "crosstalk/single-and-orthogonal", 1.5, Visibility::Visible, 1,
      "A single key has no crosstalk (0), and neither do orthogonal keys of any length."));
  checks.push_back(crosstalk_check(
      "crosstalk/three-pairs", 1.5, Visibility::Visible, 1,
      "The textbook's keys: the squared overlaps are 0, 0.36 and 0.64, each counted from both "
      "ends, so the mean over j is 2/3 = 0.6666666667."));
  checks.push_back(crosstalk_check("crosstalk/unnormalized-keys", 1.5, Visibility::Visible, 1,
                                   "Five keys of lengths 0.3 to 3."));
  checks.push_back(crosstalk_check(
      "crosstalk/random-keys", 1.0, Visibility::Visible, 1,
      "64 random unit keys in 256 dimensions: the energy is close to (n - 1)/d_k = 63/256 "
      "= 0.246, and must equal the exact mean for these keys."));
  checks.push_back(crosstalk_check("crosstalk/random-hidden", 0.5, Visibility::Hidden, 41, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration memory_checks{"memory", grader::make_memory_checks};
