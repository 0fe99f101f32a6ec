// Runs the machine spoiled (grader/src/engine/run_check.hpp: ending_decides, failed_when_alone;
// run_runner.hpp: start_refused): a runner that never started, or was killed from outside its
// limits, is the grader's fault, and where the machine may not do it again it is marked to be
// run again alone; nothing the runner does by itself is either. CI lost a correct check to
// "cannot run /runner: Text file busy" under parallel grading, which the second run, with no
// other check beside it, is there to absorb.
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
  bool graders_fault;
  RunAgain expected;
  bool started = true;  // the harness's mark (grader/runner/started_mark.cpp)
  const char* output = "";
  int exit_code = 0;
  const char* launch_error = "";
};

// The check's result for one run that ended so, judged as run_check judges it; `earlier` is
// what earlier calls of a time check printed before this call's own run (run_each_call).
CheckResult decided(const Ending& e, const std::string& earlier = "") {
  grader::Check check;
  check.name = "read/square-state";
  check.limits.wall_seconds = 10;
  grader::CheckRun run;
  run.check = &check;
  run.exercise = "memory";
  grader::RunnerRun done;
  done.outcome.ending = e.ending;
  done.outcome.signal = e.signal;
  done.outcome.launch_error = e.launch_error;
  done.outcome.output = e.output;
  done.outcome.exit_code = e.exit_code;
  done.oom_kills = e.oom_kills;
  done.started = e.started;
  done.start_refused = grader::start_refused(done.outcome, done.started);
  done.outcome.output = earlier + done.outcome.output;
  CheckResult r;
  grader::ending_decides(run, done, "tried", r);
  return r;
}

constexpr auto kExited = RunOutcome::Ending::Exited;
constexpr auto kLaunchFailed = RunOutcome::Ending::LaunchFailed;

}  // namespace

TEST_CASE("run again alone: only the runs the machine spoiled, and may not spoil again") {
  const Ending endings[] = {
      {"the kernel refused: busy", kLaunchFailed, 0, 0, true, RunAgain::CouldNotStart, true, "", 0,
       "cannot run /runner: Text file busy"},
      {"no process to start it in", kLaunchFailed, 0, 0, true, RunAgain::CouldNotStart, true, "", 0,
       "could not start: Resource temporarily unavailable"},
      {"the kernel refused: not an image it loads", kLaunchFailed, 0, 0, true, RunAgain::No, true,
       "", 0, "cannot run /runner: Exec format error"},
      {"a launch failure with no words", kLaunchFailed, 0, 0, true, RunAgain::No},
      {"SIGKILL while the OOM killer ran", RunOutcome::Ending::Signaled, SIGKILL, 1, true,
       RunAgain::KilledFromOutside},
      {"SIGKILL of its own", RunOutcome::Ending::Signaled, SIGKILL, 0, false, RunAgain::No},
      {"SIGSEGV while the OOM killer ran", RunOutcome::Ending::Signaled, SIGSEGV, 1, false,
       RunAgain::No},
      {"timed out", RunOutcome::Ending::TimedOut, 0, 0, false, RunAgain::No},
      // bubblewrap that could not start the runner, and a student who says what it says
      {"bubblewrap refused: busy", kExited, 0, 0, true, RunAgain::CouldNotStart, false,
       "bwrap: execvp /runner: Text file busy\n", 1},
      {"bubblewrap refused: a file gone", kExited, 0, 0, true, RunAgain::No, false,
       "bwrap: execvp /runner: No such file or directory\n", 1},
      {"bubblewrap's words printed by the student", kExited, 0, 0, false, RunAgain::No, true,
       "bwrap: execvp /runner: Text file busy\n", 1},
      // the loader, refusing the student's image (a huge thread_local) before any constructor
      {"the loader's refusal", kExited, 0, 0, false, RunAgain::No, false,
       "/runner: cannot allocate TLS data structures for initial thread\n", 127},
  };
  for (const Ending& e : endings) {
    CAPTURE(e.name);
    const CheckResult r = decided(e);
    CHECK(r.run_again == e.expected);
    CHECK(r.grader_fault == e.graders_fault);
  }
}

TEST_CASE("run again alone: a time check's later call that bubblewrap could not start") {
  // Each call of a time check runs in a runner of its own, and their outputs are joined: what
  // call 1 printed comes before bubblewrap's words of call 2.
  const CheckResult r =
      decided({"bubblewrap refused call 2", kExited, 0, 0, true, RunAgain::CouldNotStart, false,
               "bwrap: execvp /runner: Text file busy\n", 1},
              "call 1's own printing\n");
  CHECK(r.run_again == RunAgain::CouldNotStart);
  CHECK(r.message.find("bwrap: execvp /runner: Text file busy") != std::string::npos);
}

TEST_CASE("run again alone: a runner that did not start twice says why, and that it ran alone") {
  CheckResult r = decided({"did not start", kLaunchFailed, 0, 0, true, RunAgain::CouldNotStart,
                           true, "", 0, "cannot run /runner: Text file busy"});
  CHECK(r.status == grader::Status::GraderFault);
  grader::failed_when_alone(r);
  CHECK(r.message.find("could not start the runner: cannot run /runner: Text file busy") !=
        std::string::npos);
  CHECK(r.message.find("twice, the second time with no other check running") != std::string::npos);
  CHECK(r.message.find("No score is written") != std::string::npos);

  CheckResult killed = decided({"SIGKILL while the OOM killer ran", RunOutcome::Ending::Signaled,
                                SIGKILL, 1, true, RunAgain::KilledFromOutside});
  grader::failed_when_alone(killed);
  CHECK(killed.message.find("ran short of memory") != std::string::npos);
  CHECK(killed.message.find("twice, the second time running alone") != std::string::npos);

  CheckResult timed_out =
      decided({"timed out", RunOutcome::Ending::TimedOut, 0, 0, false, RunAgain::No});
  const std::string before = timed_out.message;
  grader::failed_when_alone(timed_out);
  CHECK(timed_out.message == before);
}
