// What the checks of `modern` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

constexpr const char* kMlstm = "mlstm";
constexpr const char* kDecayed = "decayed_normalized_attention";

// The memory rule, as for causal's recurrent form: T = 8192, d_k = d_v = 64.
constexpr std::uint64_t kMemT = 8192, kMemD = 64;

}  // namespace
}  // namespace grader
