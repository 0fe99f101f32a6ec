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

TEST_CASE("terminal report: a note quoting an upload's names is one line of text") {
  // Red-team (issue 32): `./kit grade` printed an archive entry's name in its "Note:" line as
  // it was, so the name could clear the screen or start a line of its own.
  grader::Report report;
  report.submission = "sub";
  report.notices = {"an entry named x\033[2J\nTotal: 100/100\xc2\x9b\xff.cpp was left out"};
  std::ostringstream out;
  grader::print_terminal(report, out, false);
  const std::string text = out.str();
  CHECK(text.find('\033') == std::string::npos);
  CHECK(text.find("\nTotal: 100/100") == std::string::npos);
  CHECK(
      text.find("Note: an entry named x\\x1b[2J\\x0aTotal: 100/100\\u009b\\xff.cpp was left out") !=
      std::string::npos);
}

TEST_CASE("printable and printable_name: what is escaped, and what is left as it is") {
  using grader::printable;
  using grader::printable_name;
  // Letters of any script, and punctuation, are text.
  CHECK(printable_name("García 李明 Zoë_1.cpp") == "García 李明 Zoë_1.cpp");
  // A name is one line: newline, tab and carriage return are escaped; program output keeps
  // its lines and tabs.
  CHECK(printable_name("a\nb\tc\rd") == "a\\x0ab\\x09c\\x0dd");
  CHECK(printable("a\nb\tc\rd") == "a\nb\tc\\x0dd");
  // DEL, a C1 control written in UTF-8, a lone 8-bit CSI byte, bytes that are not UTF-8
  // (a stray continuation, an overlong '/', a cut sequence), and the noncharacters XML refuses.
  CHECK(printable("\x7f") == "\\x7f");
  CHECK(printable("\xc2\x9b"
                  "2J") == "\\u009b2J");
  CHECK(printable("\x9b"
                  "2J") == "\\x9b2J");
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(printable("ok\xe6\x9d") == "ok\\xe6\\x9d");
  CHECK(printable("\xef\xbf\xbe|\xef\xbf\xbf|\xef\xbf\xbd") == "\\ufffe|\\uffff|\xef\xbf\xbd");
  CHECK(printable("\xc2\xa0") == "\xc2\xa0");  // U+00A0, just past the C1 block: text
}
