// What a grading run produced, and the ways of writing it out. The field names follow
// the native report of the kit's contract; Gradescope and JUnit are translations of it.
#pragma once

#include "../util/printable.hpp"
#include "late_policy.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace grader {

// The contract's statuses of a check. status_name gives the contract's word, which the
// machine-read reports write; the reports for people print status_word (report_layout.hpp).
// Ambiguous: several files compete for the exercise (find_files.hpp), so none was built.
enum class Status {
  Passed,
  Failed,
  NotImplemented,
  Error,
  Crashed,
  Timeout,
  OverMemory,
  BuildError,
  Ambiguous,
  // The grader could not grade it for its own reasons (the machine ran short of memory, a
  // compiler or runner killed from outside the student's limits): no score, exit status 2.
  GraderFault
};
const char* status_name(Status status);
// A failure of the submitted code's answers (JUnit's <failure>); the others are errors.
bool is_wrong_answer(Status status);

struct CheckResult {
  std::string name;               // "recurrent/hand-example"
  std::string function;           // the API function it graded
  Status status = Status::Error;  // until a run says otherwise
  double score = 0;
  double max_score = 0;
  std::uint64_t seed = 0;
  std::string message;  // why it did not pass; empty when it passed
  std::string output;   // what the student's code printed (capped)
  double seconds = 0;
  std::string visibility;  // visible, hidden, after_due_date, after_published (the assignment's)
  std::string rerun;       // one command that reruns just this check
  std::uint64_t peak_heap_bytes = 0;
  // Why a check did not run, where its status alone cannot say (the contract keeps a missing
  // file's checks `build_error`): "missing_files", or "ambiguous"; empty otherwise.
  std::string reason;
  bool grader_fault = false;  // the grader itself failed on this check (never the submission)
  // The machine's doing, not the submission's: the engine runs the check again alone, with no
  // other check beside it, before it believes it.
  enum class RunAgain {
    No,
    KilledFromOutside,  // the runner was killed from outside its limits (outside_kill.hpp)
    CouldNotStart,      // the runner did not start (a copy still open for writing: ETXTBSY)
  };
  RunAgain run_again = RunAgain::No;
};

struct ExerciseResult {
  std::string name;
  double score = 0;
  double max_score = 0;
  bool build_ok = false;
  bool build_cached = false;
  double build_seconds = 0;
  std::string build_log;
  std::vector<CheckResult> checks;
  // Checks not run here, only by the course's grader (a student kit has no expected values
  // for them): their names and points, nothing else.
  std::vector<std::pair<std::string, double>> course_only;
  // The file graded, as find_files.hpp found it: path relative to the submission (empty when
  // none), "found" / "missing" / "ambiguous", the competing files (ambiguous) or the files
  // passed over for the kit's own layout (found).
  std::string source;
  std::string source_status;
  std::vector<std::string> source_others;
};

struct Report {
  std::string submission;  // the folder as the user named it
  double score = 0;
  double max_score = 0;
  double seconds = 0;
  bool grader_fault = false;  // something went wrong on the grader's side: exit 2
  std::string isolation;      // the sandbox layer student code ran under: namespaces, chroot, none
  std::string assignment;     // the assignment graded (assignments/<name>.json): "default"
  std::vector<std::string> notices;  // said at the top of the report (an edited header, say)
  std::vector<ExerciseResult> exercises;
  std::optional<Lateness> late;  // when asked (--submitted-at, --submission-metadata)
  std::string late_policy;       // the assignment's, in words
  // Whose seeds the checks ran with: "own" (each check's own), "given" (--seed), "course" (the
  // course key's), "per-student" (the course key's and `student`'s; course_seeds.hpp).
  std::string seeds;
  std::string student;   // per-student seeds: the student's id they come from
  int jobs = 0;          // builds and checks run at a time
  std::string jobs_why;  // "2 jobs: a CPU quota of 2 CPUs (cgroup)" (util/job_count.hpp)
  bool full_marks() const;
};

// Scores are sums of check points: `tidy` rounds away binary noise such as 37.50000000001,
// and `score_text` writes a score as a person does: "35", "37.5", "4.55" (not "35.000000").
double tidy(double x);
std::string score_text(double x);

// The native report's format version, its top-level "version": raised when a field changes
// meaning, so that a reader (merge-grades) can refuse a report it would misread.
inline constexpr int kReportVersion = 1;
nlohmann::json to_native_json(const Report& report);
nlohmann::json to_gradescope_json(const Report& report);
std::string to_junit_xml(const Report& report);
// verbose: every check's details in full; otherwise repeats are folded (report_layout.hpp).
void print_terminal(const Report& report, std::ostream& out, bool colour, bool verbose = false);
// The "Start here:" block that ends the terminal report, without colour ("" at full marks):
// the GitHub summary (report_github_summary.hpp) says the same.
std::string start_here_text(const Report& report);

// The likely mistake a check's message names (the rest of its "Likely mistake: " line), or "":
// what the terminal report folds and the class report counts.
std::string likely_mistake(const std::string& message);

}  // namespace grader
