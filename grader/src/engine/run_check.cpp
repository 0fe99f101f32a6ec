// One check run and judged: see run_check.hpp. The runner processes are started in
// run_runner.cpp.
#include "run_check.hpp"

#include "../judge/api_schemas.hpp"
#include "../judge/call_text.hpp"
#include "../judge/crash_text.hpp"
#include "../judge/time_looks.hpp"
#include "../sandbox/outside_kill.hpp"
#include "../util/byte_units.hpp"
#include "abort_site.hpp"
#include "program_image.hpp"
#include "run_runner.hpp"

#include <csignal>
#include <optional>
#include <sstream>
#include <string>

namespace grader {

namespace {

// The longest text taken from a reply into a message (an exception's what(), say): a message
// is read by a person, and the rest would only bloat every report.
constexpr std::size_t kMaxReplyText = 4096;

std::string capped_text(std::string text) {
  if (text.size() <= kMaxReplyText) return text;
  const std::size_t more = text.size() - kMaxReplyText;
  text.resize(kMaxReplyText);
  return text + "[... " + std::to_string(more) + " more bytes not shown]";
}

// What the process's resident memory may rise during a call beyond the memory rule's heap
// budget before it counts against the rule: the pages of code and stack a first call touches,
// which the heap meter does not see either and which are not the student's data.
constexpr std::uint64_t kResidentSlack = 8ull << 20;

// What a runner needs beyond its own image to get to main: the C and C++ runtimes, the loader
// and a stack (see program_image.hpp).
constexpr std::uint64_t kLoadRoom = 32ull << 20;

std::string seconds_text(double s) {
  std::ostringstream o;
  o.precision(3);
  o << s << " s";
  return o.str();
}

// A fault of the grader itself (not of the code under test) on this check.
CheckResult grader_fault(CheckResult r, const std::string& what) {
  r.grader_fault = true;
  r.status = Status::GraderFault;
  r.message = "The grader itself failed on this check (not your fault): " + what;
  return r;
}

// What was tried, said as a failed comparison says it (call_text.hpp); `call` when the reply
// names the call the runner was in.
std::string tried_words(const Check& check, const json& request, std::uint64_t seed,
                        std::optional<std::size_t> call) {
  const std::size_t calls = request.contains("calls") ? request["calls"].size() : 0;
  try {
    return tried_text(api::schema_of(check.function), request, seed, call);
  } catch (const std::exception&) {  // a function without a schema: the request's own names
    return "Tried: " + check.function + "(" + describe_call(request) + ")" +
           (calls > 1 ? ", " + std::to_string(calls) + " calls" : "") + ", seed " +
           std::to_string(seed) + ".";
  }
}

// The runner's output, as the report shows it.
void keep_output(const RunOutcome& outcome, CheckResult& r) {
  r.seconds = outcome.seconds;
  r.output = without_abort_frames(outcome.output);
  if (outcome.output_truncated())
    r.output += "\n[output truncated: kept the first " + std::to_string(outcome.output.size()) +
                " of " + std::to_string(outcome.output_bytes) + " bytes]";
}

// A call stopped by its wall clock, or a time check's call by its CPU limit.
std::string timeout_message(const Check& check, bool out_of_cpu, const std::string& tried) {
  const std::string limit =
      !check.timed ? seconds_text(check.limits.wall_seconds) + " (the limit for this check)"
      : out_of_cpu ? seconds_text(check.limits.wall_seconds) +
                         " of CPU time (the limit for each call of this check)"
                   : seconds_text(timed_call_wall_guard(check)) +
                         " (the wall-clock guard for each call of this check, for code that waits)";
  std::string message =
      tried + "\nStopped after " + limit +
      ". Look for a loop that never ends, or work that grows much faster than the input.";
  if (!check.timeout_hint.empty()) message += "\nLikely mistake: " + check.timeout_hint;
  return message;
}

// A runner that ended without a reply the engine can read: it quit, or something wrote a
// malformed reply.
std::string no_reply_message(const RunnerRun& done) {
  const RunOutcome& outcome = done.outcome;
  return outcome.reply.empty()
             ? "\nThe program exited with status " + std::to_string(outcome.exit_code) +
                   " before the function returned. Do not call exit() or quit the "
                   "program from your functions."
             : "\nThe runner's reply could not be read: it is malformed (" +
                   capped_text(done.reply_problem) +
                   "), and was refused before it was decoded. The harness never writes such a "
                   "reply: code in the submission wrote to the runner's reply channel, or a "
                   "result is far larger than any this check expects.";
}

// Where an abort stopped in the student's file, when the runner's frames name a line of it.
std::string stopped_at(const CheckRun& run, const RunOutcome& outcome) {
  if (outcome.signal != SIGABRT || run.source == nullptr) return "";
  const auto site = abort_site(run.runner, outcome.output, run.exercise, *run.source, run.worker);
  if (!site) return "";
  return " It stopped at " + run.exercise + "/" + run.exercise + ".cpp line " +
         std::to_string(site->line) + ": `" + site->text + "`.";
}

// The message of a call that ran out of memory (the reply's "bad_alloc").
std::string bad_alloc_message(const Check& check, const json& request, const json& reply,
                              const std::string& tried, std::uint64_t peak_heap_bytes) {
  // What the call held when it ran out, and what it asked for then: together, about the
  // size of what it was building.
  const auto asked = reply.value("failed_allocation_bytes", std::uint64_t{0});
  const std::uint64_t wanted = peak_heap_bytes + asked;
  std::string message =
      tried + "\nAn allocation" +
      (asked > 0 ? " of " + mib(static_cast<double>(asked)) : std::string()) +
      " failed under the address-space limit of " +
      mib(static_cast<double>(check.limits.address_space_bytes)) +
      (peak_heap_bytes > 0
           ? ", with " + mib(static_cast<double>(peak_heap_bytes)) + " already taken by the call"
           : std::string()) +
      ".";
  if (check.heap_budget_bytes) {
    message += " The memory rule allows " + mib(static_cast<double>(*check.heap_budget_bytes)) +
               " (" + check.heap_budget_rule + ").";
    if (wanted > 0 && check.memory_hint) message += check.memory_hint(request, wanted);
  }
  return message;
}

// The memory rule on a call that returned: the heap meter's peak, then the resident growth.
bool memory_decides(const Check& check, const json& request, const json& reply,
                    const std::string& tried, CheckResult& r) {
  if (check.heap_budget_bytes && r.peak_heap_bytes > *check.heap_budget_bytes) {
    r.status = Status::OverMemory;
    r.message = tried + "\nThe heap grew by " + mib(static_cast<double>(r.peak_heap_bytes)) +
                " during the call; the budget is " +
                mib(static_cast<double>(*check.heap_budget_bytes)) + " (" + check.heap_budget_rule +
                ")." +
                (check.memory_hint ? check.memory_hint(request, r.peak_heap_bytes) : std::string());
    return true;
  }
  // Memory the heap meter cannot see (an mmap of its own, a large array on the stack) still
  // raises the process's resident high-water mark: it counts against the same budget.
  const auto resident = reply.value("resident_growth_bytes", std::uint64_t{0});
  if (check.heap_budget_bytes && resident > *check.heap_budget_bytes + kResidentSlack) {
    r.status = Status::OverMemory;
    r.message = tried + "\nThe process's memory grew by " + mib(static_cast<double>(resident)) +
                " during the call, " + mib(static_cast<double>(r.peak_heap_bytes)) +
                " of it on the heap: memory mapped or placed outside the heap counts too. The "
                "budget is " +
                mib(static_cast<double>(*check.heap_budget_bytes)) + " (" + check.heap_budget_rule +
                ")." + (check.memory_hint ? check.memory_hint(request, resident) : std::string());
    return true;
  }
  return false;
}

// The inputs a reply says the call changed, at most a few, each short (a forged reply could
// list a million, or one of many megabytes); empty when none.
std::string changed_inputs(const json& reply) {
  const json changed = reply.value("inputs_changed", json::array());
  std::string names;
  std::size_t listed = 0;
  for (const auto& n : changed) {
    if (++listed > 8) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + capped_text(n.get<std::string>()).substr(0, 64);
  }
  return names;
}

// Step 2: what the reply says of the call, before any result is judged. Fills in `r` and
// returns true when that decides the check (not implemented, out of memory, a throw, changed
// inputs). The reply came through the runner's descriptor 4, which the code under test could
// also have written to: run_runner walked it against the check's reply shape before decoding
// it (cbor_shape.hpp), so every field read here is there with its type, the outcome is a known
// one and a returned call has one result per call. A malformed reply never gets this far.
bool reply_decides(const CheckRun& run, const json& request, const json& reply,
                   const std::string& tried, CheckResult& r) {
  const Check& check = *run.check;
  try {
    const std::string what = reply.value("outcome", "");
    // The call the runner was in when it gave up (its reply says, for a throw or a bad_alloc).
    std::optional<std::size_t> stopped_in;
    if (reply.contains("call") && reply["call"].is_number_unsigned())
      stopped_in = reply["call"].get<std::size_t>();
    r.peak_heap_bytes = reply.value("peak_heap_bytes", std::uint64_t{0});
    if (what == "not_implemented") {
      r.status = Status::NotImplemented;
      r.message = capped_text(reply.value("what", check.function + " is not implemented yet"));
      return true;
    }
    if (what == "bad_alloc") {
      r.status = Status::OverMemory;
      r.message =
          bad_alloc_message(check, request, reply, tried_words(check, request, r.seed, stopped_in),
                            r.peak_heap_bytes);
      return true;
    }
    if (what == "exception") {
      r.status = Status::Error;
      r.message = tried_words(check, request, r.seed, stopped_in) + "\nThrew an exception: " +
                  capped_text(reply.value("what", std::string("(no message)")));
      return true;
    }
    if (what == "harness_error") {
      // The harness could not turn the call or its result into a message, e.g. a result too
      // large to encode; a request of ours would have failed for the solutions too.
      r.status = Status::Error;
      r.message = tried + "\nThe runner could not complete the call: " +
                  capped_text(reply.value("what", std::string("(no detail)")));
      return true;
    }
    if (memory_decides(check, request, reply, tried, r)) return true;
    const std::string changed = changed_inputs(reply);
    if (!changed.empty()) {
      r.status = Status::Failed;
      r.message = tried + "\nThe function changed its input(s): " + changed +
                  ". Inputs are passed by const reference and must be left exactly as they were; "
                  "work on a copy.";
      return true;
    }
  } catch (const std::exception& e) {  // the reply passed its walk: this is our own fault
    r = grader_fault(r, std::string("reading the reply: ") + e.what());
    return true;
  }
  return false;
}

// A failed time check's next looks (time_looks.hpp): every call again, each in a fresh process.
// A look the machine spoiled (its runner did not start, or was killed from outside its limits,
// or the grader failed running it) ends the looking without a measure, so the failed verdict
// would stand on the first measure alone: `spoiled` then holds the grader's fault, which the
// check's result becomes (and, where the machine may not do it again, runs again alone).
Verdict second_look(const CheckRun& run, const json& request, const json& first,
                    const Verdict& verdict, const CheckResult& r,
                    std::optional<CheckResult>& spoiled) {
  auto measure = [&]() -> std::optional<json> {
    try {
      RunnerRun again = run_each_call(run, request);
      if (again.have_reply && again.reply.contains("cpu_seconds"))
        return again.reply["cpu_seconds"];
      CheckResult look = r;
      if (ending_decides(run, again, "", look) && look.grader_fault) {
        look.message += " (while its time was measured again, after a first measure failed)";
        spoiled = look;
      }
    } catch (const std::exception& e) {
      spoiled = grader_fault(r, std::string("measuring its time again: ") + e.what());
    }
    return std::nullopt;
  };
  return look_again(first, verdict, measure, [&](const json& reply) {
    return judge_case(*run.check, *run.oracle_case, reply);
  });
}

// Step 3: the check's judge on the returned results (a failed time check is measured again).
CheckResult judged(const CheckRun& run, const json& request, const json& reply, CheckResult r) {
  const Check& check = *run.check;
  try {
    Verdict v = judge_case(check, *run.oracle_case, reply);
    std::optional<CheckResult> spoiled;
    if (check.timed && !v.passed) v = second_look(run, request, reply, v, r, spoiled);
    if (spoiled && !v.passed) return *spoiled;
    r.status = v.passed ? Status::Passed : Status::Failed;
    // A judge's message already says what was called, with more detail than `tried`.
    r.message = v.passed ? "" : v.message;
  } catch (const std::exception& e) {
    return grader_fault(r, std::string("judging the results: ") + e.what());
  }
  if (r.status == Status::Passed)
    r.score = r.max_score;  // the assignment's points for it (engine.cpp)
  return r;
}

// A runner that never started: the kernel refused it, or bubblewrap could not start it
// (run_runner.hpp: start_refused). Never the submission's doing, so the grader's fault; where the
// refusal is one a busy machine makes (under parallel grading, a copy still open for writing:
// ETXTBSY), the engine runs the check again alone.
bool did_not_start(const RunnerRun& done, CheckResult& r) {
  const RunOutcome& outcome = done.outcome;
  std::string why = done.start_refused;
  if (outcome.ending == RunOutcome::Ending::LaunchFailed)
    why = outcome.launch_error.empty() ? "no reason given" : outcome.launch_error;
  if (why.empty()) return false;
  r = grader_fault(r, "could not start the runner: " + why);
  if (refused_for_now(why)) r.run_again = CheckResult::RunAgain::CouldNotStart;
  return true;
}

}  // namespace

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Why a check was not graded when the machine, not the submission, ran short.
std::string machine_short_message(const std::string& what) {
  return "Not graded: the machine ran short of memory while grading this (" + what +
         "). That is the grader's fault, not your code's, and no score is written for it. "
         "Grade it again (a regrade, or ./kit grade with --jobs 1 or on a machine with more "
         "memory).";
}

bool ending_decides(const CheckRun& run, const RunnerRun& done, const std::string& tried,
                    CheckResult& r) {
  const Check& check = *run.check;
  const RunOutcome& outcome = done.outcome;
  using Ending = RunOutcome::Ending;
  if (did_not_start(done, r)) return true;
  // A runner the ScratchWatch stopped was killed for its files: say so, not "SIGKILL".
  if (done.scratch_stopped) {
    r.status = Status::OverMemory;
    r.message = tried + "\nThe code wrote more than " + mib(static_cast<double>(kScratchQuota)) +
                " of files, the limit for files a check may write, and was stopped. They have "
                "been removed.";
    return true;
  }
  // Killed by the kernel when the machine ran short: the engine runs it again alone.
  if (runner_killed_from_outside(outcome, done.oom_kills)) {
    r = grader_fault(r,
                     "the runner was killed from outside its limits (SIGKILL while the "
                     "kernel's out-of-memory killer ran)");
    r.run_again = CheckResult::RunAgain::KilledFromOutside;
    return true;
  }
  // A time check's call stopped by its CPU limit (sandbox.hpp: Limits::cpu_seconds).
  const bool out_of_cpu =
      check.timed && outcome.ending == Ending::Signaled && outcome.signal == SIGXCPU;
  if (outcome.ending == Ending::TimedOut || out_of_cpu) {
    r.status = Status::Timeout;
    r.message = timeout_message(check, out_of_cpu, tried);
    return true;
  }
  if (outcome.ending == Ending::Signaled && outcome.signal == SIGSEGV) {
    // Killed while the kernel loaded it: its own image (a huge static array) does not leave
    // room under the address-space limit for the libraries and a stack.
    const auto image = program_image_bytes(run.runner);
    if (image && *image + kLoadRoom > check.limits.address_space_bytes) {
      r.status = Status::OverMemory;
      r.message = tried + "\nThe program could not even start: its own code and static data take " +
                  mib(static_cast<double>(*image)) +
                  ", and the address-space limit of this check is " +
                  mib(static_cast<double>(check.limits.address_space_bytes)) +
                  ". Look for a large static or global array; allocate what a call needs inside "
                  "the call.";
      return true;
    }
  }
  if (outcome.ending == Ending::Signaled) {
    r.status = Status::Crashed;
    r.message = tried + "\ncrashed: " + signal_name(outcome.signal) + "." +
                stopped_at(run, outcome) +
                crash_explanation(outcome.signal, outcome.output, check.crash_hint);
    return true;
  }
  // A runner that filled its capped tmpfs (within a MiB) ran into the quota; without a
  // sandbox nothing caps the folder during the run, and this is all there is.
  if (done.scratch_used + (1u << 20) > kScratchQuota) {
    r.status = Status::OverMemory;
    r.message = tried + "\nThe code wrote " + mib(static_cast<double>(done.scratch_used)) +
                " of files and ran into the limit for files a check may write, " +
                mib(static_cast<double>(kScratchQuota)) + ". They have been removed.";
    return true;
  }
  if (outcome.reply_over_cap) {
    r.status = Status::Error;
    r.message = tried + "\nMore than " + mib(static_cast<double>(check.limits.reply_bytes_kept)) +
                " came through the runner's reply channel, far more than any answer takes: "
                "something other than the harness wrote there. The reply was dropped.";
    return true;
  }
  if (!done.have_reply) {
    r.status = Status::Error;
    r.message = tried + no_reply_message(done);
    return true;
  }
  return false;
}

void failed_when_alone(CheckResult& r) {
  using RunAgain = CheckResult::RunAgain;
  if (r.run_again == RunAgain::KilledFromOutside)
    r.message = machine_short_message(
        "its runner was killed from outside its limits (SIGKILL while the kernel's "
        "out-of-memory killer ran) twice, the second time running alone");
  if (r.run_again == RunAgain::CouldNotStart)
    r.message +=
        " (twice, the second time with no other check running). No score is written for it: "
        "grade it again (a regrade, or ./kit grade with --jobs 1).";
}

CheckResult run_check(const CheckRun& run, CheckResult r) {
  const Check& check = *run.check;
  if (!run.oracle_case)
    return grader_fault(
        r, "making the inputs: " +
               (run.oracle_error.empty() ? std::string("no inputs") : run.oracle_error));
  const json& request = run.oracle_case->request;
  const std::string tried = tried_words(check, request, r.seed, std::nullopt);

  RunnerRun done;
  try {
    done = check.timed ? run_each_call(run, request)
                       : run_runner(run, request, check.limits.wall_seconds,
                                    numbers_in(run.oracle_case->expected));
  } catch (const std::exception& e) {
    return grader_fault(r, std::string("running the check: ") + e.what());
  }
  keep_output(done.outcome, r);
  if (ending_decides(run, done, tried, r)) return r;
  if (reply_decides(run, request, done.reply, tried, r)) return r;
  return judged(run, request, done.reply, r);
}

}  // namespace grader
