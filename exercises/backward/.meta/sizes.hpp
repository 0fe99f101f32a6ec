// What the checks of `backward` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

constexpr const char* kBackward = "causal_linear_attention_backward";

// T = 8192, d_phi = d_v = 64.
constexpr std::uint64_t kMemT = 8192, kMemD = 64;

}  // namespace
}  // namespace grader
