// Running a check's runner program in the sandbox (run_runner.cpp): one process for all of
// a request's calls, or one per call (a time check's second look), and what came back.
#pragma once

#include "../judge/check.hpp"
#include "../sandbox/sandbox.hpp"
#include "run_check.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace grader {

// The files a check's code may write in all, in its private scratch folder.
inline constexpr std::uint64_t kScratchQuota = 64ull << 20;

// A time check's calls are limited by CPU time, at the check's limit: the time rule judges
// their CPU time, and a wall limit would stop a slow call on a loaded machine that a quiet one
// lets finish and measure, changing the verdict with the load. The wall clock stays as a guard
// for a call that waits instead of working, this much longer.
inline double timed_call_wall_guard(const Check& check) {
  return 6 * check.limits.wall_seconds + 10;
}

// One runner process on `request`: how it ended, its reply if it gave a readable one, and the
// scratch bytes it left (chroot layer). Throws for a fault of the grader.
struct RunnerRun {
  RunOutcome outcome;
  json reply;
  bool have_reply = false;
  std::string reply_problem;  // why the reply was refused, when it was
  std::uint64_t scratch_used = 0;
  bool scratch_stopped = false;  // killed by the ScratchWatch at the quota
  std::uint64_t oom_kills = 0;   // the kernel's out-of-memory kills during the run (any process)
  // The harness's mark came (grader/runner/started_mark.cpp): without it, none of the student's
  // code ran, and the output is the sandbox's or the loader's own.
  bool started = false;
  std::string start_refused;  // start_refused(outcome, started), of this run's own output
};

// Why bubblewrap could not start the runner, in its own words ("bwrap: execvp /runner: Text file
// busy"), or "". bubblewrap then ends with status 1, as a student's exit(1) would; the harness's
// mark tells them apart: without it none of the student's code ran, so words that begin as
// bubblewrap's are bubblewrap's (the loader's own refusals begin with the program's name).
std::string start_refused(const RunOutcome& outcome, bool started);

// Whether a refusal to start (an errno's words) is one a busy machine makes and may not make
// again: ETXTBSY, EAGAIN, ENOMEM, EPERM (a security module's or fanotify's refusal). Others (no
// such file, an image the kernel cannot load) would come back the same.
bool refused_for_now(const std::string& why);

// The numbers a JSON value holds, a packed matrix's included (wire.hpp).
std::uint64_t numbers_in(const nlohmann::json& j);

// One runner process on `request`, stopped after `wall_seconds`; `expected_numbers` bounds
// the reply it may send (numbers_in of the expected values). Throws for a fault of the grader.
RunnerRun run_runner(const CheckRun& run, const nlohmann::json& request, double wall_seconds,
                     std::uint64_t expected_numbers);

// Each call of `request` in a fresh process, their replies merged (a time check's next look).
RunnerRun run_each_call(const CheckRun& run, const nlohmann::json& request);

}  // namespace grader
