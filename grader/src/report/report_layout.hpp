// What the two reports a person reads (the terminal's, report_terminal.cpp, and the page,
// report_html.cpp) decide alike: the word shown for each status, which checks are folded into
// one line and which have their details shown, and where to start. Deciding it here, once,
// keeps the page from drifting away from the terminal (issue 34: the page had none of this).
#pragma once

#include "report.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grader {

// The word a person sees for a status: PASS, FAIL, TODO, ERROR, CRASH, TIME, MEM, BUILD, AMBIG,
// FAULT. The native report keeps the contract's words (status_name); these are for reading.
std::string status_word(Status status);

// "[after_due_date]" for a check that is not visible to students now, "" otherwise.
std::string visibility_tag(const CheckResult& check);

// Why an exercise has nothing built, in the words both reports put beside its points: "no
// file", "several files, none graded", "does not build"; "" when it built.
std::string unbuilt_reason(const ExerciseResult& exercise);

// Where a student reads what an exercise asks and how to get a hint, relative to the kit.
std::string handout_path(const std::string& exercise);
std::string hint_command(const std::string& exercise);

// One line of an exercise's list in a report for people.
struct ReportRow {
  enum class Kind {
    Check,  // one check, with its details when `expanded`
    Todo,   // every check of a function not written yet, as one line
    Same,   // a check whose likely mistake an earlier check of the exercise explains
  };
  Kind kind = Kind::Check;
  const CheckResult* check = nullptr;    // the check (Todo: the function's first)
  bool expanded = false;                 // details shown (terminal) or open (page)
  std::vector<const CheckResult*> todo;  // Todo: the function's checks
  double todo_max = 0;                   // Todo: their points
  const CheckResult* same_as = nullptr;  // Same: the check that explains it
  // A check that explains a likely mistake shared with later checks: those checks.
  std::vector<const CheckResult*> explains;
};

// The rows of an exercise. Unless verbose, what repeats is said once: a function's unwritten
// checks are one Todo row, a shared likely mistake is explained under its first check (the
// others are Same rows), and a build error is shown under the first check only.
std::vector<ReportRow> report_rows(const ExerciseResult& exercise, bool verbose);

// "Start here": the first check, in hand-out order, that did not pass and is the student's to
// fix (the grader's own faults are not), and what to do about it.
struct StartHere {
  const ExerciseResult* exercise = nullptr;
  const CheckResult* check = nullptr;
  // One sentence of advice. For a function not written yet it names the hand-out and the hint
  // command (handout_path, hint_command), which a page may turn into a link.
  std::string advice;
};
// The first exercise with a check to act on, and in it the first such check; but when that one
// names no likely mistake (a timeout, a crash), a later check of the same function that names
// one (the time rule's figure) comes first.
std::optional<StartHere> start_here(const Report& report);

}  // namespace grader
