// Hooks for Check::memory_hint that several exercises share.
#pragma once

#include "../../src/judge/check.hpp"

#include <cstdint>
#include <string>

namespace grader {

// For a request whose calls carry Q (T, d_k) and V (T, d_v): the peak compared with one T x T
// matrix of doubles and with the T states of the cumulative-sum form (d_phi = d_k for the maps
// these checks use), and the advice to keep one state. Empty for any other request.
std::string token_axis_memory_hint(const json& request, std::uint64_t peak_bytes);

}  // namespace grader
