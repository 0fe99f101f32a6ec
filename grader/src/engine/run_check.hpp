// Running one check: take its request and expected values (from the oracle source), start the
// runner under its limits, read the reply, and turn all that into a status, a score and a
// message.
#pragma once

#include "../judge/check.hpp"
#include "../report/report.hpp"
#include "oracle_source.hpp"

#include <filesystem>

namespace grader {

struct CheckRun {
  const Check* check = nullptr;
  std::string exercise;
  std::filesystem::path runner;             // the exercise's runner program
  const OracleCase* oracle_case = nullptr;  // request and expected values at `seed`
  std::string oracle_error;                 // why there is no oracle_case (a fault of the grader)
  unsigned worker = 0;  // the judge's worker that runs it (isolation.hpp: Jail::worker)
  const std::string* source = nullptr;  // the student's file as built (a crash quotes a line)
};

// Runs one check and fills in how it went: `slot` comes with what names the check (name,
// function, points, seed, visibility, rerun), made once by the engine; the result is `slot`
// with its status, score, message, output, time and heap. Never throws. A fault of the
// grader itself (a judge that threw, say) comes back as status `error` with `grader_fault`
// set, so the run can end with exit status 2.
CheckResult run_check(const CheckRun& run, CheckResult slot);

struct RunnerRun;  // run_runner.hpp

// Step 1 of judging a run: how the runner process ended. Fills in `r` and returns true when that
// alone decides the check (it did not start, it was killed, it timed out, it crashed); `tried`
// says what was asked of it. A run the machine spoiled is marked r.run_again.
bool ending_decides(const CheckRun& run, const RunnerRun& done, const std::string& tried,
                    CheckResult& r);

// The text up to its first line break.
std::string first_line(const std::string& text);

// Why a check was not graded when the machine, not the submission, ran short of memory.
std::string machine_short_message(const std::string& what);

// A check run again alone (r.run_again) that failed the same way a second time: its message
// says so, and what to do.
void failed_when_alone(CheckResult& r);

// "Q 3x2, K 3x2, V 3x2, phi elu_plus_one, eps 0" for the first call of a request.
std::string describe_call(const json& request);

}  // namespace grader
