// The four report writers, on a small hand-made report: the contract's field names, the
// Gradescope and JUnit translations, escaping, and colour only when asked for.
#include "src/report.hpp"

#include <doctest/doctest.h>

#include <sstream>

namespace {

grader::Report sample_report() {
  grader::Report r;
  r.submission = "alice";
  r.seconds = 1.5;
  grader::ExerciseResult ex;
  ex.name = "causal";
  ex.build_ok = true;
  grader::CheckResult pass;
  pass.name = "recurrent/hand-example";
  pass.function = "causal_linear_attention_recurrent";
  pass.status = "passed";
  pass.score = pass.max_score = 3;
  pass.seed = 1;
  pass.visibility = "visible";
  grader::CheckResult fail = pass;
  fail.name = "recurrent/large-eps";
  fail.status = "failed";
  fail.score = 0;
  fail.max_score = 1.5;
  fail.message = "expected <1> & got \"2\"\nLikely mistake: eps";
  fail.output = std::string("bell\x07 here");
  fail.rerun = "./kit grade alice --only causal/recurrent/large-eps --seed 1";
  grader::CheckResult crash = pass;
  crash.name = "parallel/hand-example";
  crash.function = "causal_linear_attention_parallel";
  crash.status = "crashed";
  crash.score = 0;
  crash.max_score = 2;
  crash.visibility = "hidden";
  ex.checks = {pass, fail, crash};
  ex.score = 3;
  ex.max_score = 6.5;
  r.exercises = {ex};
  r.score = 3;
  r.max_score = 6.5;
  return r;
}

}  // namespace

TEST_CASE("reports: the native JSON has the contract's fields") {
  const auto j = grader::to_native_json(sample_report());
  CHECK(j["submission"] == "alice");
  CHECK(j["score"] == 3);
  CHECK(j["max_score"] == 6.5);
  const auto& ex = j["exercises"][0];
  CHECK(ex["name"] == "causal");
  CHECK(ex["score"] == 3);
  CHECK(ex["max_score"] == 6.5);
  CHECK(ex["build"]["ok"] == true);
  CHECK(ex["build"]["log"] == "");
  const auto& c = ex["checks"][1];
  for (const char* field : {"name", "function", "status", "score", "max_score", "seed", "message", "output", "seconds"})
    CHECK_MESSAGE(c.contains(field), field);
  CHECK(c["status"] == "failed");
  CHECK(c["function"] == "causal_linear_attention_recurrent");
}

TEST_CASE("reports: Gradescope's results.json") {
  const auto j = grader::to_gradescope_json(sample_report());
  CHECK(j["score"] == 3);
  CHECK(j["execution_time"] == 1.5);
  REQUIRE(j["tests"].size() == 3);
  const auto& t = j["tests"][1];
  CHECK(t["name"] == "causal/recurrent/large-eps (causal_linear_attention_recurrent)");
  CHECK(t["number"] == "1.2");
  CHECK(t["score"] == 0);
  CHECK(t["max_score"] == 1.5);
  CHECK(t["status"] == "failed");
  CHECK(t["visibility"] == "visible");
  CHECK(t["output"].get<std::string>().find("Likely mistake: eps") != std::string::npos);
  CHECK(j["tests"][2]["visibility"] == "hidden");
  CHECK(j["tests"][0]["status"] == "passed");
}

TEST_CASE("reports: JUnit counts failures and errors and escapes what XML forbids") {
  const std::string xml = grader::to_junit_xml(sample_report());
  CHECK(xml.find("<testsuites name=\"linattn-kit\" tests=\"3\" failures=\"1\" errors=\"1\"") != std::string::npos);
  CHECK(xml.find("<failure type=\"failed\"") != std::string::npos);
  CHECK(xml.find("<error type=\"crashed\"") != std::string::npos);
  CHECK(xml.find("expected &lt;1&gt; &amp; got &quot;2&quot;") != std::string::npos);
  CHECK(xml.find('\x07') == std::string::npos);  // control characters shown as \x07, not raw
  CHECK(xml.find("bell\\x07 here") != std::string::npos);
}

TEST_CASE("reports: the terminal report has a line per check, a total, colour only on request") {
  std::ostringstream plain, coloured;
  grader::print_terminal(sample_report(), plain, false);
  grader::print_terminal(sample_report(), coloured, true);
  const std::string p = plain.str();
  CHECK(p.find("PASS   recurrent/hand-example") != std::string::npos);
  CHECK(p.find("FAIL   recurrent/large-eps") != std::string::npos);
  CHECK(p.find("CRASH  parallel/hand-example") != std::string::npos);
  CHECK(p.find("rerun: ./kit grade alice --only causal/recurrent/large-eps --seed 1") != std::string::npos);
  CHECK(p.find("Total: 3/6.5") != std::string::npos);
  CHECK(p.find('\033') == std::string::npos);
  CHECK(coloured.str().find("\033[") != std::string::npos);
}
