// Oracle half of the `taylor` checks (judge half: grader/checks/taylor.cpp): the inputs of
// each check, and per call the reference's value with the values of the usual mistakes.
#include "../common/wire.hpp"
#include "../src/oracle_half.hpp"
#include "makers.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace grader {
namespace {

using Int = std::int64_t;

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

CallsMaker x_calls(Eigen::Index n, Eigen::Index d, double scale) {
  return [=](std::uint64_t s) {
    linref::Rng rng(s);
    return json::array({json{{"X", wire::from_matrix(random_matrix(rng, n, d, scale))}}});
  };
}

// ---- the two byte counts -----------------------------------------------------------------

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

CallsMaker count_calls(const std::vector<std::string>& keys, std::vector<std::vector<Int>> cases) {
  return [keys, cases](std::uint64_t) {
    json calls = json::array();
    for (const auto& c : cases)
      calls.push_back(json{{keys[0], c[0]}, {keys[1], c[1]}, {keys[2], c[2]}, {keys[3], c[3]}});
    return calls;
  };
}

OracleTable make_taylor_oracle() {
  const std::vector<std::string> state{"d_head", "d_v", "n_heads", "bytes_per"};
  const std::vector<std::string> kv{"state_bytes", "n_kv", "d_k", "bytes_per"};
  OracleTable t;
  t.by_function["taylor_features"] = expect_features;
  t.by_check["features/kernel-identity"] = expect_identity;
  t.by_function["taylor_state_bytes"] = expect_state_bytes;
  t.by_function["kv_cache_tokens"] = expect_kv_tokens;
  t.calls["features/shape"] = x_calls(3, 4, 1.0);
  t.calls["features/kernel-identity"] = x_calls(10, 3, 0.8);
  t.calls["features/block-order"] = x_calls(4, 3, 1.0);
  t.calls["features/based-sizes"] = x_calls(2, 16, 0.3);
  t.calls["features/random-hidden"] = x_calls(7, 5, 0.7);
  t.calls["state_bytes/based"] = count_calls(state, {{16, 64, 16, 4}, {1, 1, 1, 4}, {2, 3, 2, 4}});
  t.calls["state_bytes/bytes-per"] = count_calls(state, {{16, 64, 16, 2}, {16, 64, 16, 8}, {4, 8, 3, 1}});
  t.calls["state_bytes/large"] = count_calls(state, {{256, 256, 64, 4}, {128, 128, 32, 4}});
  t.calls["kv_tokens/ceil"] = count_calls(kv, {{1000, 1, 4, 2}, {2097153, 8, 128, 2}, {100, 3, 5, 2}});
  t.calls["kv_tokens/factor-two"] = count_calls(kv, {{2097152, 8, 128, 2}, {1048576, 4, 64, 2}});
  t.calls["kv_tokens/zero"] = count_calls(kv, {{0, 8, 128, 2}, {0, 1, 1, 1}});
  t.calls["kv_tokens/bytes-per"] = count_calls(kv, {{1048576, 4, 64, 1}, {1048576, 4, 64, 4}, {999, 2, 3, 4}});
  return t;
}

}  // namespace
}  // namespace grader

static grader::OracleRegistrar taylor_oracle{"taylor", grader::make_taylor_oracle};
