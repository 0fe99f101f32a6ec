// The layout both reports for people share: see report_layout.hpp.
#include "report_layout.hpp"

#include <map>

namespace grader {

std::string status_word(Status status) {
  switch (status) {
    case Status::Passed: return "PASS";
    case Status::Failed: return "FAIL";
    case Status::NotImplemented: return "TODO";
    case Status::Error: return "ERROR";
    case Status::Crashed: return "CRASH";
    case Status::Timeout: return "TIME";
    case Status::OverMemory: return "MEM";
    case Status::BuildError: return "BUILD";
    case Status::Ambiguous: return "AMBIG";
    case Status::GraderFault: return "FAULT";
  }
  return "?";
}

std::string visibility_tag(const CheckResult& check) {
  return check.visibility.empty() || check.visibility == "visible" ? ""
                                                                   : "[" + check.visibility + "]";
}

std::string unbuilt_reason(const ExerciseResult& ex) {
  if (ex.build_ok) return "";
  if (ex.source_status == "missing") return "no file";
  if (ex.source_status == "ambiguous") return "several files, none graded";
  return "does not build";
}

std::string handout_path(const std::string& exercise) {
  return "exercises/" + exercise + "/README.md";
}

std::string hint_command(const std::string& exercise) { return "./kit hint " + exercise; }

namespace {

// A check whose details are worth reading: it did not pass, its code exists, and the grader
// itself did not fail on it.
bool diagnosed(const CheckResult& c) {
  return c.status != Status::Passed && c.status != Status::NotImplemented &&
         c.status != Status::BuildError && !c.grader_fault;
}

// Per exercise: each likely mistake shared by two or more checks, and the checks it covers in
// report order (the first one carries the details).
std::map<std::string, std::vector<const CheckResult*>> shared_mistakes(const ExerciseResult& ex) {
  std::map<std::string, std::vector<const CheckResult*>> by_mistake;
  for (const auto& c : ex.checks) {
    if (!diagnosed(c)) continue;
    const std::string mistake = likely_mistake(c.message);
    if (!mistake.empty()) by_mistake[mistake].push_back(&c);
  }
  for (auto it = by_mistake.begin(); it != by_mistake.end();)
    it = it->second.size() < 2 ? by_mistake.erase(it) : std::next(it);
  return by_mistake;
}

}  // namespace

std::vector<ReportRow> report_rows(const ExerciseResult& ex, bool verbose) {
  std::vector<ReportRow> rows;
  const auto shared = verbose ? decltype(shared_mistakes(ex)){} : shared_mistakes(ex);
  std::map<std::string, std::size_t> todo_row;  // function -> its Todo row (not verbose)
  bool build_error_shown = false;
  for (const auto& c : ex.checks) {
    ReportRow row;
    row.check = &c;
    if (!verbose && c.status == Status::NotImplemented) {
      const auto at = todo_row.find(c.function);
      if (at != todo_row.end()) {
        rows[at->second].todo.push_back(&c);
        rows[at->second].todo_max += c.max_score;
        continue;
      }
      todo_row[c.function] = rows.size();
      row.kind = ReportRow::Kind::Todo;
      row.todo = {&c};
      row.todo_max = c.max_score;
      rows.push_back(row);
      continue;
    }
    const auto group = diagnosed(c) ? shared.find(likely_mistake(c.message)) : shared.end();
    if (group != shared.end() && group->second.front() != &c) {
      row.kind = ReportRow::Kind::Same;
      row.same_as = group->second.front();
    } else if (c.status == Status::BuildError || c.status == Status::Ambiguous) {
      // The same for every check of the exercise: shown once.
      row.expanded = !build_error_shown;
      build_error_shown = true;
    } else {
      row.expanded = c.status != Status::Passed && c.status != Status::NotImplemented;
      if (group != shared.end())
        row.explains.assign(group->second.begin() + 1, group->second.end());
    }
    rows.push_back(row);
  }
  return rows;
}

namespace {

bool names_mistake(const CheckResult& c) {
  return diagnosed(c) && !likely_mistake(c.message).empty();
}

// A mistake named from the outputs themselves: a failed comparison's diagnosis. A crash's
// likely mistake is a guess from the kind of crash (an assertion: a shape mismatch), made
// before any output came back.
bool names_mistake_from_outputs(const CheckResult& c) {
  return c.status == Status::Failed && names_mistake(c);
}

// The first check of the exercise the student has to act on, unless a later check of the same
// function says more: where the first names no mistake (a timeout), a later one that names one
// (the time rule's figure and its likely mistake beat "stopped after 10 s"); where the first
// crashed, a later one whose outputs name the mistake ("dV is transposed" beats "a shape
// mismatch, most often ...": the checks with equal widths give numbers where unequal ones stop).
const CheckResult* first_to_act_on(const ExerciseResult& ex) {
  const CheckResult* first = nullptr;
  for (const auto& c : ex.checks)
    if (c.status != Status::Passed && !c.grader_fault) {
      first = &c;
      break;
    }
  if (first == nullptr || !diagnosed(*first)) return first;
  if (first->status == Status::Crashed)
    for (const auto& c : ex.checks)
      if (c.function == first->function && names_mistake_from_outputs(c)) return &c;
  if (names_mistake(*first)) return first;
  for (const auto& c : ex.checks)
    if (c.function == first->function && names_mistake(c)) return &c;
  return first;
}

// "It stopped at causal/causal.cpp line 29: `...`. " when a crash's message names the line
// (engine/abort_site.hpp), the most specific thing a crash can say.
std::string stopped_at(const std::string& message) {
  const std::size_t at = message.find("It stopped at ");
  if (at == std::string::npos) return "";
  const std::size_t end = message.find("`.", at);
  if (end == std::string::npos || message.find('\n', at) < end) return "";
  return message.substr(at, end + 2 - at) + " ";
}

}  // namespace

std::optional<StartHere> start_here(const Report& report) {
  for (const auto& ex : report.exercises)
    if (const CheckResult* found = first_to_act_on(ex)) {
      const CheckResult& c = *found;
      StartHere start{&ex, &c, ""};
      if (c.status == Status::NotImplemented) {
        start.advice = c.function + " is not written yet: " + handout_path(ex.name) +
                       " says what it computes; " + hint_command(ex.name) + " helps when stuck.";
      } else if (c.status == Status::BuildError) {
        start.advice = ex.name + " does not build: fix the first compiler error shown under it.";
      } else {
        const std::string mistake = likely_mistake(c.message);
        start.advice = !mistake.empty() ? "Likely mistake: " + mistake
                                        : "The message under the check says what was called, "
                                          "expected and returned.";
        if (c.status == Status::Crashed) start.advice = stopped_at(c.message) + start.advice;
      }
      return start;
    }
  return std::nullopt;
}

}  // namespace grader
