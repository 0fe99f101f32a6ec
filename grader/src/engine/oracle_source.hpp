// Where a check's request and expected values come from when it is graded:
//  - live: the check's own oracle half (Check::request and Check::expect, which call the
//    reference), at any seed. The kit with reference/ grades this way.
//  - replay: a data file recorded by `linattn-grade --record-oracle` (the release step), which
//    holds {request, expected} of each recorded check at its own seed only. The student
//    hand-out, built without the reference, grades this way.
//
// The data file is CBOR (exact doubles) of
//   {"format": "linattn-oracle/2",
//    "checks": {"<exercise>/<check>": {"function", "seed", "request", "expected"}, ...}}
// with large calls and large expected matrices in the shrunk forms of oracle_compact.hpp
// (format 1, the same without them, is still read).
#pragma once

#include "../judge/check.hpp"
#include "assignment.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace grader {

struct OracleCase {
  json request;         // {"function", "calls"}: sent to the runner
  json expected;        // what the judge compares with: {"calls": [...]}
  bool shrunk = false;  // expected holds shrunk matrices: judge with judge_case
};

// The check's judge on a case: where the expected values are shrunk (the student kit's large
// outputs), they are completed from the reply first, and rows that miss their checksums fail
// the check (oracle_compact.hpp).
Verdict judge_case(const Check& check, const OracleCase& oracle_case, const json& reply);

class OracleSource {
 public:
  static OracleSource live();
  // Loads the data file; throws std::runtime_error when it is missing or unreadable.
  static OracleSource replay(const std::string& path);

  bool replaying() const { return data_ != nullptr; }
  const std::string& path() const { return path_; }
  // In replay mode: the seed a check was recorded at, or nothing if it was not recorded.
  std::optional<std::uint64_t> recorded_seed(const std::string& exercise, const Check& check) const;
  // The case of one check at one seed. Throws std::runtime_error (a fault of the grader) when
  // it cannot: no oracle half, or no recording at that seed.
  OracleCase fetch(const std::string& exercise, const Check& check, std::uint64_t seed) const;

 private:
  std::shared_ptr<const json> data_;  // the "checks" object of the data file
  std::string path_;
};

// What record-oracle writes: every check of the assignment's exercises (or the ones visible
// in it) at its own seed, from the live oracle. Throws std::runtime_error if a check has no
// oracle half.
json record_oracle(const Assignment& assignment, bool visible_only);
// Writes it as CBOR; false if the file cannot be written.
bool write_oracle_file(const std::string& path, const json& data);

}  // namespace grader
