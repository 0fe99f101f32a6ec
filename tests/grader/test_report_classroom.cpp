// GitHub Classroom's payload (--github-classroom) on hand-made reports: the field names and
// statuses classroom-resources/autograding-grading-reporter reads, points that add up, and
// the run's status (pass only at full marks, error only for a fault of the grader).
#include "src/report/report.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

grader::CheckResult check(const std::string& name, const std::string& function,
                          const std::string& status, double score, double max_score,
                          std::uint64_t seed, double seconds, const std::string& visibility) {
  grader::CheckResult c;
  c.name = name;
  c.function = function;
  c.status = grader_test::status_called(status);
  c.score = score;
  c.max_score = max_score;
  c.seed = seed;
  c.message = status == "passed" ? "" : "why " + name + " did not pass";
  c.output = "printed by " + name;
  c.seconds = seconds;
  c.visibility = visibility;
  c.rerun = "./kit grade carol --only " + name + " --seed " + std::to_string(seed);
  return c;
}

// Every status of the contract, each check with points, seed and time of its own; causal
// builds, memory does not.
grader::Report report() {
  grader::Report r;
  r.submission = "carol";
  r.seconds = 7.25;
  r.isolation = "namespaces";
  grader::ExerciseResult causal;
  causal.name = "causal";
  causal.build_ok = true;
  causal.checks = {
      check("recurrent/hand-example", "causal_linear_attention_recurrent", "passed", 3, 3, 41,
            0.125, "visible"),
      check("recurrent/large-eps", "causal_linear_attention_recurrent", "failed", 0, 1.5, 42, 0.25,
            "hidden"),
      check("parallel/hand-example", "causal_linear_attention_parallel", "crashed", 0, 2, 43, 0.5,
            "visible"),
      check("step/from-zero", "linear_attention_step", "passed", 2.5, 2.5, 44, 1.5,
            "after_due_date"),
      check("step/loop", "linear_attention_step", "timeout", 0, 1, 45, 10.0, "visible"),
      check("step/big", "linear_attention_step", "over_memory", 0, 0.5, 46, 2.0, "visible"),
      check("step/throws", "linear_attention_step", "error", 0, 3.5, 47, 0.0625, "visible"),
      check("parallel/stub", "causal_linear_attention_parallel", "not_implemented", 0, 2, 48, 0.01,
            "visible")};
  causal.score = 5.5;
  causal.max_score = 16;
  grader::ExerciseResult memory;
  memory.name = "memory";
  memory.build_ok = false;
  memory.checks = {check("read/basic", "read", "build_error", 0, 1, 51, 0, "visible"),
                   check("write/basic", "write", "build_error", 0, 0.5, 52, 0, "hidden")};
  memory.score = 0;
  memory.max_score = 1.5;
  r.exercises = {causal, memory};
  r.score = 5.5;
  r.max_score = 17.5;
  return r;
}

grader::Report full_marks() {
  grader::Report r = report();
  r.score = 0;
  for (auto& ex : r.exercises) {
    ex.build_ok = true;
    ex.score = ex.max_score;
    for (auto& c : ex.checks) {
      c.status = grader_test::status_called("passed");
      c.message.clear();
      c.score = c.max_score;
    }
    r.score += ex.score;
  }
  return r;
}

double sum(const nlohmann::json& tests, const char* field) {
  double total = 0;
  for (const auto& t : tests) total += t.at(field).get<double>();
  return total;
}

}  // namespace

TEST_CASE("github classroom: the reporter's fields, one test per check, named exercise: check") {
  const grader::Report in = report();
  const auto j = grader::to_github_classroom_json(in);
  // The top level the reporter reads, and nothing of the native report's own.
  CHECK(j.at("version") == 1);
  CHECK(j.at("status") == "fail");
  CHECK(j.at("max_score").get<double>() == 17.5);
  CHECK_FALSE(j.contains("exercises"));
  CHECK_FALSE(j.contains("submission"));
  const auto& tests = j.at("tests");
  REQUIRE(tests.is_array());
  REQUIRE(tests.size() == 10);
  const std::set<std::string> fields = {"name",      "status",   "score",   "max_score", "message",
                                        "test_code", "filename", "line_no", "duration"};
  std::size_t t = 0;
  for (const auto& ex : in.exercises)
    for (const auto& c : ex.checks) {
      const auto& g = tests.at(t++);
      CAPTURE(c.name);
      std::set<std::string> keys;
      for (const auto& item : g.items()) keys.insert(item.key());
      CHECK(keys == fields);
      CHECK(g.at("name") == ex.name + ": " + c.name);
      CHECK(g.at("status") == (c.status == grader::Status::Passed ? "pass" : "fail"));
      CHECK(g.at("score").is_number());
      CHECK(g.at("score").get<double>() == c.score);
      CHECK(g.at("max_score").get<double>() == c.max_score);
      CHECK(g.at("filename") == ex.name + "/" + ex.name + ".cpp");
      // 0, or the reporter prints "- line N" beside the name.
      CHECK(g.at("line_no") == 0);
      CHECK(g.at("duration").get<std::int64_t>() ==
            static_cast<std::int64_t>(c.seconds * 1000 + 0.5));
      const std::string message = g.at("message");
      const std::string code = g.at("test_code");
      if (c.status == grader::Status::Passed) {
        CHECK(message.empty());
        CHECK(code.empty());
      } else {
        CHECK(message == std::string(grader::status_name(c.status)) + ": " +
                             c.message);  // the native status and message
      }
      CHECK_FALSE(has(message, c.output));  // what the code printed stays in the job's log
      if (c.status != grader::Status::Passed && c.visibility == "visible") CHECK(code == c.rerun);
      if (c.visibility != "visible") CHECK(code.empty());  // no seed of a hidden check
    }
  CHECK(tests.at(0).at("name") == "causal: recurrent/hand-example");
  CHECK(tests.at(8).at("name") == "memory: read/basic");
  CHECK(tests.at(2).at("message") == "crashed: why parallel/hand-example did not pass");
  CHECK(tests.at(9).at("status") == "fail");  // build_error is a failed test, not an error
}

TEST_CASE("github classroom: test scores add up to the report's score, max_scores to max_score") {
  const grader::Report in = report();
  const auto j = grader::to_github_classroom_json(in);
  // The reporter records the sum of the tests' scores out of the sum of the runners' max_score.
  CHECK(sum(j.at("tests"), "score") == 5.5);
  CHECK(sum(j.at("tests"), "max_score") == j.at("max_score").get<double>());
  CHECK(j.at("max_score").get<double>() == in.max_score);

  // Binary noise is rounded away: 0.1 + 0.2 points is 0.3, and the totals stay consistent.
  grader::Report noisy = in;
  noisy.exercises[0].checks[0].score = noisy.exercises[0].checks[0].max_score = 0.1 + 0.2;
  noisy.exercises[0].checks[3].max_score = 2.675000000001;
  noisy.exercises[0].checks[3].score = 2.675000000001;
  noisy.max_score = 17.5 - 3 + 0.1 + 0.2 - 2.5 + 2.675000000001;
  const auto k = grader::to_github_classroom_json(noisy);
  CHECK(k.at("tests").at(0).at("score").get<double>() == 0.3);
  CHECK(k.at("tests").at(3).at("max_score").get<double>() == 2.68);
  CHECK(k.at("max_score").get<double>() ==
        doctest::Approx(sum(k.at("tests"), "max_score")).epsilon(1e-12));
  CHECK(k.at("max_score").get<double>() == 14.98);
}

TEST_CASE("github classroom: the run passes only at full marks, errs only for the grader's fault") {
  CHECK(grader::to_github_classroom_json(report()).at("status") == "fail");

  const grader::Report all = full_marks();
  const auto pass = grader::to_github_classroom_json(all);
  CHECK(pass.at("status") == "pass");
  CHECK(sum(pass.at("tests"), "score") == 17.5);
  for (const auto& t : pass.at("tests")) CHECK(t.at("status") == "pass");

  // One check short of full marks: fail.
  grader::Report one_short = all;
  one_short.exercises[1].checks[1].status = grader_test::status_called("failed");
  one_short.exercises[1].checks[1].score = 0;
  one_short.exercises[1].score -= 0.5;
  one_short.score -= 0.5;
  CHECK(grader::to_github_classroom_json(one_short).at("status") == "fail");

  // A submission's own exception is a failed test ("error" is the grader's word only).
  grader::Report thrown = all;
  thrown.exercises[0].checks[6].status = grader_test::status_called("error");
  thrown.exercises[0].checks[6].score = 0;
  thrown.score -= 3.5;
  const auto t = grader::to_github_classroom_json(thrown);
  CHECK(t.at("status") == "fail");
  CHECK(t.at("tests").at(6).at("status") == "fail");

  // The grader failed on one check: that test and the run are "error", the others unchanged.
  grader::Report fault = all;
  fault.grader_fault = true;
  auto& c = fault.exercises[0].checks[4];
  c.status = grader_test::status_called("error");
  c.grader_fault = true;
  c.message = "The grader itself failed on this check (not your fault): could not start the runner";
  c.score = 0;
  fault.score -= 1;
  const auto f = grader::to_github_classroom_json(fault);
  CHECK(f.at("status") == "error");
  CHECK(f.at("tests").at(4).at("status") == "error");
  CHECK(
      f.at("tests").at(4).at("message") ==
      "error: The grader itself failed on this check (not your fault): could not start the runner");
  CHECK(f.at("tests").at(3).at("status") == "pass");

  // A fault of the grader at the level of the report alone (no check to blame) still errs.
  grader::Report whole = all;
  whole.grader_fault = true;
  CHECK(grader::to_github_classroom_json(whole).at("status") == "error");

  // Nothing graded (max_score 0) is not a failure.
  grader::Report empty;
  empty.submission = "nobody";
  const auto e = grader::to_github_classroom_json(empty);
  CHECK(e.at("status") == "pass");
  CHECK(e.at("max_score").get<double>() == 0);
  CHECK(e.at("tests").empty());
}

TEST_CASE(
    "github classroom: long messages are cut on a character boundary, with a pointer to the log") {
  grader::Report r = report();
  std::string long_message;
  while (long_message.size() < 5000) long_message += "\xce\xbb=0.5 ";  // "λ=0.5 ", 2-byte lambda
  r.exercises[0].checks[1].message = long_message;
  const auto j = grader::to_github_classroom_json(r);
  const std::string m = j.at("tests").at(1).at("message");
  CHECK(m.size() < 700);
  CHECK(has(m, "job's log"));
  CHECK(m.rfind("failed: \xce\xbb=0.5", 0) == 0);
  // Still valid UTF-8: dumping with the strict handler does not throw.
  CHECK_NOTHROW((void)j.dump());
  // The payload of a whole run stays far below the 128 KiB an environment variable may hold.
  grader::Report big = r;
  for (auto& ex : big.exercises)
    for (auto& c : ex.checks) c.message = long_message;
  for (int copy = 0; copy < 4; ++copy) big.exercises.push_back(big.exercises[0]);
  CHECK(grader::to_github_classroom_json(big).dump(2).size() < 40000);
}
