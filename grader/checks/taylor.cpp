// Checks of exercise 4, `taylor` (15 points): taylor_features (8), taylor_state_bytes (3.5)
// and kv_cache_tokens (3.5). The feature checks test the kernel identity 1 + s + s^2/2 on its
// own, then the exact layout; the byte counts are exact integers.
#include "../common/wire.hpp"
#include "../src/check.hpp"
#include "../src/compare.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

const char* kTaylor = "taylor_features";
const char* kStateBytes = "taylor_state_bytes";
const char* kKvTokens = "kv_cache_tokens";

// ---- taylor_features ---------------------------------------------------------------------

// Features built from blocks [constant | linear | quadratic * qscale], in a chosen order.
Matrix taylor_variant(const Matrix& X, double qscale, bool quadratic_first, bool constant_last) {
  const Eigen::Index n = X.rows(), d = X.cols();
  Matrix F(n, 1 + d + d * d);
  for (Eigen::Index r = 0; r < n; ++r) {
    Eigen::RowVectorXd quad(d * d);
    for (Eigen::Index i = 0; i < d; ++i)
      for (Eigen::Index j = 0; j < d; ++j) quad(i * d + j) = X(r, i) * X(r, j) * qscale;
    Eigen::RowVectorXd row(1 + d + d * d);
    Eigen::Index at = 0;
    if (!constant_last) row(at++) = 1.0;
    if (quadratic_first) { row.segment(at, d * d) = quad; at += d * d; }
    row.segment(at, d) = X.row(r); at += d;
    if (!quadratic_first) { row.segment(at, d * d) = quad; at += d * d; }
    if (constant_last) row(at++) = 1.0;
    F.row(r) = row;
  }
  return F;
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

json x_call(const Matrix& X) { return json{{"X", wire::from_matrix(X)}}; }

std::string taylor_tried(const Matrix& X) {
  const Eigen::Index d = X.cols();
  return std::string(kTaylor) + "(X: " + shape_of(X) + "), expecting " +
         shape_of(X.rows(), 1 + d + d * d) + " = n x (1 + d + d^2)";
}

// Entry by entry against the reference.
Verdict judge_taylor_values(const std::string& note, const json& rq, const json& rp) {
  return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Comparison c =
        compare_matrices(linref::taylor_features(X), got, kTight, "features", "n x (1 + d + d^2)");
    if (c.ok) return std::nullopt;
    auto mistake = c.shape_ok ? diagnose(got, taylor_suspects(X)) : taylor_shape_mistake(X.cols(), got);
    return failure(taylor_tried(X) + (note.empty() ? "" : "\n" + note), c.report, mistake);
  });
}

// Rows 0..m-1 are queries, rows m..2m-1 keys: phi(q_i)^T phi(k_i) must be 1 + s + s^2/2.
Verdict judge_identity(const json& rq, const json& rp) {
  return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
    const Matrix X = wire::to_matrix(a.at("X"));
    const Matrix got = wire::to_matrix(r.at("features"));
    const Eigen::Index m = X.rows() / 2, d = X.cols();
    const std::string tried =
        taylor_tried(X) + "\nRows 1.." + std::to_string(m) + " are queries q_i, the rest keys "
        "k_i; phi(q_i)^T phi(k_i) must equal 1 + s + s^2/2 with s = q_i^T k_i.";
    if (got.rows() != X.rows() || got.cols() != 1 + d + d * d)
      return failure(tried, compare_matrices(linref::taylor_features(X), got, kTight, "features",
                                             "n x (1 + d + d^2)").report,
                     taylor_shape_mistake(d, got));
    Vector expected(m), kernel(m), plain(m), half(m), linear(m);
    for (Eigen::Index i = 0; i < m; ++i) {
      const double s = X.row(i).dot(X.row(m + i));
      expected(i) = 1.0 + s + s * s / 2.0;
      kernel(i) = got.row(i).dot(got.row(m + i));
      plain(i) = 1.0 + s + s * s;
      half(i) = 1.0 + s + s * s / 4.0;
      linear(i) = 1.0 + s;
    }
    const Comparison c = compare_vectors(expected, kernel, kTight, "phi(q_i)^T phi(k_i)", "pairs");
    if (c.ok) return std::nullopt;
    return failure(tried, c.report,
                   diagnose(Matrix(kernel), {{"the kernel is 1 + s + s^2: the quadratic "
                                              "features lack their 1/sqrt(2).", plain},
                                             {"the kernel is 1 + s + s^2/4: the quadratic "
                                              "features were divided by 2, not sqrt(2).", half},
                                             {"the kernel is 1 + s: the quadratic features add "
                                              "nothing.", linear}}));
  });
}

Check taylor_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                   Eigen::Index n, Eigen::Index d, double scale, bool shape_only, std::string note) {
  return make_check(
      kTaylor, name, points, vis, seed,
      [=](std::uint64_t s) {
        linref::Rng rng(s);
        return json::array({x_call(random_matrix(rng, n, d, scale))});
      },
      [shape_only, note](const json& rq, const json& rp) {
        if (!shape_only) return judge_taylor_values(note, rq, rp);
        return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
          const Matrix X = wire::to_matrix(a.at("X"));
          const Matrix got = wire::to_matrix(r.at("features"));
          const Eigen::Index d = X.cols();
          if (got.rows() == X.rows() && got.cols() == 1 + d + d * d) return std::nullopt;
          return failure(taylor_tried(X) + "\n" + note,
                         compare_matrices(linref::taylor_features(X), got, kTight, "features",
                                          "n x (1 + d + d^2)").report,
                         taylor_shape_mistake(d, got));
        });
      });
}

// ---- the two byte counts -----------------------------------------------------------------

using Int = std::int64_t;

std::optional<std::string> wrapped_32(Int expected, Int got) {
  if (expected <= INT32_MAX) return std::nullopt;
  if (got < 0 || got == static_cast<std::int32_t>(static_cast<std::uint32_t>(expected)) ||
      got == static_cast<Int>(static_cast<std::uint32_t>(expected)))
    return "the count overflowed 32-bit arithmetic (it is " + std::to_string(expected) +
           "); compute in std::int64_t.";
  return std::nullopt;
}

std::optional<std::string> state_bytes_mistake(Int d, Int d_v, Int h, Int b, Int got) {
  const Int expected = linref::taylor_state_bytes(d, d_v, h, b);
  if (auto m = wrapped_32(expected, got)) return m;
  const Int d_phi = 1 + d + d * d;
  const std::vector<ScalarSuspect> suspects{
      {"z is not counted; each head holds S (d_phi x d_v) and z (d_phi).",
       static_cast<double>(h * d_phi * d_v * b)},
      {"d_phi was taken as 1 + d (first order only); second-order Taylor features have "
       "1 + d + d^2.", static_cast<double>(h * ((1 + d) * d_v + 1 + d) * b)},
      {"only one triangle of x x^T was counted; d_phi = 1 + d + d^2.",
       static_cast<double>(h * ((1 + d + d * (d + 1) / 2) * (d_v + 1)) * b)},
      {"bytes_per was ignored (4 bytes assumed).", static_cast<double>(expected / b * 4)},
      {"the result counts numbers, not bytes: multiply by bytes_per.",
       static_cast<double>(expected / b)},
      {"n_heads was ignored: every head has its own state.", static_cast<double>(expected / h)},
  };
  return diagnose_scalar(static_cast<double>(got), suspects, kExact);
}

std::optional<std::string> kv_tokens_mistake(Int state, Int n_kv, Int d_k, Int b, Int got) {
  const Int per_token = 2 * n_kv * d_k * b;
  const Int expected = linref::kv_cache_tokens(state, n_kv, d_k, b);
  if (state == 0 && got != 0)
    return "zero bytes are reached at T = 0: the smallest T whose cache holds at least 0 bytes "
           "is 0.";
  const std::vector<ScalarSuspect> suspects{
      {"the division was rounded down; the cache must hold at least state_bytes, so round up "
       "(ceil).", static_cast<double>(state / per_token)},
      {"the factor 2 is missing: each token stores a key and a value, 2 n_kv d_k numbers.",
       static_cast<double>((state + per_token / 2 - 1) / (per_token / 2))},
      {"bytes_per was ignored (2 bytes assumed).",
       static_cast<double>((state + 4 * n_kv * d_k - 1) / (4 * n_kv * d_k))},
      {"one token too many: when state_bytes is an exact multiple of the per-token size, that "
       "quotient is already enough.", static_cast<double>(expected + 1)},
  };
  return diagnose_scalar(static_cast<double>(got), suspects, kExact);
}

Check count_check(const char* function, const std::string& name, double points, Visibility vis,
                  std::vector<std::vector<Int>> cases, std::string note) {
  const bool state = std::string(function) == kStateBytes;
  const std::vector<std::string> keys =
      state ? std::vector<std::string>{"d_head", "d_v", "n_heads", "bytes_per"}
            : std::vector<std::string>{"state_bytes", "n_kv", "d_k", "bytes_per"};
  return make_check(
      function, name, points, vis, 1,
      [cases, keys](std::uint64_t) {
        json calls = json::array();
        for (const auto& c : cases)
          calls.push_back(json{{keys[0], c[0]}, {keys[1], c[1]}, {keys[2], c[2]}, {keys[3], c[3]}});
        return calls;
      },
      [function, state, keys, note](const json& rq, const json& rp) {
        return each_call(rq, rp, [&](std::size_t, const json& a, const json& r) -> std::optional<Verdict> {
          Int v[4];
          for (int i = 0; i < 4; ++i) v[i] = a.at(keys[static_cast<std::size_t>(i)]).get<Int>();
          const Int expected = state ? linref::taylor_state_bytes(v[0], v[1], v[2], v[3])
                                     : linref::kv_cache_tokens(v[0], v[1], v[2], v[3]);
          const Int got = r.at("value").get<Int>();
          if (got == expected) return std::nullopt;
          std::string tried = std::string(function) + "(";
          for (int i = 0; i < 4; ++i)
            tried += (i ? ", " : "") + keys[static_cast<std::size_t>(i)] + " = " + std::to_string(v[i]);
          tried += ")";
          if (!note.empty()) tried += "\n" + note;
          std::string report = "expected " + std::to_string(expected) + ", got " +
                               std::to_string(got) + " (exact integer comparison)";
          if (state) {
            const Int d_phi = 1 + v[0] + v[0] * v[0];
            report += "\n  d_phi = 1 + d + d^2 = " + std::to_string(d_phi) + "; per head S and z: " +
                      std::to_string(d_phi) + " * (" + std::to_string(v[1]) + " + 1) numbers";
          } else {
            report += "\n  one token takes 2 * n_kv * d_k * bytes_per = " +
                      std::to_string(2 * v[1] * v[2] * v[3]) + " bytes";
          }
          return failure(tried, report,
                         state ? state_bytes_mistake(v[0], v[1], v[2], v[3], got)
                               : kv_tokens_mistake(v[0], v[1], v[2], v[3], got));
        });
      });
}

std::vector<Check> make_taylor_checks() {
  std::vector<Check> checks;
  // taylor_features: 8 points.
  checks.push_back(taylor_check("features/shape", 1.5, Visibility::Visible, 1, 3, 4, 1.0, true,
                                "Only the shape is checked here: 3 x 21."));
  checks.push_back(make_check(
      kTaylor, "features/kernel-identity", 2.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return json::array({x_call(random_matrix(rng, 10, 3, 0.8))});
      },
      judge_identity));
  checks.push_back(taylor_check("features/block-order", 2.0, Visibility::Visible, 1, 4, 3, 1.0,
                                false, "Entry by entry: 1, then x, then vec(x x^T)/sqrt(2) "
                                       "row-major."));
  checks.push_back(taylor_check("features/based-sizes", 1.5, Visibility::Visible, 1, 2, 16, 0.3,
                                false, "Based's sizes: d = 16 gives 1 + 16 + 256 = 273 features."));
  checks.push_back(taylor_check("features/random-hidden", 1.0, Visibility::Hidden, 23, 7, 5, 0.7,
                                false, ""));
  // taylor_state_bytes: 3.5 points.
  checks.push_back(count_check(kStateBytes, "state_bytes/based", 1.5, Visibility::Visible,
                               {{16, 64, 16, 4}, {1, 1, 1, 4}, {2, 3, 2, 4}},
                               "Based-like head: d = 16 gives d_phi = 273."));
  checks.push_back(count_check(kStateBytes, "state_bytes/bytes-per", 1.0, Visibility::Visible,
                               {{16, 64, 16, 2}, {16, 64, 16, 8}, {4, 8, 3, 1}},
                               "bytes_per is not always 4."));
  checks.push_back(count_check(kStateBytes, "state_bytes/large", 1.0, Visibility::Hidden,
                               {{256, 256, 64, 4}, {128, 128, 32, 4}}, "Counts past 2^31."));
  // kv_cache_tokens: 3.5 points.
  checks.push_back(count_check(kKvTokens, "kv_tokens/ceil", 1.5, Visibility::Visible,
                               {{1000, 1, 4, 2}, {2097153, 8, 128, 2}, {100, 3, 5, 2}},
                               "state_bytes is not a multiple of the bytes per token."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/factor-two", 1.0, Visibility::Visible,
                               {{2097152, 8, 128, 2}, {1048576, 4, 64, 2}},
                               "The textbook's layer: a 2 MiB float32 state against a bf16 cache "
                               "of 8 KV heads of 128 breaks even at 512 tokens."));
  checks.push_back(count_check(kKvTokens, "kv_tokens/zero", 0.5, Visibility::Visible,
                               {{0, 8, 128, 2}, {0, 1, 1, 1}}, ""));
  checks.push_back(count_check(kKvTokens, "kv_tokens/bytes-per", 0.5, Visibility::Visible,
                               {{1048576, 4, 64, 1}, {1048576, 4, 64, 4}, {999, 2, 3, 4}}, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar taylor_registrar{
    "taylor", {"taylor_features", "taylor_state_bytes", "kv_cache_tokens"},
    grader::make_taylor_checks};
