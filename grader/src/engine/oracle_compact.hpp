// How the student kit's recording (grader/data/oracle.cbor) stays small. Recorded whole, the
// memory and time rules' requests and expected outputs (8192 tokens of 64 numbers, several
// times over) made the advanced kit's file 110 MB, over GitHub's 100 MiB limit. Two ideas:
//
//  - A large call (kLargeCallNumbers numbers or more) is recorded as a pool: the first
//    kPoolTokens tokens of each of its per-token arguments (the matrices with one row per token,
//    the vectors with one entry per token) and a seed. expand_request rebuilds the full call:
//    token t is pool token t for t < kPoolTokens, else the pool token that splitmix64(seed, t)
//    picks. Only integer arithmetic and copies: every machine rebuilds the same doubles. The
//    release step computes the expected values from the reference on the rebuilt call, so the
//    student kit's large checks have their own inputs (same sizes, same kinds of numbers, each
//    token one the course's input makers drew), not the course grader's at that seed.
//  - A large expected matrix (kLargeMatrixNumbers numbers or more) is recorded as every
//    kKeptRowEvery-th row and the last row whole, and two checksums of every row (its sum, and
//    a sum with weights 1 + (column mod 7) / 7), with the sum of the row's magnitudes that sets
//    their tolerance (never the reply's own magnitudes). Before the judge runs, complete_expected
//    fills each row that was not kept from the student's own row when that row matches the row's
//    checksums (so the judge compares the rows kept, entry by entry, with its own tolerance and
//    messages), and lists the rows that do not match, which fail the check.
//
// A recording without such entries (format 1, or small checks) passes through unchanged.
#pragma once

#include "../judge/check.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

inline constexpr std::size_t kLargeCallNumbers = 65536;
inline constexpr std::size_t kPoolTokens = 128;
inline constexpr std::size_t kLargeMatrixNumbers = 32768;
inline constexpr std::size_t kKeptRowEvery = 32;

// The request with each large call replaced by its pool; `salt` makes each check's order its own.
json shrink_request(const json& request, std::uint64_t salt);
// The full request again (a request without pools comes back as it is).
json expand_request(const json& request);

// The expected values with each large matrix replaced by its kept rows and row checksums.
json shrink_expected(const json& expected);
bool has_shrunk_values(const json& expected);

struct CompletedExpected {
  json expected;                        // every matrix whole, ready for the judge
  std::vector<std::string> mismatches;  // one line per output whose rows miss their checksums
};
// `reply` is the runner's; result i of a call answers expected["calls"][i]. A shrunk matrix
// named K in a call's expected values (at any depth) is completed from the result's field K.
CompletedExpected complete_expected(const json& expected, const json& reply);

// What a failed check says about the rows the student kit does not keep.
std::string shrunk_values_note();

// The check's judge on shrunk expected values: completed from the reply, then judged; a check
// the judge passes still fails when rows miss their checksums. A failure says how the kit
// compares large outputs.
Verdict judge_shrunk(const Check& check, const json& request, const json& shrunk_expected,
                     const json& reply);

}  // namespace grader
