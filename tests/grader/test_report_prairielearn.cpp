// PrairieLearn's results.json (report_prairielearn.cpp), on hand-made reports: the fields its
// external grader reads, a score as a fraction, the checks not shown yet folded into one test
// that names none of them, a build error's compiler output, and a grader fault not gradable.
#include "src/report/report_prairielearn.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

grader::CheckResult check(const std::string& name, const char* status, double score, double max,
                          const std::string& visibility) {
  grader::CheckResult c;
  c.name = name;
  c.function = "causal_linear_attention_recurrent";
  c.status = grader_test::status_called(status);
  c.score = score;
  c.max_score = max;
  c.seed = 42;
  c.visibility = visibility;
  if (score < max) {
    c.message = "expected 1, got 2";
    c.rerun = "./kit grade x --only causal/" + name + " --seed 42";
  }
  return c;
}

// causal: 3 of 4 visible points, 2 of 3.5 points not shown yet.
grader::Report report() {
  grader::Report r;
  grader::ExerciseResult ex;
  ex.name = "causal";
  ex.build_ok = true;
  ex.source = "causal.cpp";
  ex.source_status = "found";
  ex.checks = {check("recurrent/hand", "passed", 3, 3, "visible"),
               check("recurrent/eps", "failed", 0, 1, ""),
               check("parallel/secret-one", "passed", 2, 2, "after_due_date"),
               check("parallel/secret-two", "failed", 0, 1.5, "hidden")};
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

TEST_CASE("prairielearn: a fraction of the points, the checks shown, the others folded") {
  const auto j = grader::to_prairielearn_json(report());
  CHECK(j.at("gradable") == true);
  CHECK(j.at("score").get<double>() == doctest::Approx(5.0 / 7.5));
  CHECK(j.at("message").get<std::string>().rfind("linattn-kit grader: 5 / 7.5 points.", 0) == 0);
  const auto& tests = j.at("tests");
  REQUIRE(tests.size() == 3);
  CHECK(tests.at(0).at("name") == "causal: recurrent/hand");
  CHECK(tests.at(0).at("points").get<double>() == 3);
  CHECK(tests.at(0).at("max_points").get<double>() == 3);
  CHECK(tests.at(0).at("message") == "");
  // A failed check: its message, and the command that reruns it in the student kit, with no
  // seed (the course's inputs are not the kit's).
  CHECK(tests.at(1).at("points").get<double>() == 0);
  CHECK(tests.at(1).at("message") == "expected 1, got 2");
  const std::string out = tests.at(1).at("output");
  CHECK(out.find("rerun in your kit: ./kit grade --only causal/recurrent/eps") !=
        std::string::npos);
  CHECK(out.find("--seed") == std::string::npos);
  // The two not shown: one test with their points, no name of theirs anywhere.
  CHECK(tests.at(2).at("name") == "causal: further checks");
  CHECK(tests.at(2).at("points").get<double>() == 2);
  CHECK(tests.at(2).at("max_points").get<double>() == 3.5);
  CHECK(tests.at(2).at("message") == "1 of 2 passed");
  CHECK(j.dump().find("secret") == std::string::npos);
  // Every test has the six fields PrairieLearn's results panel reads; the points add up.
  double points = 0, max_points = 0;
  for (const auto& t : tests) {
    for (const char* key : {"name", "description", "points", "max_points", "message", "output"})
      CHECK(t.contains(key));
    points += t.at("points").get<double>();
    max_points += t.at("max_points").get<double>();
  }
  CHECK(points == 5);
  CHECK(max_points == 7.5);
}

TEST_CASE("prairielearn: full marks are a score of 1, nothing is 0") {
  grader::Report r = report();
  r.score = r.max_score;
  CHECK(grader::to_prairielearn_json(r).at("score").get<double>() == 1.0);
  r.score = 0;
  CHECK(grader::to_prairielearn_json(r).at("score").get<double>() == 0.0);
  r.max_score = 0;  // an assignment with no points must not divide by zero
  CHECK(grader::to_prairielearn_json(r).at("score").get<double>() == 0.0);
}

TEST_CASE("prairielearn: a build error is gradable, scores 0 and shows the compiler") {
  grader::Report r = report();
  auto& ex = r.exercises.at(0);
  ex.build_ok = false;
  ex.build_log = "causal.cpp:3:1: error: expected ';'";
  for (auto& c : ex.checks) {
    c.status = grader_test::status_called("build_error");
    c.score = 0;
  }
  r.score = ex.score = 0;
  const auto j = grader::to_prairielearn_json(r);
  CHECK(j.at("gradable") == true);
  CHECK(j.at("score").get<double>() == 0.0);
  CHECK(j.at("message").get<std::string>().find("causal did not compile") != std::string::npos);
  CHECK(j.at("output").get<std::string>().find("causal.cpp:3:1: error: expected ';'") !=
        std::string::npos);
}

TEST_CASE("prairielearn: a fault of the grader is not gradable and gives no score") {
  grader::Report r = report();
  r.grader_fault = true;
  const auto j = grader::to_prairielearn_json(r);
  CHECK(j.at("gradable") == false);
  CHECK(j.at("score").get<double>() == 0.0);
  CHECK(j.at("message").get<std::string>().find("The grader itself failed") != std::string::npos);
}
