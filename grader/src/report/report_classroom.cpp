// GitHub Classroom's results payload (`--github-classroom FILE`).
//
// The workflow of a Classroom assignment encodes this JSON in base64 and hands it to
// classroom-resources/autograding-grading-reporter in the environment variable
// `<RUNNER-ID>_RESULTS`. The reporter reads, per runner: `status` ("fail" or "error" marks
// the job failed), `max_score` (summed over runners) and each test's `status` ("pass",
// "fail", "error"), `score` (summed over tests: the points Classroom records), `name`,
// `message` (printed for "error" tests), `line_no` (printed beside the name unless it is 0)
// and `test_code` (printed when not empty). The other fields follow what the reporter's own
// runners write (autograding-command-grader: version, filename, duration in milliseconds).
#include "report.hpp"

#include <cmath>
#include <cstddef>

namespace grader {

namespace {

// Points to the hundredth: check points are multiples of a half, and binary noise such as
// 0.30000000000000004 never reaches Classroom.
double points(double x) { return std::round(x * 100) / 100; }

// The reporter passes the payload through an environment variable, and Linux caps one at
// 128 KiB: each message keeps its first kMessageBytes bytes (cut on a character boundary).
// The job's log has the full terminal report.
constexpr std::size_t kMessageBytes = 480;

std::string capped(const std::string& text) {
  if (text.size() <= kMessageBytes) return text;
  std::size_t cut = kMessageBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + " [...] (the whole message is in the job's log)";
}

const char* test_status(const CheckResult& c) {
  if (c.grader_fault) return "error";
  return c.status == Status::Passed ? "pass" : "fail";
}

}  // namespace

nlohmann::json to_github_classroom_json(const Report& report) {
  nlohmann::json tests = nlohmann::json::array();
  double max_total = 0;
  bool all_pass = true, any_fault = report.grader_fault;
  for (const auto& ex : report.exercises) {
    for (const auto& c : ex.checks) {
      const std::string st = test_status(c);
      all_pass = all_pass && st == "pass";
      any_fault = any_fault || c.grader_fault;
      // What the native report says, nothing more: the status and its message. A check's
      // own output stays out (the job's log shows it for visible checks), and only a visible
      // check gets the command that reruns it (a hidden check's seed is the course's).
      std::string message;
      if (st != "pass") {
        message = status_name(c.status);
        if (!c.message.empty()) message += ": " + capped(c.message);
      }
      const bool visible = c.visibility.empty() || c.visibility == "visible";
      const double max = points(c.max_score);
      max_total += max;
      tests.push_back({{"name", ex.name + ": " + c.name},
                       {"status", st},
                       {"score", points(c.score)},
                       {"max_score", max},
                       {"message", message},
                       {"test_code", st != "pass" && visible ? c.rerun : std::string()},
                       {"filename", ex.name + "/" + ex.name + ".cpp"},
                       {"line_no", 0},
                       {"duration", std::llround(c.seconds * 1000)}});
    }
  }
  const char* overall = any_fault ? "error" : all_pass && report.full_marks() ? "pass" : "fail";
  return {{"version", 1},
          {"status", overall},
          {"max_score", points(max_total)},
          {"tests", std::move(tests)}};
}

}  // namespace grader
