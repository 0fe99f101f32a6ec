// Checks of exercise 4, `taylor` (15 points): taylor_features (8), taylor_state_bytes (3.5)
// and kv_cache_tokens (3.5). The inputs, expected values and the values of the usual mistakes
// come from the reference, in the oracle regions (the slipped copies of taylor_features are in
// oracle/mistakes.cpp).
//
// The feature checks test the kernel identity 1 + s + s^2/2 on its own, then the exact
// layout; the byte counts are exact integers.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../../common/api.hpp"
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

#include "../../common/wire.hpp"
#include "../../src/api_registry.hpp"
#include "../../src/check.hpp"
#include "../../src/compare.hpp"

#include <cstdint>
#include <string>
#include <vector>

#ifdef LINATTN_ORACLE
#include "../../oracle/makers.hpp"
#include "oracle/mistakes.hpp"

#include <cmath>
#include <limits>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References taylor_reference{
    api::reference("taylor_features", &linref::taylor_features),
    api::reference("taylor_state_bytes", &linref::taylor_state_bytes),
    api::reference("kv_cache_tokens", &linref::kv_cache_tokens),
};
#endif

namespace grader {
namespace {

using Int = std::int64_t;

const char* kTaylor = "taylor_features";
const char* kStateBytes = "taylor_state_bytes";
const char* kKvTokens = "kv_cache_tokens";

// ---- the inputs the judge's notes describe -------------------------------------------------

// One taylor_features call: X (n, d) with entries N(0, 1) * scale.
struct XInputs {
  Eigen::Index n, d;
  double scale;
};
const XInputs kShapeX{3, 4, 1.0};
// Based's head width: d = 16, so 1 + 16 + 256 = 273 features.
constexpr Int kBasedD = 16;

// The textbook's layer: a 2 MiB float32 state against a bf16 KV cache of 8 heads of 128.
constexpr Int kBookStateBytes = Int{2} << 20;
constexpr Int kBookKvHeads = 8, kBookHeadDim = 128, kBf16Bytes = 2;
// An exact quotient (512): the break-even point, with no rounding to get wrong.
constexpr Int kBookTokens = kBookStateBytes / (2 * kBookKvHeads * kBookHeadDim * kBf16Bytes);

Int taylor_width(Int d) { return 1 + d + d * d; }

#ifdef LINATTN_ORACLE
// ==== oracle: calls, and what the reference says of each ====================================
// The slipped copies of taylor_features are in oracle/mistakes.*.
using taylor::taylor_variant;

// ---- taylor_features ---------------------------------------------------------------------

auto x_calls(XInputs in) {
  return [in](std::uint64_t seed) {
    linref::Rng rng(seed);
    return json::array({json{{"X", wire::from_matrix(random_matrix(rng, in.n, in.d, in.scale))}}});
  };
}

std::vector<Suspect> taylor_suspects(const Matrix& X) {
  const double r2 = 1.0 / std::sqrt(2.0);
  return {
      {"the quadratic block is missing its 1/sqrt(2); the kernel becomes 1 + s + s^2.",
       taylor_variant(X, 1.0, false, false)},
      {"the quadratic block is divided by 2 instead of sqrt(2); each of the two features "
       "carries 1/sqrt(2) so that their product gives s^2/2.", taylor_variant(X, 0.5, false, false)},
      {"the blocks are in the wrong order: the quadratic block comes before the linear one. "
       "The order is 1, then x, then vec(x x^T)/sqrt(2).", taylor_variant(X, r2, true, false)},
      {"the constant feature is at the end; it comes first.", taylor_variant(X, r2, false, true)},
  };
}

json expect_features(const json& a) {
  const Matrix X = wire::to_matrix(a.at("X"));
  return json{{"features", wire::from_matrix(linref::taylor_features(X))},
              {"suspects", suspects_json(taylor_suspects(X))}};
}

// The kernel-identity check: rows 0..m-1 are queries, rows m..2m-1 keys.
json expect_identity(const json& a) {
  const Matrix X = wire::to_matrix(a.at("X"));
  const Eigen::Index m = X.rows() / 2;
  Vector expected(m), plain(m), half(m), linear(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const double s = X.row(i).dot(X.row(m + i));
    expected(i) = 1.0 + s + s * s / 2.0;
    plain(i) = 1.0 + s + s * s;
    half(i) = 1.0 + s + s * s / 4.0;
    linear(i) = 1.0 + s;
  }
  const std::vector<Suspect> suspects{
      {"the kernel is 1 + s + s^2: the quadratic features lack their 1/sqrt(2).", plain},
      {"the kernel is 1 + s + s^2/4: the quadratic features were divided by 2, not sqrt(2).", half},
      {"the kernel is 1 + s: the quadratic features add nothing.", linear}};
  return json{{"features", wire::from_matrix(linref::taylor_features(X))},
              {"kernel", wire::from_vector(expected)},
              {"suspects", suspects_json(suspects)}};
}

// ---- the two byte counts -----------------------------------------------------------------

// Each case lists its arguments in the order of the API description.
auto count_calls(const char* function, std::vector<std::vector<Int>> cases) {
  return [function, cases](std::uint64_t) {
    const std::vector<api::Argument>& arguments = api::schema_of(function).arguments;
    json calls = json::array();
    for (const auto& c : cases) {
      json call = json::object();
      for (std::size_t i = 0; i < arguments.size(); ++i) call[arguments[i].name] = c.at(i);
      calls.push_back(call);
    }
    return calls;
  };
}

void add_wrapped_32(std::vector<IntRule>& rules, Int expected) {
  if (expected <= INT32_MAX) return;
  const std::string text = "the count overflowed 32-bit arithmetic (it is " +
                           std::to_string(expected) + "); compute in std::int64_t.";
  const Int s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(expected));
  const Int u32 = static_cast<Int>(static_cast<std::uint32_t>(expected));
  rules.push_back({text, std::numeric_limits<Int>::min(), -1});
  rules.push_back({text, s32, s32});
  rules.push_back({text, u32, u32});
}

void add_values(std::vector<IntRule>& rules, const std::vector<std::pair<std::string, Int>>& suspects) {
  for (const auto& [text, value] : suspects) rules.push_back({text, value, value});
}

json expect_state_bytes(const json& a) {
  const Int d = a.at("d_head").get<Int>(), d_v = a.at("d_v").get<Int>(),
            h = a.at("n_heads").get<Int>(), b = a.at("bytes_per").get<Int>();
  const Int expected = linref::taylor_state_bytes(d, d_v, h, b);
  const Int d_phi = 1 + d + d * d;
  std::vector<IntRule> rules;
  add_wrapped_32(rules, expected);
  add_values(rules, {
      {"z is not counted; each head holds S (d_phi x d_v) and z (d_phi).", h * d_phi * d_v * b},
      {"d_phi was taken as 1 + d (first order only); second-order Taylor features have "
       "1 + d + d^2.", h * ((1 + d) * d_v + 1 + d) * b},
      {"only one triangle of x x^T was counted; d_phi = 1 + d + d^2.",
       h * ((1 + d + d * (d + 1) / 2) * (d_v + 1)) * b},
      {"bytes_per was ignored (4 bytes assumed).", expected / b * 4},
      {"the result counts numbers, not bytes: multiply by bytes_per.", expected / b},
      {"n_heads was ignored: every head has its own state.", expected / h},
  });
  return json{{"value", expected},
              {"explain", "d_phi = 1 + d + d^2 = " + std::to_string(d_phi) + "; per head S and z: " +
                              std::to_string(d_phi) + " * (" + std::to_string(d_v) + " + 1) numbers"},
              {"mistakes", int_rules_json(rules)}};
}

json expect_kv_tokens(const json& a) {
  const Int state = a.at("state_bytes").get<Int>(), n_kv = a.at("n_kv").get<Int>(),
            d_k = a.at("d_k").get<Int>(), b = a.at("bytes_per").get<Int>();
  const Int per_token = 2 * n_kv * d_k * b;
  const Int expected = linref::kv_cache_tokens(state, n_kv, d_k, b);
  std::vector<IntRule> rules;
  if (state == 0)
    rules.push_back({"zero bytes are reached at T = 0: the smallest T whose cache holds at least "
                     "0 bytes is 0.", std::numeric_limits<Int>::min(), std::numeric_limits<Int>::max()});
  add_values(rules, {
      {"the division was rounded down; the cache must hold at least state_bytes, so round up "
       "(ceil).", state / per_token},
      {"the factor 2 is missing: each token stores a key and a value, 2 n_kv d_k numbers.",
       (state + per_token / 2 - 1) / (per_token / 2)},
      {"bytes_per was ignored (2 bytes assumed).", (state + 4 * n_kv * d_k - 1) / (4 * n_kv * d_k)},
      {"one token too many: when state_bytes is an exact multiple of the per-token size, that "
       "quotient is already enough.", expected + 1},
  });
  return json{{"value", expected},
              {"explain", "one token takes 2 * n_kv * d_k * bytes_per = " + std::to_string(per_token) + " bytes"},
              {"mistakes", int_rules_json(rules)}};
}
// The hidden count's sizes, drawn from the seed (course grading's seeds are secret, so no
// recorded table answers it): a layer whose count passes 2^31 (d_head >= 240, d_v >= 200,
// n_heads >= 48 give at least 57841 * 201 * 48 * 4 bytes) and one of ordinary size.
json calls_large_state(std::uint64_t seed) {
  linref::Rng rng(seed);
  const Int d = random_size(rng, 240, 300), d_v = random_size(rng, 200, 300);
  const Int heads = random_size(rng, 48, 64);
  const Int d2 = random_size(rng, 64, 160), d_v2 = random_size(rng, 32, 160);
  const Int heads2 = random_size(rng, 8, 40);
  return count_calls(kStateBytes, {{d, d_v, heads, 4}, {d2, d_v2, heads2, 4}})(seed);
}

#endif  // LINATTN_ORACLE

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
Verdict judge_taylor_values(const std::string& note, const json& rq, const json& ex, const json& rp) {
  return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
                                   const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Comparison c = compare_matrices(wire::to_matrix(e.at("features")), got, kTight,
                                          "features", "n x (1 + d + d^2)");
    if (c.ok) return std::nullopt;
    auto mistake = c.shape_ok ? diagnose(got, e.at("suspects")) : taylor_shape_mistake(X.cols(), got);
    if (!mistake) mistake = c.unwritten;  // rows left as allocated
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

// expected per call: {"value", "explain": how the count is made up, "mistakes": int rules}
Check count_check(const char* function, const std::string& name, double points, Visibility vis,
                  std::string note) {
  return make_check(
      function, name, points, vis, 1,
      [function, note](const json& rq, const json& ex, const json& rp) {
        return each_call(rq, ex, rp, [&](std::size_t, const json& a, const json& e,
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
  checks.push_back(with_oracle(
      taylor_check("features/shape", 1.5, Visibility::Visible, 1, true,
                   "Only the shape is checked here: " +
                       shape_of(kShapeX.n, taylor_width(kShapeX.d)) + "."),
      LINATTN_ORACLE_OF(x_calls(kShapeX), expect_features)));
  checks.push_back(with_oracle(
      make_check(kTaylor, "features/kernel-identity", 2.0, Visibility::Visible, 1, judge_identity),
      LINATTN_ORACLE_OF(x_calls(XInputs{10, 3, 0.8}), expect_identity)));
  checks.push_back(with_oracle(
      taylor_check("features/block-order", 2.0, Visibility::Visible, 1, false,
                   "Entry by entry: 1, then x, then vec(x x^T)/sqrt(2) row-major."),
      LINATTN_ORACLE_OF(x_calls(XInputs{4, 3, 1.0}), expect_features)));
  checks.push_back(with_oracle(
      taylor_check("features/based-sizes", 1.5, Visibility::Visible, 1, false,
                   "Based's sizes: " + based + "1 + " + to_string(kBasedD) + " + " +
                       to_string(kBasedD * kBasedD) + " = " + to_string(taylor_width(kBasedD)) +
                       " features."),
      LINATTN_ORACLE_OF(x_calls(XInputs{2, kBasedD, 0.3}), expect_features)));
  checks.push_back(with_oracle(
      taylor_check("features/random-hidden", 1.0, Visibility::Hidden, 23, false, ""),
      LINATTN_ORACLE_OF(x_calls(XInputs{7, 5, 0.7}), expect_features)));
  // taylor_state_bytes: 3.5 points. Arguments: d_head, d_v, n_heads, bytes_per.
  checks.push_back(with_oracle(
      count_check(kStateBytes, "state_bytes/based", 1.5, Visibility::Visible,
                  "Based-like head: " + based + "d_phi = " + to_string(taylor_width(kBasedD)) + "."),
      LINATTN_ORACLE_OF(count_calls(kStateBytes, {{kBasedD, 64, 16, 4}, {1, 1, 1, 4}, {2, 3, 2, 4}}),
                        expect_state_bytes)));
  checks.push_back(with_oracle(
      count_check(kStateBytes, "state_bytes/bytes-per", 1.0, Visibility::Visible,
                  "bytes_per is not always 4."),
      LINATTN_ORACLE_OF(count_calls(kStateBytes, {{16, 64, 16, 2}, {16, 64, 16, 8}, {4, 8, 3, 1}}),
                        expect_state_bytes)));
  checks.push_back(with_oracle(
      count_check(kStateBytes, "state_bytes/large", 1.0, Visibility::Hidden, "Counts past 2^31."),
      LINATTN_ORACLE_OF(calls_large_state, expect_state_bytes)));
  // kv_cache_tokens: 3.5 points. Arguments: state_bytes, n_kv, d_k, bytes_per.
  checks.push_back(with_oracle(
      count_check(kKvTokens, "kv_tokens/ceil", 1.5, Visibility::Visible,
                  "state_bytes is not a multiple of the bytes per token."),
      LINATTN_ORACLE_OF(count_calls(kKvTokens, {{1000, 1, 4, 2}, {2097153, 8, 128, 2}, {100, 3, 5, 2}}),
                        expect_kv_tokens)));
  checks.push_back(with_oracle(
      count_check(kKvTokens, "kv_tokens/factor-two", 1.0, Visibility::Visible,
                  "The textbook's layer: a " + to_string(kBookStateBytes >> 20) + " MiB float32 "
                  "state against a bf16 cache of " + to_string(kBookKvHeads) + " KV heads of " +
                  to_string(kBookHeadDim) + " breaks even at " + to_string(kBookTokens) +
                  " tokens."),
      LINATTN_ORACLE_OF(count_calls(kKvTokens, {{kBookStateBytes, kBookKvHeads, kBookHeadDim, kBf16Bytes},
                                                {1048576, 4, 64, 2}}),
                        expect_kv_tokens)));
  checks.push_back(with_oracle(
      count_check(kKvTokens, "kv_tokens/zero", 0.5, Visibility::Visible, ""),
      LINATTN_ORACLE_OF(count_calls(kKvTokens, {{0, 8, 128, 2}, {0, 1, 1, 1}}), expect_kv_tokens)));
  checks.push_back(with_oracle(
      count_check(kKvTokens, "kv_tokens/bytes-per", 0.5, Visibility::Visible, ""),
      LINATTN_ORACLE_OF(count_calls(kKvTokens, {{1048576, 4, 64, 1}, {1048576, 4, 64, 4}, {999, 2, 3, 4}}),
                        expect_kv_tokens)));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar taylor_registrar{"taylor", grader::make_taylor_checks};

#endif  // LINATTN_RUNNER
