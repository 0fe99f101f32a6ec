// The calls of exercise 7's checks, made from each check's seed, and the seeded cases they
// are made of. Oracle side only (it calls the reference). The checks, with what each tells
// the student, are in ../checks.cpp; so is the memory rule's probe, beside the
// sizes the judge's budget is computed from.
#pragma once

#include "oracle/makers.hpp"

#include <cstdint>
#include <vector>

namespace grader::backward {

struct GradCase {
  Matrix FQ, FK, V, dO;  // FQ, FK: (T, d_phi); V, dO: (T, d_v)
  double eps;
};

json grad_calls(const std::vector<GradCase>& cases);
// Positive features, as a positive feature map gives: |N(0, 1)| + 0.1.
GradCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_phi, Eigen::Index d_v,
                     double eps);

json calls_single_token(std::uint64_t seed);
json calls_hand_example(std::uint64_t seed);  // the textbook's three tokens, as features
json calls_constant_values(std::uint64_t seed);
json calls_random(std::uint64_t seed);
json calls_central(std::uint64_t seed);
json calls_square_state(std::uint64_t seed);
json calls_large_eps(std::uint64_t seed);
json calls_time(std::uint64_t seed);  // T = 512 and 4096, d_phi = d_v = 32
json calls_random_hidden(std::uint64_t seed);

}  // namespace grader::backward
