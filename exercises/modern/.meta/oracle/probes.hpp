// The calls of exercise 8's checks, made from each check's seed: mlstm's and
// decayed_normalized_attention's probes, built from seeded cases and the hand-out's worked
// examples; and the per-token numbers that the judge's account of a wrong row quotes. Oracle
// side only (it calls the reference). The checks that use these calls, with what each one
// tells the student, are in ../checks.cpp.
#pragma once

#include "oracle/makers.hpp"

#include <cstdint>

namespace grader::modern {

struct MlstmCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  Vector f, i;     // (T)
};

struct DecayedCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  double gamma;
  Vector gain;  // (d_v)
  double eps;
};

// A request's call read back as a case.
MlstmCase mlstm_case_of(const json& call);
DecayedCase decayed_case_of(const json& call);

// n_t^T q_t for every token, for the judge's account of the worst row.
Vector mlstm_dots(const MlstmCase& c);
// mean(y_t^2) for every token, for the judge's account of the worst row.
Vector decayed_mean_squares(const DecayedCase& c);

// mlstm's checks, in the order of the table.
json calls_mlstm_by_hand(std::uint64_t seed);
json calls_linear_attention_limit(std::uint64_t seed);  // f = i = 1, every |n_t^T q_t| >= 1
json calls_floor_and_sign(std::uint64_t seed);
json calls_random_gates(std::uint64_t seed);
json calls_mlstm_memory(std::uint64_t seed);  // T = 8192, d_k = d_v = 64
json calls_mlstm_time(std::uint64_t seed);    // T = 512 and 4096, d_k = d_v = 16
json calls_mlstm_hidden(std::uint64_t seed);

// decayed_normalized_attention's checks, in the order of the table.
json calls_decayed_by_hand(std::uint64_t seed);
json calls_decayed_single_token(std::uint64_t seed);
json calls_small_gamma(std::uint64_t seed);
json calls_large_gamma(std::uint64_t seed);
json calls_no_decay(std::uint64_t seed);
json calls_rms_and_eps(std::uint64_t seed);
json calls_decayed_memory(std::uint64_t seed);  // T = 8192, d_k = d_v = 64
json calls_decayed_time(std::uint64_t seed);    // T = 512 and 4096, d_k = d_v = 16
json calls_decayed_hidden(std::uint64_t seed);

}  // namespace grader::modern
