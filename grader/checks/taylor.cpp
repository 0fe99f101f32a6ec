// Checks of exercise 4, `taylor` (15 points): taylor_features (8), taylor_state_bytes (3.5)
// and kv_cache_tokens (3.5). Judge half: the table and the judges; the inputs, expected values
// and the values of the usual mistakes come from grader/oracle/taylor.cpp.
//
// The feature checks test the kernel identity 1 + s + s^2/2 on its own, then the exact
// layout; the byte counts are exact integers.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../common/api.hpp"
#include "taylor.hpp"

// ==== API =====================================================================================

// X: (n, d) -> features: (n, 1 + d + d^2).
static const api::Exercise taylor_api{"taylor", {
    api::function(LINATTN_SIGNATURE(taylor_features), {"X"}, {"features"}),
    api::function(LINATTN_SIGNATURE(taylor_state_bytes),
                  {"d_head", "d_v", "n_heads", {"bytes_per", 4}}, {"value"}),
    api::function(LINATTN_SIGNATURE(kv_cache_tokens),
                  {"state_bytes", "n_kv", "d_k", {"bytes_per", 2}}, {"value"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../common/wire.hpp"
#include "../src/check.hpp"
#include "../src/compare.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

const char* kTaylor = "taylor_features";
const char* kStateBytes = "taylor_state_bytes";
const char* kKvTokens = "kv_cache_tokens";

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
  const Eigen::Index d = X.cols();
  return std::string(kTaylor) + "(X: " + shape_of(X) + "), expecting " +
         shape_of(X.rows(), 1 + d + d * d) + " = n x (1 + d + d^2)";
}

// Entry by entry. expected per call: {"features", "suspects"}
Verdict judge_taylor_values(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Comparison c = compare_matrices(wire::to_matrix(e.at("features")), got, kTight,
                                          "features", "n x (1 + d + d^2)");
    if (c.ok) return std::nullopt;
    auto mistake = c.shape_ok ? diagnose(got, e.at("suspects")) : taylor_shape_mistake(X.cols(), got);
    return failure(taylor_tried(X) + (note.empty() ? "" : "\n" + note), c.report, mistake);
  });
}

// Only the shape. expected per call: {"features", ...}
Verdict judge_taylor_shape(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Matrix expected = wire::to_matrix(e.at("features"));
    if (got.rows() == expected.rows() && got.cols() == expected.cols()) return std::nullopt;
    return failure(taylor_tried(X) + "\n" + note,
                   compare_matrices(expected, got, kTight, "features", "n x (1 + d + d^2)").report,
                   taylor_shape_mistake(X.cols(), got));
  });
}

// Rows 0..m-1 are queries, rows m..2m-1 keys: phi(q_i)^T phi(k_i) must be 1 + s + s^2/2.
// expected per call: {"features", "kernel": the m values 1 + s + s^2/2, "suspects": kernels
// of the usual mistakes}
Verdict judge_identity(const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Matrix features = wire::to_matrix(e.at("features"));
    const Eigen::Index m = X.rows() / 2, d = X.cols();
    const std::string tried =
        taylor_tried(X) + "\nRows 1.." + std::to_string(m) + " are queries q_i, the rest keys "
        "k_i; phi(q_i)^T phi(k_i) must equal 1 + s + s^2/2 with s = q_i^T k_i.";
    if (got.rows() != features.rows() || got.cols() != features.cols())
      return failure(tried, compare_matrices(features, got, kTight, "features", "n x (1 + d + d^2)").report,
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

using Int = std::int64_t;

// expected per call: {"value", "explain": how the count is made up, "mistakes": int rules}
Check count_check(const char* function, const std::string& name, double points, Visibility vis,
                  std::string note) {
  const bool state = std::string(function) == kStateBytes;
  const std::vector<std::string> keys =
      state ? std::vector<std::string>{"d_head", "d_v", "n_heads", "bytes_per"}
            : std::vector<std::string>{"state_bytes", "n_kv", "d_k", "bytes_per"};
  return make_check(
      function, name, points, vis, 1,
      [function, keys, note](const json& rq, const json& ex, const json& rp) {
        return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                         const json& r) -> std::optional<Verdict> {
          const Int expected = e.at("value").get<Int>();
          const Int got = r.at("value").get<Int>();
          if (got == expected) return std::nullopt;
          std::string tried = std::string(function) + "(";
          for (std::size_t i = 0; i < keys.size(); ++i)
            tried += (i ? ", " : "") + keys[i] + " = " + std::to_string(a.at(keys[i]).get<Int>());
          tried += ")";
          if (!note.empty()) tried += "\n" + note;
          const std::string report = "expected " + std::to_string(expected) + ", got " +
                                     std::to_string(got) + " (exact integer comparison)\n  " +
                                     e.at("explain").get<std::string>();
          return failure(tried, report, diagnose_int(got, e.at("mistakes")));
        });
      });
}

std::vector<Check> make_taylor_checks() {
  std::vector<Check> checks;
  // taylor_features: 8 points.
  checks.push_back(taylor_check("features/shape", 1.5, Visibility::Visible, 1, true,
                                "Only the shape is checked here: 3 x 21."));
  checks.push_back(make_check(kTaylor, "features/kernel-identity", 2.0, Visibility::Visible, 1,
                              judge_identity));
  checks.push_back(taylor_check("features/block-order", 2.0, Visibility::Visible, 1, false,
                                "Entry by entry: 1, then x, then vec(x x^T)/sqrt(2) row-major."));
  checks.push_back(taylor_check("features/based-sizes", 1.5, Visibility::Visible, 1, false,
                                "Based's sizes: d = 16 gives 1 + 16 + 256 = 273 features."));
  checks.push_back(taylor_check("features/random-hidden", 1.0, Visibility::Hidden, 23, false, ""));
  // taylor_state_bytes: 3.5 points.
  checks.push_back(count_check(kStateBytes, "state_bytes/based", 1.5, Visibility::Visible,
                               "Based-like head: d = 16 gives d_phi = 273."));
  checks.push_back(count_check(kStateBytes, "state_bytes/bytes-per", 1.0, Visibility::Visible,
                               "bytes_per is not always 4."));
  checks.push_back(count_check(kStateBytes, "state_bytes/large", 1.0, Visibility::Hidden,
                               "Counts past 2^31."));
  // kv_cache_tokens: 3.5 points.
  checks.push_back(count_check(kKvTokens, "kv_tokens/ceil", 1.5, Visibility::Visible,
                               "state_bytes is not a multiple of the bytes per token."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/factor-two", 1.0, Visibility::Visible,
                               "The textbook's layer: a 2 MiB float32 state against a bf16 cache "
                               "of 8 KV heads of 128 breaks even at 512 tokens."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/zero", 0.5, Visibility::Visible, ""));
  checks.push_back(count_check(kKvTokens, "kv_tokens/bytes-per", 0.5, Visibility::Visible, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar taylor_registrar{"taylor", grader::make_taylor_checks};

#endif  // LINATTN_RUNNER
