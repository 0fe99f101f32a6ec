// Runs the machine spoiled (grader/src/engine/run_check.hpp: ending_decides, failed_when_alone):
// a runner the kernel would not start, or killed from outside its limits, is the grader's
// fault and marked to be run again alone; nothing the runner does by itself is marked so. CI
// lost a correct check to "cannot run /runner: Text file busy" under parallel grading, which
// the second run, with no other check beside it, is there to absorb.
#include "engine/run_check.hpp"
#include "engine/run_runner.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>

using grader::CheckResult;
using grader::RunOutcome;
using RunAgain = CheckResult::RunAgain;

namespace {

struct Ending {
  const char* name;
  RunOutcome::Ending ending;
  int signal;
  std::uint64_t oom_kills;  // out-of-memory kills the kernel counted during the run
  RunAgain expected;
  bool started = true;  // the harness's mark (grader/runner/started_mark.cpp)
  const char* output = "";
  int exit_code = 0;
};

CheckResult decided(const Ending& e, const std::string& launch_error = "") {
  grader::Check check;
  check.name = "read/square-state";
  check.limits.wall_seconds = 10;
  grader::CheckRun run;
  run.check = &check;
  run.exercise = "memory";
  grader::RunnerRun done;
  done.outcome.ending = e.ending;
  done.outcome.signal = e.signal;
  done.outcome.launch_error = launch_error;
  done.oom_kills = e.oom_kills;
  done.started = e.started;
  done.outcome.output = e.output;
  done.outcome.exit_code = e.exit_code;
  CheckResult r;
  grader::ending_decides(run, done, "tried", r);
  return r;
}

}  // namespace

TEST_CASE("run again alone: only the runs the machine spoiled") {
  const Ending endings[] = {
      {"did not start", RunOutcome::Ending::LaunchFailed, 0, 0, RunAgain::CouldNotStart},
      {"SIGKILL while the OOM killer ran", RunOutcome::Ending::Signaled, SIGKILL, 1,
       RunAgain::KilledFromOutside},
      {"SIGKILL of its own", RunOutcome::Ending::Signaled, SIGKILL, 0, RunAgain::No},
      {"SIGSEGV while the OOM killer ran", RunOutcome::Ending::Signaled, SIGSEGV, 1, RunAgain::No},
      {"timed out", RunOutcome::Ending::TimedOut, 0, 0, RunAgain::No},
      // bubblewrap that could not start the runner, and a student who says what it says
      {"bubblewrap's exec refused", RunOutcome::Ending::Exited, 0, 0, RunAgain::CouldNotStart,
       false, "bwrap: execvp /runner: Text file busy\n", 1},
      {"bubblewrap's words printed by the student", RunOutcome::Ending::Exited, 0, 0, RunAgain::No,
       true, "bwrap: execvp /runner: Text file busy\n", 1},
      // the loader, refusing the student's image (a huge thread_local) before any constructor
      {"the loader's refusal", RunOutcome::Ending::Exited, 0, 0, RunAgain::No, false,
       "/runner: cannot allocate TLS data structures for initial thread\n", 127},
  };
  for (const Ending& e : endings) {
    CAPTURE(e.name);
    const CheckResult r = decided(e, "cannot run /runner: Text file busy");
    CHECK(r.run_again == e.expected);
    CHECK(r.grader_fault == (e.expected != RunAgain::No));
  }
}

TEST_CASE("run again alone: a runner that did not start twice says why, and that it ran alone") {
  CheckResult r =
      decided({"did not start", RunOutcome::Ending::LaunchFailed, 0, 0, RunAgain::CouldNotStart},
              "cannot run /runner: Text file busy");
  CHECK(r.status == grader::Status::GraderFault);
  grader::failed_when_alone(r);
  CHECK(r.message.find("could not start the runner: cannot run /runner: Text file busy") !=
        std::string::npos);
  CHECK(r.message.find("twice, the second time with no other check running") != std::string::npos);

  CheckResult killed = decided({"SIGKILL while the OOM killer ran", RunOutcome::Ending::Signaled,
                                SIGKILL, 1, RunAgain::KilledFromOutside});
  grader::failed_when_alone(killed);
  CHECK(killed.message.find("ran short of memory") != std::string::npos);
  CHECK(killed.message.find("twice, the second time running alone") != std::string::npos);

  CheckResult timed_out = decided({"timed out", RunOutcome::Ending::TimedOut, 0, 0, RunAgain::No});
  const std::string before = timed_out.message;
  grader::failed_when_alone(timed_out);
  CHECK(timed_out.message == before);
}
