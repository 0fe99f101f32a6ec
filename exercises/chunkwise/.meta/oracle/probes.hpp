// The calls of exercise 6's checks, made from each check's seed, and the seeded cases they
// are made of. Oracle side only (it calls the reference). The checks, with what each tells
// the student, are in ../checks.cpp; so is the memory rule's probe, beside the
// sizes the judge's budget is computed from.
#pragma once

#include "oracle/makers.hpp"

#include <cstdint>
#include <vector>

namespace grader::chunkwise {

struct ChunkCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  json phi;
  Eigen::Index chunk;
  double eps;
};

// Taylor and random features travel as tables (see with_feature_tables).
json chunk_calls(const std::vector<ChunkCase>& cases);
// Q, K: N(0, 1) * scale; V: N(0, 1); drawn in that order.
ChunkCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v,
                      json phi, Eigen::Index chunk, double eps, double scale);

json calls_hand_example(std::uint64_t seed);  // the textbook's three tokens, chunks of 1 to 4
json calls_uneven_last_chunk(std::uint64_t seed);
json calls_chunk_one(std::uint64_t seed);
json calls_chunk_at_least_T(std::uint64_t seed);
json calls_many_chunk_sizes(std::uint64_t seed);
json calls_unequal_widths(std::uint64_t seed);
json calls_constant_values(std::uint64_t seed);
json calls_large_eps(std::uint64_t seed);
json calls_time(std::uint64_t seed);  // T = 512 and 4096, chunks of 64, d = 32
json calls_random_hidden(std::uint64_t seed);

}  // namespace grader::chunkwise
