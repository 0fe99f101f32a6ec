// What the checks of `causal` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

constexpr const char* kRecurrent = "causal_linear_attention_recurrent";
constexpr const char* kParallel = "causal_linear_attention_parallel";
constexpr const char* kStep = "linear_attention_step";

// The memory rule's sizes: T tokens, d_k = d_v = kMemD with elu+1 (so d_phi = kMemD too).
// The oracle makes inputs of these sizes and the judge's budget is computed from them.
constexpr std::uint64_t kMemT = 8192, kMemD = 64;
// The time rule's smaller token count (the larger, N, is 8 times it; the rule times N/8, N/2
// and 2 N tokens: 4096, 16384 and 65536). Eight times the other exercises' N: at d = 8 a
// linear recurrence costs little, and so does a quadratic one written as blocks of matrix
// products, which runs near the processor's peak: at 1024, 4096 and 16384 tokens such a form
// took 0.6, 3.8 and 56.9 ms, a largest step of 53 ms that the noise floor (8 ms on the first
// step, so 64 ms on the last) let through. Four times the tokens put 16 times that T^2 work
// in the largest step, against 4 times the linear work.
constexpr Eigen::Index kTimeT = 4096;
// The large-eps probes' eps: about as large as the denominators, so its place shows.
constexpr double kLargeEps = 10.0;

}  // namespace
}  // namespace grader
