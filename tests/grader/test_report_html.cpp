// A student's page (report_html.hpp) carries the terminal report's structure (issue 34): "Start
// here" first, the same folding (a <details> is open exactly when the terminal shows that
// check's details), the same status words and tags, the hand-out and the hint command, the
// submission's own name, and a build error said once. The page is made from the native report,
// as merge-grades makes it, and compared with what the shared layout (report_layout.hpp) and the
// terminal decide for the same run.
#include "folding_sample.hpp"
#include "src/report/report.hpp"
#include "src/report/report_html.hpp"
#include "src/report/report_layout.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

using grader_test::check;
using grader_test::count;
using grader_test::has;
using grader_test::status_called;

grader::Report one_exercise(const std::string& submission, grader::ExerciseResult ex) {
  for (const auto& c : ex.checks) {
    ex.max_score += c.max_score;
    ex.score += c.score;
  }
  grader::Report r;
  r.submission = submission;
  r.exercises = {ex};
  r.score = ex.score;
  r.max_score = ex.max_score;
  return r;
}

// The terminal's sample (folding_sample.hpp), graded in a folder of the grader's, with a check
// that waits for the due date.
grader::Report sample() {
  grader::Report r = grader_test::sample();
  r.submission = "/home/grader/class/sub";
  r.exercises[0].checks[3].visibility = "after_due_date";
  return r;
}

// As grade --html writes it into a folder beside the kit's root (the kit is "../" from there).
std::string page_of(const grader::Report& r) {
  return grader::student_report_html(grader::to_native_json(r), std::string("../"));
}

std::string terminal_of(const grader::Report& r) {
  std::ostringstream out;
  grader::print_terminal(r, out, false);
  return out.str();
}

// The <details> elements of the checks, in page order: whether each one is open.
std::vector<bool> open_states(const std::string& page) {
  std::vector<bool> states;
  const std::string tag = "<details class=\"check ";
  for (std::size_t at = page.find(tag); at != std::string::npos; at = page.find(tag, at + 1))
    states.push_back(page.substr(at, page.find('>', at) - at).find(" open") != std::string::npos);
  return states;
}

}  // namespace

TEST_CASE("student report page: folded as the terminal folds, open where it shows details") {
  const grader::Report r = sample();
  const std::string page = page_of(r);
  // One <details> per row of the shared layout, open exactly where the terminal expands.
  std::vector<bool> expected;
  for (const auto& row : grader::report_rows(r.exercises[0], false))
    expected.push_back(row.expanded);
  CHECK(open_states(page) == expected);
  CHECK(open_states(page) == std::vector<bool>{false, true, false, true, false, false});
  // The rows the terminal folds into one line: the shared mistake's others, the unwritten
  // function's three checks.
  CHECK(count(page, "(likely mistake: as hand-example)") == 2);
  CHECK(has(page,
            "The same likely mistake explains 2 more checks below: uneven-last-chunk "
            "many-chunk-sizes."));
  CHECK(has(page, "<span class=\"check-name\">g</span>: not written yet (3 checks) 0/4.5"));
  CHECK(count(page, "<details class=\"check check-todo\"") == 1);
  // The terminal says the same of them.
  const std::string terminal = terminal_of(r);
  CHECK(count(terminal, "(likely mistake: as hand-example)") == 2);
  CHECK(has(terminal, "g: not written yet"));
}

TEST_CASE("student report page: the terminal's status words and tags") {
  const std::string page = page_of(sample());
  for (const char* word : {"PASS", "FAIL", "CRASH", "TODO"})
    CHECK(has(page, std::string("<span class=\"verdict\">") + word + "</span>"));
  // The contract's words stay in data-status, for machines; a reader never sees them.
  for (const char* raw : {"failed", "not_implemented", "crashed", "passed"})
    CHECK_FALSE(has(page, std::string("<span class=\"verdict\">") + raw));
  CHECK(has(page, "<span class=\"tag\">[after_due_date]</span>"));
  CHECK(has(terminal_of(sample()), "[after_due_date]"));
  // One function decides the words for both reports.
  for (const char* status : {"passed", "failed", "not_implemented", "error", "crashed", "timeout",
                             "over_memory", "build_error", "ambiguous", "grader_fault"}) {
    grader::ExerciseResult ex;
    ex.name = "flops";
    ex.build_ok = true;
    ex.checks = {check("one", "f", status, 1, "why")};
    const grader::Report r = one_exercise("sub", ex);
    const std::string word = grader::status_word(status_called(status));
    CHECK(has(page_of(r), "<span class=\"verdict\">" + word + "</span>"));
    CHECK(has(terminal_of(r), "  " + word));
  }
}

TEST_CASE("student report page: start here first, with the hand-out and the hint command") {
  const std::string page = page_of(sample());
  const std::size_t start = page.find("<section class=\"start-here\">");
  REQUIRE(start != std::string::npos);
  CHECK(start < page.find("<table class=\"exercises\">"));
  CHECK(start < page.find("<section class=\"exercise\""));
  const std::string section = page.substr(start, page.find("</section>", start) - start);
  CHECK(has(section, "chunkwise</a>, hand-example (FAIL)"));
  CHECK(has(section, "Likely mistake: the mask drops the diagonal."));
  CHECK(has(section, "<code>./kit grade sub --only chunkwise/hand-example --seed 1</code>"));
  // Every exercise links its hand-out, from where the page is, and names the hint command.
  CHECK(
      has(page, "<a href=\"../exercises/chunkwise/README.md\">exercises/chunkwise/README.md</a>"));
  CHECK(has(page, "<code>./kit hint chunkwise</code>"));

  // Nothing written yet: start with the first function, its hand-out a link.
  grader::Report todo = sample();
  auto& checks = todo.exercises[0].checks;
  checks.erase(checks.begin() + 1, checks.begin() + 5);
  const std::string todo_page = page_of(todo);
  const std::size_t todo_start = todo_page.find("<section class=\"start-here\">");
  const std::string advice =
      todo_page.substr(todo_start, todo_page.find("</section>", todo_start) - todo_start);
  CHECK(has(advice, "g/one (TODO)"));
  CHECK(has(advice, "g is not written yet: <a href=\"../exercises/chunkwise/README.md\">"));
  CHECK(has(advice, "<code>./kit hint chunkwise</code> helps when stuck."));

  // Full marks: nowhere to start.
  grader::Report full = sample();
  full.exercises[0].checks.resize(1);
  CHECK_FALSE(has(page_of(full), "<section class=\"start-here\">"));
}

TEST_CASE(
    "student report page: the hand-out as a link from the page, or as text away from the kit") {
  // grade-all's pages are read away from the kit (an instructor may hand them out): the path
  // in the kit, as text, and no link that would lead nowhere.
  const std::string away = grader::student_report_html(grader::to_native_json(sample()));
  CHECK(has(away, "Hand-out: <code>exercises/chunkwise/README.md</code>"));
  CHECK_FALSE(has(away, "README.md\">"));
  // Where the kit is, seen from the page's folder.
  CHECK(grader::kit_url_from("/srv/kit/page.html", "/srv/kit") == "");
  CHECK(grader::kit_url_from("/srv/kit/build/out/page.html", "/srv/kit") == "../../");
  CHECK(grader::kit_url_from("/home/ana/page.html", "/srv/my kit") == "../../srv/my%20kit/");
  CHECK(grader::kit_url_from("/srv/kit/build/../page.html", "/srv/kit/") == "");
}

TEST_CASE("student report page: the heading names the submission, never the grader's path") {
  const std::string page = page_of(sample());
  CHECK(has(page, "<h1>Report: sub</h1>"));
  CHECK(has(page, "<title>Report: sub</title>"));
  CHECK_FALSE(has(page, "/home/grader"));
  grader::Report trailing = sample();
  trailing.submission = "class/ada/";
  CHECK(has(page_of(trailing), "<h1>Report: ada</h1>"));
  trailing.submission = "bob";
  CHECK(has(page_of(trailing), "<h1>Report: bob</h1>"));
  trailing.submission = ".";
  CHECK(has(page_of(trailing), "<h1>Report: submission</h1>"));
}

TEST_CASE("student report page: a build error is shown once") {
  grader::ExerciseResult ex;
  ex.name = "backward";
  ex.build_ok = false;
  ex.source_status = "found";
  ex.build_log = "backward.cpp:3: error: expected ';'\n";
  const std::string message = "The exercise does not build:\nbackward.cpp:3: error: expected ';'";
  for (int i = 0; i < 23; ++i)
    ex.checks.push_back(
        check("backward/check-" + std::to_string(i), "f", "build_error", 1, message));
  const std::string page = page_of(one_exercise("sub", ex));
  CHECK(count(page, "error: expected") == 1);
  CHECK(count(page, " open>") == 1);
  CHECK_FALSE(has(page, "The same message as"));
  CHECK(count(page, "Not run: the build error is shown under backward/check-0.") == 22);
  CHECK(has(page, "backward/check-0 (BUILD)"));
  CHECK(has(page, "(does not build)"));
}

TEST_CASE("student report page: competing files are listed only when they compete") {
  grader::ExerciseResult ex;
  ex.name = "causal";
  ex.build_ok = false;
  ex.source_status = "ambiguous";
  ex.source_others = {"causal/causal.cpp", "old/causal.cpp"};
  ex.checks = {check("causal/one", "f", "ambiguous", 1, "Several files could be causal.cpp")};
  const std::string page = page_of(one_exercise("sub", ex));
  CHECK(has(page, "These files compete for the exercise; keep one:"));
  CHECK(has(page, "<li><code>causal/causal.cpp</code></li>\n<li><code>old/causal.cpp</code></li>"));
  // A file found alone is graded without a list (sample()'s exercise was found).
  CHECK_FALSE(has(page_of(sample()), "compete"));
  ex.source_status = "found";
  ex.source_others.clear();
  CHECK_FALSE(has(page_of(one_exercise("sub", ex)), "compete"));
}
