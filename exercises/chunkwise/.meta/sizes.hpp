// What the checks of `chunkwise` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <string>

namespace grader {
namespace {

constexpr const char* kChunkwise = "causal_linear_attention_chunkwise";

// T = 8192, d_k = d_v = 64, elu+1 (d_phi = 64), chunks of 64 tokens: 128 chunks.
constexpr std::uint64_t kMemT = 8192, kMemD = 64, kMemChunk = 64;

// How T tokens fall into chunks: n chunks of `size` tokens, the last one of `last` tokens.
struct Chunking {
  Eigen::Index size = 1, n = 0, last = 0;
};
inline Chunking chunking(Eigen::Index T, Eigen::Index chunk) {
  Chunking c;
  c.size = std::max<Eigen::Index>(1, std::min(chunk, T));
  c.n = (T + c.size - 1) / c.size;
  c.last = T - (c.n - 1) * c.size;
  return c;
}

// "1 token", "3 tokens".
inline std::string tokens(Eigen::Index n) {
  return std::to_string(n) + (n == 1 ? " token" : " tokens");
}

}  // namespace
}  // namespace grader
