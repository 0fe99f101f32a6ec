// The native report (the contract's --json) and Gradescope's results.json.
#include "check_id.hpp"
#include "report.hpp"

#include <cmath>
#include <cstdio>

namespace grader {

double tidy(double x) { return std::round(x * 1e6) / 1e6; }

std::string score_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", tidy(x));
  return buf;
}

namespace {

nlohmann::json course_only_json(const ExerciseResult& ex) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, max] : ex.course_only)
    list.push_back({{"name", name}, {"max_score", tidy(max)}});
  return list;
}

}  // namespace

nlohmann::json to_native_json(const Report& report) {
  nlohmann::json exercises = nlohmann::json::array();
  for (const auto& ex : report.exercises) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& c : ex.checks) {
      checks.push_back({{"name", c.name},
                        {"function", c.function},
                        {"status", status_name(c.status)},
                        {"score", tidy(c.score)},
                        {"max_score", tidy(c.max_score)},
                        {"seed", c.seed},
                        {"message", c.message},
                        {"output", c.output},
                        {"seconds", c.seconds},
                        {"visibility", c.visibility},
                        {"rerun", c.rerun},
                        {"peak_heap_bytes", c.peak_heap_bytes}});
      if (!c.reason.empty()) checks.back()["reason"] = c.reason;
    }
    exercises.push_back(
        {{"name", ex.name},
         {"score", tidy(ex.score)},
         {"max_score", tidy(ex.max_score)},
         {"build",
          {{"ok", ex.build_ok},
           {"log", ex.build_log},
           {"cached", ex.build_cached},
           {"seconds", ex.build_seconds}}},
         {"checks", std::move(checks)},
         {"course_only", course_only_json(ex)},
         {"source", ex.source.empty() ? nlohmann::json() : nlohmann::json(ex.source)},
         {"source_status", ex.source_status},
         {"source_others", ex.source_others}});
  }
  nlohmann::json j = {{"version", kReportVersion},        {"submission", report.submission},
                      {"score", tidy(report.score)},      {"max_score", tidy(report.max_score)},
                      {"seconds", report.seconds},        {"isolation", report.isolation},
                      {"assignment", report.assignment},  {"notices", report.notices},
                      {"exercises", std::move(exercises)}};
  // Whose seeds the checks ran with (each check's own is in its "seed").
  if (!report.seeds.empty()) j["seeds"] = report.seeds;
  if (!report.student.empty()) j["student"] = report.student;
  if (report.jobs > 0) j["jobs"] = {{"count", report.jobs}, {"why", report.jobs_why}};
  if (report.late) {  // the raw score stays; the penalty gives a second one beside it
    j["late"] = lateness_json(*report.late, report.score);
    j["late"]["policy"] = report.late_policy;
  }
  return j;
}

namespace {

// The line at the top of the results. Gradescope hides a student's total while any test waits
// for the due date or for publishing, and counts every test in it, hidden ones too (its
// autograder specification, "Controlling Test Case Visibility"). This line must not give away
// what the total hides: it adds up the checks shown now, and says when the rest appear.
std::string gradescope_summary(const Report& report) {
  double score = 0, max = 0, later = 0;
  bool after_due = false, after_published = false;
  for (const auto& ex : report.exercises)
    for (const auto& c : ex.checks) {
      if (c.visibility.empty() || c.visibility == "visible") {
        score += c.score;
        max += c.max_score;
        continue;
      }
      later += c.max_score;
      after_due |= c.visibility == "after_due_date";
      after_published |= c.visibility == "after_published";
    }
  std::string line = "linattn-kit grader: " + score_text(score) + " / " + score_text(max);
  if (!after_due && !after_published) return line;
  const std::string when = after_due && after_published
                               ? "after the due date or when grades are published"
                           : after_due ? "after the due date"
                                       : "when grades are published";
  return line + " in the checks shown now. The other checks (" + score_text(later) +
         " points) count in your total, which is shown " + when + ".";
}

}  // namespace

nlohmann::json to_gradescope_json(const Report& report) {
  nlohmann::json tests = nlohmann::json::array();
  int exercise_number = 0;
  for (const auto& ex : report.exercises) {
    ++exercise_number;
    int check_number = 0;
    for (const auto& c : ex.checks) {
      ++check_number;
      std::string output = std::string("status: ") + status_name(c.status);
      if (!c.function.empty()) output += "\nfunction: " + c.function;
      if (!c.message.empty()) output += "\n" + c.message;
      if (!c.output.empty()) output += "\n--- what the code printed ---\n" + c.output;
      output += "\nseed: " + std::to_string(c.seed);
      // The command a student runs in the student kit, which has the visible checks only and
      // fixes each one's seed (so no --seed, and nothing for a check it does not have).
      const bool visible = c.visibility.empty() || c.visibility == "visible";
      if (!c.rerun.empty() && c.status != Status::Passed && visible) {
        output += "\nrerun in your kit: " + kit_rerun_line(ex.name, c.name);
        // The course's seeds are not the student kit's: say so, and give the line that
        // reproduces these very inputs in a kit with the reference (the course staff's).
        if (report.seeds == "course" || report.seeds == "per-student")
          output += "\n(your kit runs it on its own inputs; the inputs here were seed " +
                    std::to_string(c.seed) +
                    (report.seeds == "per-student" ? ", yours alone" : "") +
                    ", which the course staff reproduce with: " + c.rerun + ")";
      }
      tests.push_back(
          {{"name", ex.name + ": " + c.name},
           {"number", std::to_string(exercise_number) + "." + std::to_string(check_number)},
           {"score", tidy(c.score)},
           {"max_score", tidy(c.max_score)},
           {"status", c.status == Status::Passed ? "passed" : "failed"},
           {"output", output},
           {"visibility", c.visibility.empty() ? "visible" : c.visibility},
           // Plain text, never HTML: the output quotes what the student's code printed.
           {"output_format", "text"}});
    }
  }
  // Late work: Gradescope takes the top-level score as the total, so it is the one after the
  // penalty; the output says so, in percent (the total itself may not be shown yet).
  std::string summary = gradescope_summary(report);
  if (report.seeds == "per-student")
    summary +=
        "\nYour checks ran on inputs of your own (per-student seeds, from the course's key and "
        "your "
        "id); each test gives its seed.";
  // What the grader noted of the upload (an archive unpacked or refused, an edited header).
  for (const auto& notice : report.notices) summary += "\nNote: " + notice;
  double total = report.score;
  if (report.late) {
    total = after_penalty(report.score, *report.late);
    const std::string due = describe_due(*report.late);
    summary +=
        "\nLate work (" + report.late_policy + "): submitted " +
        (report.late->submitted_at.empty() ? std::string("late") : report.late->submitted_at) +
        ", " + (due.empty() ? std::string() : due + "; ") +
        (report.late->late ? std::to_string(report.late->days_late) + " day(s) late, " +
                                 score_text(report.late->penalty_percent) + "% off your total"
                           : std::string("on time")) +
        ".";
  }
  // Gradescope renders an output without output_format as HTML (its results.json
  // specification); the top output holds notices that quote file names students chose, so
  // every output is declared plain text, the tests' default too.
  return {{"score", tidy(total)},
          {"execution_time", report.seconds},
          {"output", summary},
          {"output_format", "text"},
          {"test_output_format", "text"},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"},
          {"tests", std::move(tests)}};
}

}  // namespace grader
