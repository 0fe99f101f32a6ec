#include "report_prairielearn.hpp"

#include "check_id.hpp"

#include <algorithm>
#include <string>

namespace grader {

namespace {

bool shown_now(const CheckResult& c) { return c.visibility.empty() || c.visibility == "visible"; }

nlohmann::json check_test(const ExerciseResult& ex, const CheckResult& c) {
  std::string output = std::string("status: ") + status_name(c.status);
  if (!c.output.empty()) output += "\n--- what the code printed ---\n" + c.output;
  output += "\nseed: " + std::to_string(c.seed);
  // The student kit has the visible checks with their seeds fixed: the same check reruns
  // there with this command (no seed: the course's inputs are not the kit's).
  if (c.status != Status::Passed && !c.rerun.empty())
    output += "\nrerun in your kit: " + kit_rerun_line(ex.name, c.name);
  return {{"name", ex.name + ": " + c.name},
          {"description", c.function.empty() ? std::string() : "grades " + c.function},
          {"points", tidy(c.score)},
          {"max_points", tidy(c.max_score)},
          {"message", c.status == Status::Passed ? std::string() : c.message},
          {"output", output}};
}

// The checks not shown yet, as one test: how many passed and their points, nothing that
// names or describes them (their inputs are the course's, kept for the final grade).
nlohmann::json later_test(const ExerciseResult& ex, int count, int passed, double score,
                          double max) {
  return {{"name", ex.name + ": further checks"},
          {"description", std::to_string(count) + " checks whose details are not shown"},
          {"points", tidy(score)},
          {"max_points", tidy(max)},
          {"message", std::to_string(passed) + " of " + std::to_string(count) + " passed"},
          {"output", ""}};
}

}  // namespace

nlohmann::json to_prairielearn_json(const Report& report) {
  nlohmann::json tests = nlohmann::json::array();
  std::string message, output;
  for (const auto& ex : report.exercises) {
    int later = 0, later_passed = 0;
    double later_score = 0, later_max = 0;
    for (const auto& c : ex.checks) {
      if (shown_now(c)) {
        tests.push_back(check_test(ex, c));
        continue;
      }
      ++later;
      later_passed += c.status == Status::Passed;
      later_score += c.score;
      later_max += c.max_score;
    }
    if (later > 0) tests.push_back(later_test(ex, later, later_passed, later_score, later_max));
    // A build error is the whole story for its exercise: say it first, with the compiler's
    // own words, which name the file as the student submitted it.
    if (ex.source_status == "missing")
      message += "No file was found for " + ex.name + " (expected " + ex.name + ".cpp).\n";
    else if (!ex.build_ok)
      message += ex.name + " did not compile: the compiler's messages are below.\n";
    if (!ex.build_ok && !ex.build_log.empty())
      output += "--- compiling " + ex.name + " ---\n" + ex.build_log + "\n";
  }
  for (const auto& notice : report.notices) message += "Note: " + notice + "\n";
  const double fraction =
      report.max_score > 0 ? std::clamp(report.score / report.max_score, 0.0, 1.0) : 0.0;
  message = "linattn-kit grader: " + score_text(report.score) + " / " +
            score_text(report.max_score) + " points.\n" + message;
  if (report.grader_fault)
    message +=
        "The grader itself failed on this submission (not the code's fault); no score "
        "was given. Submit again, or ask the course staff if it persists.\n";
  if (!message.empty() && message.back() == '\n') message.pop_back();
  // A fault of the grader's gives no score: PrairieLearn then records the submission as not
  // gradable, so that it costs the student no attempt and no points.
  nlohmann::json j = {{"gradable", !report.grader_fault},
                      {"score", report.grader_fault ? 0.0 : tidy(fraction)},
                      {"message", message},
                      {"output", output},
                      {"tests", std::move(tests)}};
  return j;
}

}  // namespace grader
