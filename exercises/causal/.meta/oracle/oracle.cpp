// The oracle of exercise 2, `causal`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "checks/shared/time_rule.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "mistakes.hpp"
#include "oracle/makers.hpp"
#include "probes.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// The reference's functions, called through the same description (for tests that fake a
// runner, and for any check that wants the reference's plain outputs).
namespace api {
template <>
struct Fields<linref::DecodeStep> {
  static auto of(const linref::DecodeStep& s) { return std::tie(s.o, s.S, s.z); }
};
}  // namespace api
static const api::References causal_reference{
    api::reference("causal_linear_attention_recurrent", &linref::causal_linear_attention_recurrent),
    api::reference("causal_linear_attention_parallel", &linref::causal_linear_attention_parallel),
    api::reference("linear_attention_step", &linref::linear_attention_step),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================
// Most checks' calls are made in oracle/probes.*; the probes whose sizes the
// judge states too (large eps, the memory and time rules) are made here, beside those sizes.
using namespace causal;

// ---- the two whole-sequence forms --------------------------------------------------------

json expect_sequence(const json& a, causal::Form form) {
  const Matrix Q = wire::to_matrix(a.at("Q")), K = wire::to_matrix(a.at("K")),
               V = wire::to_matrix(a.at("V"));
  const double eps = a.at("eps").get<double>();
  const linref::FeatureMap phi = feature_map(a.at("phi"));
  const Matrix O = form == causal::Form::Parallel
                       ? linref::causal_linear_attention_parallel(Q, K, V, phi, eps)
                       : linref::causal_linear_attention_recurrent(Q, K, V, phi, eps);
  const Matrix FQ = phi(Q), FK = phi(K);
  return json{{"O", wire::from_matrix(O)},
              {"d_phi", FQ.cols()},
              {"suspects", FQ.rows() <= kMaxSuspectTokens
                               ? suspects_json(causal::sequence_suspects(FQ, FK, V, eps, form))
                               : json::array()}};
}
json expect_recurrent(const json& a) { return expect_sequence(a, causal::Form::Recurrent); }
json expect_parallel(const json& a) { return expect_sequence(a, causal::Form::Parallel); }
// The same probes grade both forms; each form's suspects are worded for it.
std::function<json(const json&)> sequence_expect(const std::string& function) {
  return function == kParallel ? expect_parallel : expect_recurrent;
}

json calls_large_eps(std::uint64_t s) {
  linref::Rng rng(s);
  return attn_calls({random_case(rng, 6, 3, 2, phi_spec("elu_plus_one"), kLargeEps, 1.0)});
}
json calls_memory_budget(std::uint64_t s) {
  linref::Rng rng(s);
  return attn_calls({random_case(rng, kMemT, kMemD, kMemD, phi_spec("elu_plus_one"), 0.0, 0.5)});
}
// The time rule: one problem at T and 8 T (small widths, so that work per token pair, if any,
// dominates).
json calls_linear_time(std::uint64_t s) {
  linref::Rng rng(s);
  return attn_calls({random_case(rng, kTimeT, 8, 8, phi_spec("elu_plus_one"), 0.0, 0.5),
                     random_case(rng, 8 * kTimeT, 8, 8, phi_spec("elu_plus_one"), 0.0, 0.5)});
}

// ---- the decode step ---------------------------------------------------------------------

json expect_step(const json& a) {
  const Matrix S = wire::to_matrix(a.at("S"));
  const Vector z = wire::to_vector(a.at("z")), q = wire::to_vector(a.at("q")),
               k = wire::to_vector(a.at("k")), v = wire::to_vector(a.at("v"));
  const double eps = a.at("eps").get<double>();
  const linref::FeatureMap phi = feature_map(a.at("phi"));
  const linref::DecodeStep ref = linref::linear_attention_step(S, z, q, k, v, phi, eps);
  const causal::StepSuspects sus =
      causal::step_suspects(S, z, features_of(phi, q), features_of(phi, k), k, v, eps);
  return json{
      {"o", wire::from_vector(ref.o)},
      {"S", wire::from_matrix(ref.S)},
      {"z", wire::from_vector(ref.z)},
      {"suspects",
       {{"o", suspects_json(sus.o)}, {"S", suspects_json(sus.S)}, {"z", suspects_json(sus.z)}}}};
}

json calls_step_large_eps(std::uint64_t s) {
  linref::Rng rng(s);
  return step_calls({step_after(rng, 3, 3, 2, phi_spec("elu_plus_one"), kLargeEps, 1.0)});
}

OracleTable make_causal_oracles() {
  OracleTable table{
      {"step/from-zero", {calls_step_from_zero, expect_step}},
      {"step/reproduces-recurrent", {calls_step_reproduces_recurrent, expect_step}},
      {"step/unequal-sizes", {calls_step_unequal_sizes, expect_step}},
      {"step/large-eps", {calls_step_large_eps, expect_step}},
      {"step/random-hidden", {calls_step_random_hidden, expect_step}},
      {"recurrent/memory-budget", {calls_memory_budget, expect_recurrent}},
      {"recurrent/linear-time",
       time_rule_oracle({calls_linear_time, time_rule_expect(kRecurrent, "Q")})},
  };
  // The probes the two whole-sequence forms share, each form's suspects worded for it.
  for (const auto& [fn, prefix] :
       {std::pair{kRecurrent, "recurrent"}, std::pair{kParallel, "parallel"}}) {
    const std::string p = prefix;
    table[p + "/hand-example"] = {calls_hand_example, sequence_expect(fn)};
    table[p + "/single-token"] = {calls_single_token, sequence_expect(fn)};
    table[p + "/random-taylor"] = {calls_random_taylor, sequence_expect(fn)};
    table[p + "/random-features"] = {calls_random_features, sequence_expect(fn)};
    table[p + "/elu-and-relu"] = {calls_elu_and_relu, sequence_expect(fn)};
    table[p + "/constant-values"] = {calls_constant_values, sequence_expect(fn)};
    table[p + "/large-eps"] = {calls_large_eps, sequence_expect(fn)};
    table[p + "/random-hidden"] = {calls_random_hidden, sequence_expect(fn)};
  }
  return table;
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration causal_oracles{"causal", grader::make_causal_oracles};
