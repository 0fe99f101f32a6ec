// Gradescope's results.json and the checks students may not see yet: each test keeps the
// visibility the assignment gave its check, and the line at the top adds up the visible
// checks only, so that it never gives away what the (hidden) total holds.
#include "src/report/report.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

grader::CheckResult check(const std::string& name, double score, double max,
                          const std::string& visibility) {
  grader::CheckResult c;
  c.name = name;
  c.function = "f";
  c.status = score == max ? grader::Status::Passed : grader::Status::Failed;
  c.score = score;
  c.max_score = max;
  c.visibility = visibility;
  return c;
}

// Visible: 3 of 4 points. Not visible, and all passed: 2 + 1.5 + 1 points.
grader::Report report() {
  grader::Report r;
  grader::ExerciseResult ex;
  ex.name = "causal";
  ex.checks = {check("recurrent/hand", 3, 3, "visible"), check("recurrent/eps", 0, 1, "visible"),
               check("parallel/random", 2, 2, "after_due_date"),
               check("step/random", 1.5, 1.5, "after_published"),
               check("step/extra", 1, 1, "hidden")};
  for (const auto& c : ex.checks) {
    ex.score += c.score;
    ex.max_score += c.max_score;
  }
  r.exercises = {ex};
  r.score = ex.score;
  r.max_score = ex.max_score;
  return r;
}

}  // namespace

TEST_CASE("gradescope: every test carries its check's visibility, the four of Gradescope") {
  const auto j = grader::to_gradescope_json(report());
  const auto& tests = j.at("tests");
  REQUIRE(tests.size() == 5);
  CHECK(tests.at(0).at("visibility") == "visible");
  CHECK(tests.at(2).at("visibility") == "after_due_date");
  CHECK(tests.at(3).at("visibility") == "after_published");
  CHECK(tests.at(4).at("visibility") == "hidden");
  // The score Gradescope keeps is the whole one; Gradescope hides it from students while a
  // test waits for the due date or for publishing.
  CHECK(j.at("score").get<double>() == 7.5);
}

TEST_CASE("gradescope: the top line adds up the visible checks only") {
  const std::string line = grader::to_gradescope_json(report()).at("output");
  INFO(line);
  CHECK(line.rfind("linattn-kit grader: 3 / 4 in the checks shown now.", 0) == 0);
  CHECK(line.find("(4.5 points)") !=
        std::string::npos);  // what is held back: its size, not its score
  CHECK(line.find("after the due date or when grades are published") != std::string::npos);
  // Neither the whole score (7.5), nor the other checks' (4.5 of 4.5), nor all the points
  // (8.5) appears.
  CHECK(line.find("7.5") == std::string::npos);
  CHECK(line.find("8.5") == std::string::npos);
  CHECK(line.find("4.5 /") == std::string::npos);
}

TEST_CASE("gradescope: the top line says when the rest appears") {
  grader::Report r = report();
  r.exercises[0].checks[3].visibility = "after_due_date";
  std::string line = grader::to_gradescope_json(r).at("output");
  CHECK(line.find("which is shown after the due date.") != std::string::npos);
  r.exercises[0].checks[2].visibility = r.exercises[0].checks[3].visibility = "after_published";
  line = grader::to_gradescope_json(r).at("output");
  CHECK(line.find("which is shown when grades are published.") != std::string::npos);
  // Everything visible: the total, as before.
  for (auto& c : r.exercises[0].checks) c.visibility = "visible";
  CHECK(grader::to_gradescope_json(r).at("output") == "linattn-kit grader: 7.5 / 8.5");
}
