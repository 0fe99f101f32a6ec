// What the checks of `taylor` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

using Int = std::int64_t;

constexpr const char* kTaylor = "taylor_features";
constexpr const char* kStateBytes = "taylor_state_bytes";
constexpr const char* kKvTokens = "kv_cache_tokens";

// ---- the inputs the judge's notes describe -------------------------------------------------

// One taylor_features call: X (n, d) with entries N(0, 1) * scale.
struct XInputs {
  Eigen::Index n, d;
  double scale;
};
constexpr XInputs kShapeX{3, 4, 1.0};
// Based's head width: d = 16, so 1 + 16 + 256 = 273 features.
constexpr Int kBasedD = 16;

// The textbook's layer: a 2 MiB float32 state against a bf16 KV cache of 8 heads of 128.
constexpr Int kBookStateBytes = Int{2} << 20;
constexpr Int kBookKvHeads = 8, kBookHeadDim = 128, kBf16Bytes = 2;
// An exact quotient (512): the break-even point, with no rounding to get wrong.
constexpr Int kBookTokens = kBookStateBytes / (2 * kBookKvHeads * kBookHeadDim * kBf16Bytes);

}  // namespace
}  // namespace grader
