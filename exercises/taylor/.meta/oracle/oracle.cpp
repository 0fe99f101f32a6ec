// The oracle of exercise 4, `taylor`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "mistakes.hpp"
#include "oracle/makers.hpp"
#include <cmath>
#include <limits>

#include <cstdint>
#include <string>
#include <vector>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
static const api::References taylor_reference{
    api::reference("taylor_features", &linref::taylor_features),
    api::reference("taylor_state_bytes", &linref::taylor_state_bytes),
    api::reference("kv_cache_tokens", &linref::kv_cache_tokens),
};

namespace grader {
namespace {

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
       "carries 1/sqrt(2) so that their product gives s^2/2.",
       taylor_variant(X, 0.5, false, false)},
      {"the blocks are in the wrong order: the quadratic block comes before the linear one. "
       "The order is 1, then x, then vec(x x^T)/sqrt(2).",
       taylor_variant(X, r2, true, false)},
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

void add_values(std::vector<IntRule>& rules,
                const std::vector<std::pair<std::string, Int>>& suspects) {
  for (const auto& [text, value] : suspects) rules.push_back({text, value, value});
}

json expect_state_bytes(const json& a) {
  const Int d = a.at("d_head").get<Int>(), d_v = a.at("d_v").get<Int>(),
            h = a.at("n_heads").get<Int>(), b = a.at("bytes_per").get<Int>();
  const Int expected = linref::taylor_state_bytes(d, d_v, h, b);
  const Int d_phi = 1 + d + d * d;
  std::vector<IntRule> rules;
  add_wrapped_32(rules, expected);
  add_values(
      rules,
      {
          {"z is not counted; each head holds S (d_phi x d_v) and z (d_phi).", h * d_phi * d_v * b},
          {"d_phi was taken as 1 + d (first order only); second-order Taylor features have "
           "1 + d + d^2.",
           h * ((1 + d) * d_v + 1 + d) * b},
          {"only one triangle of x x^T was counted; d_phi = 1 + d + d^2.",
           h * ((1 + d + d * (d + 1) / 2) * (d_v + 1)) * b},
          {"bytes_per was ignored (4 bytes assumed).", expected / b * 4},
          {"the result counts numbers, not bytes: multiply by bytes_per.", expected / b},
          {"n_heads was ignored: every head has its own state.", expected / h},
      });
  return json{{"value", expected},
              {"explain", "d_phi = 1 + d + d^2 = " + std::to_string(d_phi) +
                              "; per head S and z: " + std::to_string(d_phi) + " * (" +
                              std::to_string(d_v) + " + 1) numbers"},
              {"mistakes", int_rules_json(rules)}};
}

json expect_kv_tokens(const json& a) {
  const Int state = a.at("state_bytes").get<Int>(), n_kv = a.at("n_kv").get<Int>(),
            d_k = a.at("d_k").get<Int>(), b = a.at("bytes_per").get<Int>();
  const Int per_token = 2 * n_kv * d_k * b;
  const Int expected = linref::kv_cache_tokens(state, n_kv, d_k, b);
  std::vector<IntRule> rules;
  if (state == 0)
    rules.push_back(
        {"zero bytes are reached at T = 0: the smallest T whose cache holds at least "
         "0 bytes is 0.",
         std::numeric_limits<Int>::min(), std::numeric_limits<Int>::max()});
  add_values(
      rules,
      {
          {"the division was rounded down; the cache must hold at least state_bytes, so round up "
           "(ceil).",
           state / per_token},
          {"the factor 2 is missing: each token stores a key and a value, 2 n_kv d_k numbers.",
           (state + per_token / 2 - 1) / (per_token / 2)},
          {"bytes_per was ignored (2 bytes assumed).",
           (state + 4 * n_kv * d_k - 1) / (4 * n_kv * d_k)},
          {"one token too many: when state_bytes is an exact multiple of the per-token size, that "
           "quotient is already enough.",
           expected + 1},
      });
  return json{{"value", expected},
              {"explain", "one token takes 2 * n_kv * d_k * bytes_per = " +
                              std::to_string(per_token) + " bytes"},
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

OracleTable make_taylor_oracles() {
  return {
      {"features/shape", {x_calls(kShapeX), expect_features}},
      {"features/kernel-identity", {x_calls(XInputs{10, 3, 0.8}), expect_identity}},
      {"features/block-order", {x_calls(XInputs{4, 3, 1.0}), expect_features}},
      {"features/based-sizes", {x_calls(XInputs{2, kBasedD, 0.3}), expect_features}},
      {"features/random-hidden", {x_calls(XInputs{7, 5, 0.7}), expect_features}},
      {"state_bytes/based",
       {count_calls(kStateBytes, {{kBasedD, 64, 16, 4}, {1, 1, 1, 4}, {2, 3, 2, 4}}),
        expect_state_bytes}},
      {"state_bytes/bytes-per",
       {count_calls(kStateBytes, {{16, 64, 16, 2}, {16, 64, 16, 8}, {4, 8, 3, 1}}),
        expect_state_bytes}},
      {"state_bytes/large", {calls_large_state, expect_state_bytes}},
      {"kv_tokens/ceil",
       {count_calls(kKvTokens, {{1000, 1, 4, 2}, {2097153, 8, 128, 2}, {100, 3, 5, 2}}),
        expect_kv_tokens}},
      {"kv_tokens/factor-two",
       {count_calls(kKvTokens, {{kBookStateBytes, kBookKvHeads, kBookHeadDim, kBf16Bytes},
                                {1048576, 4, 64, 2}}),
        expect_kv_tokens}},
      {"kv_tokens/zero",
       {count_calls(kKvTokens, {{0, 8, 128, 2}, {0, 1, 1, 1}}), expect_kv_tokens}},
      {"kv_tokens/bytes-per",
       {count_calls(kKvTokens, {{1048576, 4, 64, 1}, {1048576, 4, 64, 4}, {999, 2, 3, 4}}),
        expect_kv_tokens}},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration taylor_oracles{"taylor", grader::make_taylor_oracles};
