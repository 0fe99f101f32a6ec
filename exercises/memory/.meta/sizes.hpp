// What the checks of `memory` state and its oracle makes: the API functions' names and the
// sizes of the probes. Included by checks.cpp (the judge) and oracle/oracle.cpp, so that a
// size the judge's message names is the size the oracle's call has.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace grader {
namespace {

constexpr const char* kWrite = "write";
constexpr const char* kRead = "read";
constexpr const char* kCrosstalk = "crosstalk_energy";

}  // namespace
}  // namespace grader
