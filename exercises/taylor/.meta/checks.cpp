// Checks of exercise 4, `taylor` (15 points): taylor_features (8), taylor_state_bytes (3.5)
// and kv_cache_tokens (3.5). The inputs, expected values and the values of the usual mistakes
// come from the reference, in oracle/ (the slipped copies of taylor_features are in
// oracle/mistakes.cpp).
//
// The feature checks test the kernel identity 1 + s + s^2/2 on its own, then the exact
// layout; the byte counts are exact integers.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

Int taylor_width(Int d) { return 1 + d + d * d; }

// ---- taylor_features ---------------------------------------------------------------------

std::optional<std::string> taylor_shape_mistake(Eigen::Index d, const Matrix& got) {
  if (got.cols() == 1 + d)
    return "1 + d columns: the starter's first-order map (1, x) is still there. Append the d^2 "
           "entries of vec(x x^T)/sqrt(2).";
  if (got.cols() == 1 + d + d * (d + 1) / 2)
    return "only one triangle of x x^T was kept; all d^2 entries are needed (row-major), each "
           "divided by sqrt(2).";
  if (got.cols() == d + d * d) return "the constant feature 1 is missing.";
  return std::nullopt;
}

std::string taylor_tried(const Matrix& X) {
  return std::string(kTaylor) + "(X: " + shape_of(X) + "), expecting " +
         shape_of(X.rows(), taylor_width(X.cols())) + " = n x (1 + d + d^2)";
}

// Entry by entry. expected per call: {"features", "suspects"}
Verdict judge_taylor_values(const std::string& note, const json& rq, const json& ex,
                            const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix X = wire::to_matrix(a.at("X"));
        const Matrix got = wire::to_matrix(r.at("features"));
        const Comparison c = compare_matrices(wire::to_matrix(e.at("features")), got, kTight,
                                              "features", "n x (1 + d + d^2)");
        if (c.ok) return std::nullopt;
        auto mistake =
            c.shape_ok ? diagnose(got, e.at("suspects")) : taylor_shape_mistake(X.cols(), got);
        if (!mistake) mistake = c.unwritten;  // rows left as allocated
        return failure(taylor_tried(X) + (note.empty() ? "" : "\n" + note), c.report, mistake);
      });
}

// Only the shape. expected per call: {"features", ...}
Verdict judge_taylor_shape(const std::string& note, const json& rq, const json& ex,
                           const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix X = wire::to_matrix(a.at("X"));
        const Matrix got = wire::to_matrix(r.at("features"));
        const Matrix expected = wire::to_matrix(e.at("features"));
        if (got.rows() == expected.rows() && got.cols() == expected.cols()) return std::nullopt;
        return failure(
            taylor_tried(X) + "\n" + note,
            compare_matrices(expected, got, kTight, "features", "n x (1 + d + d^2)").report,
            taylor_shape_mistake(X.cols(), got));
      });
}

// Rows 0..m-1 are queries, rows m..2m-1 keys: phi(q_i)^T phi(k_i) must be 1 + s + s^2/2.
// expected per call: {"features", "kernel": the m values 1 + s + s^2/2, "suspects": kernels
// of the usual mistakes}
Verdict judge_identity(const json& rq, const json& ex, const json& rp) {
  return each_call(
      rq, ex, rp,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix X = wire::to_matrix(a.at("X"));
        const Matrix got = wire::to_matrix(r.at("features"));
        const Matrix features = wire::to_matrix(e.at("features"));
        const Eigen::Index m = X.rows() / 2, d = X.cols();
        const std::string tried =
            taylor_tried(X) + "\nRows 1.." + std::to_string(m) +
            " are queries q_i, the rest keys "
            "k_i; phi(q_i)^T phi(k_i) must equal 1 + s + s^2/2 with s = q_i^T k_i.";
        if (got.rows() != features.rows() || got.cols() != features.cols())
          return failure(
              tried,
              compare_matrices(features, got, kTight, "features", "n x (1 + d + d^2)").report,
              taylor_shape_mistake(d, got));
        Vector kernel(m);
        for (Eigen::Index i = 0; i < m; ++i) kernel(i) = got.row(i).dot(got.row(m + i));
        const Comparison c = compare_vectors(wire::to_vector(e.at("kernel")), kernel, kTight,
                                             "phi(q_i)^T phi(k_i)", "pairs");
        if (c.ok) return std::nullopt;
        return failure(tried, c.report, diagnose(Matrix(kernel), e.at("suspects")));
      });
}

Check taylor_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                   bool shape_only, std::string note) {
  return make_check(kTaylor, name, points, vis, seed,
                    [shape_only, note](const json& rq, const json& ex, const json& rp) {
                      return shape_only ? judge_taylor_shape(note, rq, ex, rp)
                                        : judge_taylor_values(note, rq, ex, rp);
                    });
}

// ---- the two byte counts -----------------------------------------------------------------

// expected per call: {"value", "explain": how the count is made up, "mistakes": int rules}
Check count_check(const char* function, const std::string& name, double points, Visibility vis,
                  std::string note) {
  return make_check(
      function, name, points, vis, 1,
      [function, note](const json& rq, const json& ex, const json& rp) {
        return each_call(
            rq, ex, rp,
            [&](std::size_t, const json& a, const json& e,
                const json& r) -> std::optional<Verdict> {
              const Int expected = e.at("value").get<Int>();
              const Int got = r.at("value").get<Int>();
              if (got == expected) return std::nullopt;
              // The arguments as the API description lists them, defaults included.
              const std::vector<api::Argument>& arguments = api::schema_of(function).arguments;
              std::string tried = std::string(function) + "(";
              for (std::size_t i = 0; i < arguments.size(); ++i)
                tried += (i ? ", " : "") + arguments[i].name + " = " +
                         std::to_string(a.at(arguments[i].name).get<Int>());
              tried += ")";
              if (!note.empty()) tried += "\n" + note;
              const std::string report = "expected " + std::to_string(expected) + ", got " +
                                         std::to_string(got) + " (exact integer comparison)\n  " +
                                         e.at("explain").get<std::string>();
              return failure(tried, report, diagnose_int(got, e.at("mistakes")));
            });
      });
}

// ---- the table -----------------------------------------------------------------------------

std::vector<Check> make_taylor_checks() {
  using std::to_string;
  const std::string based = "d = " + to_string(kBasedD) + " gives ";
  std::vector<Check> checks;
  // taylor_features: 8 points.
  checks.push_back(taylor_check(
      "features/shape", 1.5, Visibility::Visible, 1, true,
      "Only the shape is checked here: " + shape_of(kShapeX.n, taylor_width(kShapeX.d)) + "."));
  checks.push_back(
      make_check(kTaylor, "features/kernel-identity", 2.0, Visibility::Visible, 1, judge_identity));
  checks.push_back(taylor_check("features/block-order", 2.0, Visibility::Visible, 1, false,
                                "Entry by entry: 1, then x, then vec(x x^T)/sqrt(2) row-major."));
  checks.push_back(taylor_check("features/based-sizes", 1.5, Visibility::Visible, 1, false,
                                "Based's sizes: " + based + "1 + " + to_string(kBasedD) + " + " +
                                    to_string(kBasedD * kBasedD) + " = " +
                                    to_string(taylor_width(kBasedD)) + " features."));
  checks.push_back(taylor_check("features/random-hidden", 1.0, Visibility::Hidden, 23, false, ""));
  // taylor_state_bytes: 3.5 points. Arguments: d_head, d_v, n_heads, bytes_per.
  checks.push_back(count_check(
      kStateBytes, "state_bytes/based", 1.5, Visibility::Visible,
      "Based-like head: " + based + "d_phi = " + to_string(taylor_width(kBasedD)) + "."));
  checks.push_back(count_check(kStateBytes, "state_bytes/bytes-per", 1.0, Visibility::Visible,
                               "bytes_per is not always 4."));
  checks.push_back(
      count_check(kStateBytes, "state_bytes/large", 1.0, Visibility::Hidden, "Counts past 2^31."));
  // kv_cache_tokens: 3.5 points. Arguments: state_bytes, n_kv, d_k, bytes_per.
  checks.push_back(count_check(kKvTokens, "kv_tokens/ceil", 1.5, Visibility::Visible,
                               "state_bytes is not a multiple of the bytes per token."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/factor-two", 1.0, Visibility::Visible,
                               "The textbook's layer: a " + to_string(kBookStateBytes >> 20) +
                                   " MiB float32 "
                                   "state against a bf16 cache of " +
                                   to_string(kBookKvHeads) + " KV heads of " +
                                   to_string(kBookHeadDim) + " breaks even at " +
                                   to_string(kBookTokens) + " tokens."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/zero", 0.5, Visibility::Visible, ""));
  checks.push_back(count_check(kKvTokens, "kv_tokens/bytes-per", 0.5, Visibility::Visible, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration taylor_checks{"taylor", grader::make_taylor_checks};
