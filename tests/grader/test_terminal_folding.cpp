// The terminal report says each thing once unless --verbose: the checks of a function not
// written yet are one line, a likely mistake shared by several checks of an exercise is
// explained under the first, and the report ends with "Start here".
#include "folding_sample.hpp"
#include "src/report/report.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

namespace {

using grader_test::count;
using grader_test::has;
using grader_test::sample;

std::string text(const grader::Report& r, bool verbose) {
  std::ostringstream out;
  grader::print_terminal(r, out, false, verbose);
  return out.str();
}

// The checks' part of the report, before the total and "Start here".
std::string body(const std::string& report) { return report.substr(0, report.find("\nTotal:")); }

}  // namespace

TEST_CASE("terminal report: the checks of a function not written yet are one line") {
  const std::string folded = text(sample(), false);
  CHECK(count(folded, "TODO ") == 1);
  CHECK(has(folded, "(3 checks)"));
  CHECK(has(folded, "0/4.5   g: not written yet"));
  CHECK_FALSE(has(folded, "g/two"));
  const std::string verbose = text(sample(), true);
  CHECK(count(verbose, "TODO ") == 3);
  CHECK(has(verbose, "g/two"));
}

TEST_CASE("terminal report: a likely mistake shared by several checks is explained once") {
  const std::string folded = body(text(sample(), false));
  // Explained under the first check, the others named there and pointing back to it.
  CHECK(has(folded, "details of hand-example"));
  CHECK(count(folded, "Likely mistake: the mask drops the diagonal.") == 1);
  CHECK(has(
      folded,
      "The same likely mistake explains 2 more checks below: uneven-last-chunk many-chunk-sizes"));
  // Each of the others is one line: its status line, pointing back.
  CHECK(count(folded, "(likely mistake: as hand-example)\n") == 2);
  CHECK(has(folded, " f  (likely mistake: as hand-example)\n  FAIL   large-eps"));
  CHECK_FALSE(has(folded, "details of uneven-last-chunk"));
  CHECK_FALSE(has(folded, "details of many-chunk-sizes"));
  CHECK_FALSE(has(folded, "--only chunkwise/uneven-last-chunk"));
  // A mistake of its own is shown in full.
  CHECK(has(folded, "details of large-eps"));
  CHECK(has(folded, "Likely mistake: eps added twice."));
  // Every check still has its line.
  for (const char* name :
       {"FAIL   hand-example", "FAIL   uneven-last-chunk", "CRASH  many-chunk-sizes"})
    CHECK(has(folded, name));
  // --verbose: every check's own details, nothing folded.
  const std::string verbose = body(text(sample(), true));
  CHECK(count(verbose, "Likely mistake: the mask drops the diagonal.") == 3);
  CHECK(has(verbose, "details of uneven-last-chunk"));
  CHECK_FALSE(has(verbose, "(likely mistake: as"));
}

TEST_CASE("terminal report: it ends with where to start") {
  const std::string folded = text(sample(), false);
  const std::size_t start = folded.find("Start here: chunkwise, hand-example (FAIL)");
  REQUIRE(start != std::string::npos);
  CHECK(start > folded.find("Total:"));
  const std::string tail = folded.substr(start);
  CHECK(has(tail, "Likely mistake: the mask drops the diagonal."));
  CHECK(has(tail, "rerun: ./kit grade sub --only chunkwise/hand-example --seed 1"));
  CHECK(has(text(sample(), true), "Start here: chunkwise, hand-example (FAIL)"));

  // Only functions not written yet: start with the first of them.
  grader::Report todo = sample();
  auto& checks = todo.exercises[0].checks;
  checks.erase(checks.begin() + 1, checks.begin() + 5);
  CHECK(has(text(todo, false), "Start here: chunkwise, g/one (TODO)\n  g is not written yet"));

  // A check the grader itself failed on is not the student's to start with.
  grader::Report fault = sample();
  fault.exercises[0].checks[1].grader_fault = true;
  CHECK(has(text(fault, false), "Start here: chunkwise, uneven-last-chunk (FAIL)"));

  // A value check stopped by its time limit says nothing of why; the time check of the same
  // function names the likely mistake, and comes first. One of another function does not.
  grader::Report slow = sample();
  slow.exercises[0].checks[1].status = grader_test::status_called("timeout");
  slow.exercises[0].checks[1].message = "stopped after 10 s";
  slow.exercises[0].checks[2].function = slow.exercises[0].checks[4].function = "h";
  slow.exercises[0].checks[3].name = "linear-time";
  slow.exercises[0].checks[3].message =
      "grew 16.4 times as much\nLikely mistake: a sum over every earlier token.";
  CHECK(has(text(slow, false),
            "Start here: chunkwise, linear-time (FAIL)\n  Likely mistake: a "
            "sum over every earlier token."));
  slow.exercises[0].checks[3].function = "h";
  CHECK(has(text(slow, false), "Start here: chunkwise, hand-example (TIME)"));

  // A crash guesses its likely mistake from the kind of crash (a shape assertion); a later
  // check of the same function that compared outputs names it from them, and comes first.
  // One of another function does not, and a crash with no such check stays first.
  grader::Report crashed = sample();
  auto& cc = crashed.exercises[0].checks;
  cc[1].status = grader_test::status_called("crashed");
  cc[1].message = "stopped by SIGABRT\nLikely mistake: a shape mismatch, most often dV transposed.";
  cc[2].function = "h";
  cc[3].message = "dV: 3 x 2 where 2 x 3 was expected\nLikely mistake: dV is transposed.";
  CHECK(has(text(crashed, false), "Start here: chunkwise, " + cc[3].name +
                                      " (FAIL)\n  Likely mistake: dV is transposed."));
  cc[3].function = "h";
  CHECK(has(text(crashed, false),
            "Start here: chunkwise, " + cc[1].name +
                " (CRASH)\n  Likely mistake: a shape mismatch, most often dV transposed."));

  // Full marks: nothing to start with.
  grader::Report full = sample();
  full.exercises[0].checks.resize(1);
  CHECK_FALSE(has(text(full, false), "Start here"));
}

TEST_CASE("terminal report: a folded line's points stand in the checks' points column") {
  const std::string report = text(sample(), false);
  const auto line_with = [&](const std::string& part) {
    const std::size_t at = report.find(part);
    REQUIRE(at != std::string::npos);
    const std::size_t begin = report.rfind('\n', at) + 1;
    return report.substr(begin, report.find('\n', at) - begin);
  };
  const std::string folded = line_with("(3 checks)"), passed = line_with("chunk-one");
  CAPTURE(folded);
  CAPTURE(passed);
  CHECK(folded.find("0/4.5") == passed.find("3/3"));
  CHECK(folded.find("g: not written yet") == passed.find(" f") + 1);
}

TEST_CASE("terminal report: a crash's Start here names the line it stopped at") {
  grader::Report r = sample();
  grader::CheckResult& first = r.exercises[0].checks[1];  // hand-example, the first to act on
  first.status = grader_test::status_called("crashed");
  first.message =
      "Tried: f(Q: 3 x 2).\ncrashed: SIGABRT. It stopped at chunkwise/chunkwise.cpp line 12: "
      "`S += k * v;`. An abort usually comes from a failed assertion.\nLikely mistake: the state "
      "used transposed.";
  for (auto& c : r.exercises[0].checks)  // no later check names the mistake from outputs
    if (c.status == grader::Status::Failed) c.message = "details";
  const std::string report = text(r, false);
  CHECK(has(report,
            "Start here: chunkwise, hand-example (CRASH)\n  It stopped at chunkwise/chunkwise.cpp "
            "line 12: `S += k * v;`. Likely mistake: the state used transposed.\n"));
}
