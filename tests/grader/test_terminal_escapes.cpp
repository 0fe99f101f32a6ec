// The terminal report shows what a submission printed, but never lets it drive the terminal:
// control sequences (clear screen, cursor moves, window titles, C1 controls) arrive as text.
#include "../../grader/src/report/report.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <sstream>

TEST_CASE("terminal report: control characters from a submission are escaped") {
  grader::Report report;
  report.submission = "sub\033]0;title\007";
  grader::ExerciseResult ex;
  ex.name = "memory";
  grader::CheckResult c;
  c.name = "read/orientation";
  c.function = "read";
  c.status = grader_test::status_called("failed");
  c.max_score = 2;
  c.message = "wrong\033[8m hidden";
  c.output =
      "\033[2J\033[HTotal: 100/100\r\n\xc2\x9b"
      "31m tab\there\n";
  ex.checks.push_back(c);
  report.exercises.push_back(ex);
  std::ostringstream out;
  grader::print_terminal(report, out, false);
  const std::string text = out.str();
  CHECK(text.find('\033') == std::string::npos);
  CHECK(text.find('\007') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  CHECK(text.find("\xc2\x9b") == std::string::npos);
  CHECK(text.find("\\x1b[2J") != std::string::npos);  // shown, as text
  CHECK(text.find("\\u009b") != std::string::npos);
  CHECK(text.find("tab\there") != std::string::npos);  // tabs and newlines are kept
  CHECK(grader::printable("plain text\n") == "plain text\n");
}
