// Running one check: take its request and expected values (from the oracle source), start the
// runner under its limits, read the reply, and turn all that into a status, a score and a
// message.
#pragma once

#include "check.hpp"
#include "oracle_source.hpp"
#include "report.hpp"

#include <filesystem>

namespace grader {

struct CheckRun {
  const Check* check = nullptr;
  std::string exercise;
  std::filesystem::path runner;   // the exercise's runner program
  std::uint64_t seed = 0;
  std::string rerun;              // the command that reruns just this check
  const OracleCase* oracle_case = nullptr;  // request and expected values at `seed`
  std::string oracle_error;       // why there is no oracle_case (a fault of the grader)
  unsigned worker = 0;            // the judge's worker that runs it (isolation.hpp: Jail::worker)
};

// Never throws. A fault of the grader itself (a judge that threw, say) comes back as status
// `error` with `grader_fault` set, so the run can end with exit status 2.
CheckResult run_check(const CheckRun& run, bool& grader_fault);

// "Q 3x2, K 3x2, V 3x2, phi elu_plus_one, eps 0" for the first call of a request.
std::string describe_call(const json& request);

}  // namespace grader
