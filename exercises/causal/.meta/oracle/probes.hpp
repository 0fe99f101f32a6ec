// The calls of exercise 2's checks, made from each check's seed: the probes of the two
// whole-sequence forms (the same for both) and of the decode step, with the seeded cases they
// are made of. Oracle side only (it calls the reference). The checks, with what each tells
// the student, are in ../checks.cpp; so are the few probes whose sizes the judge
// also states (large eps, the memory and time rules), made there from the pieces below.
#pragma once

#include "oracle/makers.hpp"

#include <cstdint>
#include <vector>

namespace grader::causal {

// ---- the two whole-sequence forms --------------------------------------------------------

struct AttnCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  json phi;
  double eps;
};

// The runner gets Taylor and random features as tables (see with_feature_tables).
json attn_calls(const std::vector<AttnCase>& cases);
// Q, K: N(0, 1) * scale; V: N(0, 1); drawn in that order.
AttnCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v, json phi,
                     double eps, double scale);

json calls_hand_example(std::uint64_t seed);  // the textbook's three tokens, elu+1, eps = 0
json calls_single_token(std::uint64_t seed);
json calls_random_taylor(std::uint64_t seed);
json calls_random_features(std::uint64_t seed);
json calls_elu_and_relu(std::uint64_t seed);
json calls_constant_values(std::uint64_t seed);
json calls_random_hidden(std::uint64_t seed);

// ---- the decode step ---------------------------------------------------------------------

struct StepCase {
  Matrix S;  // (d_phi, d_v)
  Vector z;  // (d_phi)
  Vector q, k, v;
  json phi;
  double eps;
};

json step_calls(const std::vector<StepCase>& cases);
// phi of one vector, as a column.
Vector features_of(const linref::FeatureMap& phi, const Vector& x);
// The reference state after `n` random tokens, then one more token to decode.
StepCase step_after(linref::Rng& rng, Eigen::Index n, Eigen::Index d_k, Eigen::Index d_v,
                    json phi_json, double eps, double scale);

json calls_step_from_zero(std::uint64_t seed);
json calls_step_reproduces_recurrent(std::uint64_t seed);
json calls_step_unequal_sizes(std::uint64_t seed);
json calls_step_random_hidden(std::uint64_t seed);

}  // namespace grader::causal
