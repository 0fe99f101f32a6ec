// The live oracle's cases, kept on disk between runs: a check's case (its calls and the
// reference's answers) depends only on the judge's own code, the shared libraries it runs on
// and the seed, yet making it (random inputs, the reference on calls of 8192 tokens) cost a
// third of a warm `--only backward` regrade's CPU (perf, issue 20). So the second grade of an
// exercise reads its cases instead of making them again.
//
// Layout: <build>/submissions-cache/<exercise>/oracle/case-<C>-<J>.cbor, in the build cache's
// private folder (mode 0700, build_cache.hpp). C hashes the exercise, the check's name and
// function, and the seed; J the judge program's build ID and the path, size and time of every
// shared library it loaded (libm's log and sincos make the inputs). Writing a case removes the
// same check's case of another J, so a check has one file whatever the rebuilds. A judge without
// a build ID caches nothing. The file is the case in wire's split form (wire::encode_split),
// written through a temporary name; one that does not decode is made again. The engine keeps
// cases at the checks' own seeds only (engine.cpp).
#pragma once

#include "oracle_source.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace grader {

// The case kept for this check and seed, if there is one; a time check's (Check::timed) with
// its matrices packed, as the engine keeps it (wire::to_matrix reads either form).
std::optional<OracleCase> cached_oracle_case(const std::string& exercise, const Check& check,
                                             std::uint64_t seed);

// Keeps `oracle_case` (as the oracle made it, or packed) for a later run; a failure to write costs
// nothing but the next run's time.
void keep_oracle_case(const std::string& exercise, const Check& check, std::uint64_t seed,
                      const OracleCase& oracle_case);

}  // namespace grader
