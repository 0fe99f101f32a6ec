// The four report writers, on a small hand-made report: the contract's field names, the
// Gradescope and JUnit translations, escaping, and colour only when asked for.
#include "src/report/report.hpp"
#include "status_words.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

bool fake_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

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
  pass.status = grader_test::status_called("passed");
  pass.score = pass.max_score = 3;
  pass.seed = 1;
  pass.visibility = "visible";
  grader::CheckResult fail = pass;
  fail.name = "recurrent/large-eps";
  fail.status = grader_test::status_called("failed");
  fail.score = 0;
  fail.max_score = 1.5;
  fail.message = "expected <1> & got \"2\"\nLikely mistake: eps";
  fail.output = std::string("bell\x07 here");
  fail.rerun = "./kit grade alice --only causal/recurrent/large-eps --seed 1";
  grader::CheckResult crash = pass;
  crash.name = "parallel/hand-example";
  crash.function = "causal_linear_attention_parallel";
  crash.status = grader_test::status_called("crashed");
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

// ---- every field, every format --------------------------------------------------------
// A report built by hand where every field of every check holds a value of its own (no two
// checks share a seed, a time, a peak, a score), and where per suite the failures and the
// errors differ: a writer that drops, swaps or mixes up a field fails one of these.

namespace {

grader::CheckResult make_check(const std::string& name, const std::string& function,
                               const std::string& status, double score, double max_score,
                               std::uint64_t seed, double seconds, const std::string& visibility,
                               std::uint64_t peak) {
  grader::CheckResult c;
  c.name = name;
  c.function = function;
  c.status = grader_test::status_called(status);
  c.score = score;
  c.max_score = max_score;
  c.seed = seed;
  c.message = status == "passed" ? "" : "msg of " + name + "\nsecond line of " + name;
  c.output = "printed by " + name;
  c.seconds = seconds;
  c.visibility = visibility;
  c.rerun = "./kit grade bob --only " + name + " --seed " + std::to_string(seed);
  c.peak_heap_bytes = peak;
  return c;
}

// causal: 5 checks, 2 failures (failed), 1 error (crashed).
// memory: 3 checks, 1 failure (not_implemented), 2 errors (build_error), build failed.
// taylor: 4 checks, 0 failures, 3 errors (timeout, over_memory, error).
grader::Report full_report() {
  grader::Report r;
  r.submission = "bob";
  r.seconds = 9.5;
  r.assignment = "week-3";
  grader::ExerciseResult causal;
  causal.name = "causal";
  causal.build_ok = true;
  causal.build_cached = true;
  causal.build_seconds = 0.375;
  causal.build_log = "causal/causal.cpp:4:7: warning: unused variable 'x'";
  causal.checks = {make_check("recurrent/hand-example", "causal_linear_attention_recurrent",
                              "passed", 3, 3, 11, 0.125, "visible", 1001),
                   make_check("recurrent/large-eps", "causal_linear_attention_recurrent", "failed",
                              0, 1.5, 12, 0.25, "hidden", 1002),
                   make_check("parallel/hand-example", "causal_linear_attention_parallel",
                              "crashed", 0, 2, 13, 0.5, "after_due_date", 1003),
                   make_check("step/from-zero", "linear_attention_step", "passed", 1.25, 1.25, 14,
                              0.75, "visible", 1004),
                   make_check("step/large-eps", "linear_attention_step", "failed", 0, 0.5,
                              18446744073709551557ull, 1.0, "visible", 5000000123ull)};
  causal.score = 4.25;
  causal.max_score = 8.25;
  grader::ExerciseResult memory;
  memory.name = "memory";
  memory.build_ok = false;
  memory.build_cached = false;
  memory.build_seconds = 1.625;
  memory.build_log = "memory/memory.cpp:3:1: error: expected ';'";
  memory.checks = {
      make_check("read/basic", "read", "build_error", 0, 2.5, 21, 0.0625, "visible", 0),
      make_check("write/basic", "write", "not_implemented", 0, 2, 22, 0.1875, "hidden", 2002),
      make_check("crosstalk/basic", "crosstalk_energy", "build_error", 0, 1, 23, 0.3125, "visible",
                 0)};
  memory.score = 0;
  memory.max_score = 5.5;
  grader::ExerciseResult taylor;
  taylor.name = "taylor";
  taylor.build_ok = true;
  taylor.build_seconds = 0.875;
  taylor.checks = {
      make_check("features/loop", "taylor_features", "timeout", 0, 1, 31, 10.5, "visible", 3001),
      make_check("features/big", "taylor_features", "over_memory", 0, 1, 32, 2.25, "visible", 3002),
      make_check("bytes/throws", "taylor_state_bytes", "error", 0, 1, 33, 0.4375, "visible", 3003),
      make_check("kv/basic", "kv_cache_tokens", "passed", 0.1 + 0.2, 0.3, 34, 0.5625, "visible",
                 3004)};
  taylor.score = 0.1 + 0.2;  // 0.30000000000000004: the reports round the binary noise away
  taylor.max_score = 3.3;
  r.exercises = {causal, memory, taylor};
  r.score = 4.25 + 0.1 + 0.2;
  r.max_score = 17.05;
  return r;
}

// The text of the <testcase> element whose name is `name`, up to its end.
std::string junit_case(const std::string& xml, const std::string& name) {
  const auto at = xml.find("name=\"" + name + "\" time=");
  if (at == std::string::npos) return "";
  const auto open = xml.rfind("<testcase ", at);
  const auto self_closed = xml.find("/>", at);
  const auto closed = xml.find("</testcase>", at);
  const auto next = xml.find("<testcase ", at);
  // A passed case closes itself before anything else begins.
  if (self_closed != std::string::npos && self_closed < std::min(closed, next) &&
      xml.find('>', at) == self_closed + 1)
    return xml.substr(open, self_closed + 2 - open);
  return xml.substr(open, closed + 11 - open);
}

std::string junit_suite_tag(const std::string& xml, const std::string& name) {
  const auto at = xml.find("<testsuite name=\"" + name + "\"");
  if (at == std::string::npos) return "";
  return xml.substr(at, xml.find('>', at) + 1 - at);
}

}  // namespace

TEST_CASE("reports: the native JSON carries every field of every check, unchanged") {
  const grader::Report in = full_report();
  const auto j = grader::to_native_json(in);
  CHECK(j.at("version") == grader::kReportVersion);
  CHECK(grader::kReportVersion == 1);  // raised only with a field's meaning, and said in the notes
  CHECK(j.at("submission") == "bob");
  CHECK(j.at("score").get<double>() == 4.55);  // rounded: not 4.550000000000001
  CHECK(j.at("max_score").get<double>() == 17.05);
  CHECK(j.at("seconds").get<double>() == 9.5);
  CHECK(j.at("assignment") == "week-3");
  REQUIRE(j.at("exercises").size() == 3);
  for (std::size_t e = 0; e < in.exercises.size(); ++e) {
    const grader::ExerciseResult& want = in.exercises[e];
    const auto& ex = j.at("exercises").at(e);
    CAPTURE(want.name);
    CHECK(ex.at("name") == want.name);
    CHECK(ex.at("build").at("ok") == want.build_ok);
    CHECK(ex.at("build").at("log") == want.build_log);
    CHECK(ex.at("build").at("cached") == want.build_cached);
    CHECK(ex.at("build").at("seconds").get<double>() == want.build_seconds);
    REQUIRE(ex.at("checks").size() == want.checks.size());
    for (std::size_t k = 0; k < want.checks.size(); ++k) {
      const grader::CheckResult& w = want.checks[k];
      const auto& c = ex.at("checks").at(k);
      CAPTURE(w.name);
      CHECK(c.at("name") == w.name);
      CHECK(c.at("function") == w.function);
      CHECK(c.at("status") == std::string(grader::status_name(w.status)));
      CHECK(c.at("max_score").get<double>() == w.max_score);
      CHECK(c.at("seed").get<std::uint64_t>() == w.seed);
      CHECK(c.at("message") == w.message);
      CHECK(c.at("output") == w.output);
      CHECK(c.at("seconds").get<double>() == w.seconds);
      CHECK(c.at("visibility") == w.visibility);
      CHECK(c.at("rerun") == w.rerun);
      CHECK(c.at("peak_heap_bytes").get<std::uint64_t>() == w.peak_heap_bytes);
    }
  }
  // Values written out here, not read back from the input: scores (rounded), the large seed.
  const auto& causal = j.at("exercises").at(0);
  CHECK(causal.at("score").get<double>() == 4.25);
  CHECK(causal.at("max_score").get<double>() == 8.25);
  CHECK(causal.at("checks").at(0).at("score").get<double>() == 3);
  CHECK(causal.at("checks").at(3).at("score").get<double>() == 1.25);
  CHECK(causal.at("checks").at(4).at("seed").get<std::uint64_t>() == 18446744073709551557ull);
  CHECK(causal.at("checks").at(4).at("peak_heap_bytes").get<std::uint64_t>() == 5000000123ull);
  CHECK(causal.at("checks").at(1).at("visibility") == "hidden");
  CHECK(causal.at("checks").at(2).at("visibility") == "after_due_date");
  CHECK(causal.at("checks").at(1).at("rerun") ==
        "./kit grade bob --only recurrent/large-eps --seed 12");
  const auto& memory = j.at("exercises").at(1);
  CHECK(memory.at("build").at("ok") == false);
  CHECK(memory.at("build").at("log") == "memory/memory.cpp:3:1: error: expected ';'");
  CHECK(memory.at("max_score").get<double>() == 5.5);
  const auto& taylor = j.at("exercises").at(2);
  CHECK(taylor.at("score").get<double>() == 0.3);
  CHECK(taylor.at("max_score").get<double>() == 3.3);
  CHECK(taylor.at("checks").at(3).at("score").get<double>() == 0.3);
  CHECK(taylor.at("checks").at(0).at("seconds").get<double>() == 10.5);
}

TEST_CASE("reports: Gradescope's results.json, top level and every test") {
  const grader::Report in = full_report();
  const auto j = grader::to_gradescope_json(in);
  CHECK(j.at("score").get<double>() == 4.55);
  CHECK(j.at("execution_time").get<double>() == 9.5);
  CHECK(j.at("visibility") == "visible");
  CHECK(j.at("stdout_visibility") == "hidden");
  // Text, never HTML (Gradescope's default): names and output the student chose are shown
  // as they are, not rendered.
  CHECK(j.at("output_format") == "text");
  CHECK(j.at("test_output_format") == "text");
  // Scores read as a person writes them, without six decimals; the line adds up the visible
  // checks only (11.55 of the 17.05 points), and says when the total appears.
  CHECK(j.at("output") ==
        "linattn-kit grader: 4.55 / 11.55 in the checks shown now. The other checks "
        "(5.5 points) count in your total, which is shown after the due date.");
  const auto& tests = j.at("tests");
  REQUIRE(tests.size() == 12);
  double max_total = 0;
  std::size_t t = 0;
  for (std::size_t e = 0; e < in.exercises.size(); ++e)
    for (std::size_t k = 0; k < in.exercises[e].checks.size(); ++k, ++t) {
      const grader::CheckResult& w = in.exercises[e].checks[k];
      const auto& g = tests.at(t);
      CAPTURE(w.name);
      CHECK(g.at("name") == in.exercises[e].name + ": " + w.name);
      CHECK(g.at("number") == std::to_string(e + 1) + "." + std::to_string(k + 1));
      CHECK(g.at("max_score").get<double>() == w.max_score);
      CHECK(g.at("status") == (w.status == grader::Status::Passed ? "passed" : "failed"));
      CHECK(g.at("visibility") == w.visibility);
      CHECK(g.at("output_format") == "text");
      const std::string out = g.at("output");
      CHECK(fake_contains(out, "status: " + std::string(grader::status_name(w.status))));
      CHECK(fake_contains(out, w.output));
      CHECK(fake_contains(out, "function: " + w.function));
      // The rerun hint is the student kit's command: no submission path and no seed (the
      // student kit fixes each check's seed), and only for the visible checks it has.
      CHECK_FALSE(fake_contains(out, "--seed"));
      CHECK_FALSE(fake_contains(out, "./kit grade bob"));
      const std::string hint =
          "rerun in your kit: ./kit grade --only " + in.exercises[e].name + "/" + w.name;
      if (w.status == grader::Status::Passed || w.visibility != "visible") {
        CHECK_FALSE(fake_contains(out, "rerun"));
      } else {
        CHECK(fake_contains(out, w.message));
        CHECK(fake_contains(out, hint));
      }
      max_total += g.at("max_score").get<double>();
    }
  // Gradescope adds up the tests' max_score: it must come to the report's.
  CHECK(max_total == doctest::Approx(17.05).epsilon(1e-12));
  CHECK(tests.at(0).at("score").get<double>() == 3);
  CHECK(tests.at(3).at("score").get<double>() == 1.25);
  CHECK(tests.at(1).at("score").get<double>() == 0);
  CHECK(tests.at(11).at("score").get<double>() == 0.3);
  CHECK(tests.at(1).at("visibility") == "hidden");
  CHECK(tests.at(2).at("visibility") == "after_due_date");
  CHECK(tests.at(2).at("status") == "failed");  // crashed is a failed test for Gradescope
  CHECK(tests.at(6).at("name") == "memory: write/basic");
  CHECK(tests.at(0).at("name") == "causal: recurrent/hand-example");
  CHECK(tests.at(10).at("number") == "3.3");
}

TEST_CASE(
    "reports: JUnit counts per suite tell failures from errors, and every case has its fields") {
  const std::string xml = grader::to_junit_xml(full_report());
  INFO(xml);
  // The whole run: 12 tests, 3 failures (failed x2, not_implemented), 6 errors.
  CHECK(fake_contains(
      xml,
      "<testsuites name=\"linattn-kit\" tests=\"12\" failures=\"3\" errors=\"6\" time=\"9.500\">"));
  // Per suite, with its time the sum of its cases' times.
  CHECK(junit_suite_tag(xml, "causal") ==
        "<testsuite name=\"causal\" tests=\"5\" failures=\"2\" errors=\"1\" time=\"2.625\">");
  CHECK(junit_suite_tag(xml, "memory") ==
        "<testsuite name=\"memory\" tests=\"3\" failures=\"1\" errors=\"2\" time=\"0.562\">");
  CHECK(junit_suite_tag(xml, "taylor") ==
        "<testsuite name=\"taylor\" tests=\"4\" failures=\"0\" errors=\"3\" time=\"13.750\">");
  // No status is a skip: nothing may be reported as skipped.
  CHECK_FALSE(fake_contains(xml, "<skipped"));
  CHECK((!fake_contains(xml, "skipped=\"") || !fake_contains(xml, "skipped=\"1")));

  const std::string pass = junit_case(xml, "recurrent/hand-example");
  CHECK(pass ==
        "<testcase classname=\"causal.causal_linear_attention_recurrent\" "
        "name=\"recurrent/hand-example\" time=\"0.125\"/>");
  struct Want {
    const char* name;
    const char* classname;
    const char* time;
    const char* tag;  // failure or error
    const char* status;
  };
  const Want wants[] = {
      {"recurrent/large-eps", "causal.causal_linear_attention_recurrent", "0.250", "failure",
       "failed"},
      {"parallel/hand-example", "causal.causal_linear_attention_parallel", "0.500", "error",
       "crashed"},
      {"step/large-eps", "causal.linear_attention_step", "1.000", "failure", "failed"},
      {"read/basic", "memory.read", "0.062", "error", "build_error"},
      {"write/basic", "memory.write", "0.188", "failure", "not_implemented"},
      {"crosstalk/basic", "memory.crosstalk_energy", "0.312", "error", "build_error"},
      {"features/loop", "taylor.taylor_features", "10.500", "error", "timeout"},
      {"features/big", "taylor.taylor_features", "2.250", "error", "over_memory"},
      {"bytes/throws", "taylor.taylor_state_bytes", "0.438", "error", "error"}};
  for (const Want& w : wants) {
    CAPTURE(w.name);
    const std::string c = junit_case(xml, w.name);
    REQUIRE_FALSE(c.empty());
    CHECK(c.rfind(std::string("<testcase classname=\"") + w.classname + "\" name=\"" + w.name +
                      "\" time=\"" + w.time + "\">",
                  0) == 0);
    const std::string other = std::string(w.tag) == "failure" ? "<error" : "<failure";
    CHECK(fake_contains(c, std::string("<") + w.tag + " type=\"" + w.status + "\" message=\"" +
                               w.status + ": msg of " + w.name + "\">"));
    CHECK_FALSE(fake_contains(c, other));
    CHECK(fake_contains(c,
                        std::string("second line of ") + w.name));  // the whole message in the body
    CHECK(fake_contains(c, std::string("rerun: ./kit grade bob --only ") + w.name));
    CHECK(fake_contains(c, std::string("<system-out>printed by ") + w.name + "</system-out>"));
  }
}

TEST_CASE("reports: JUnit counts failures and errors and escapes what XML forbids") {
  const std::string xml = grader::to_junit_xml(sample_report());
  CHECK(xml.find("<testsuites name=\"linattn-kit\" tests=\"3\" failures=\"1\" errors=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("<failure type=\"failed\"") != std::string::npos);
  CHECK(xml.find("<error type=\"crashed\"") != std::string::npos);
  CHECK(xml.find("expected &lt;1&gt; &amp; got &quot;2&quot;") != std::string::npos);
  CHECK(xml.find('\x07') == std::string::npos);  // control characters shown as \x07, not raw
  CHECK(xml.find("bell\\x07 here") != std::string::npos);
}

TEST_CASE("reports: JUnit stays well-formed whatever a check's name, message or output holds") {
  // XML 1.0 forbids U+FFFE, U+FFFF, C0 controls but tab, newline and CR, and bytes that are not
  // UTF-8, even as character references: a student's message or printed text with one made the
  // file ill-formed, and a CI job drops an ill-formed report (issue 32).
  grader::Report r = sample_report();
  const std::string hostile = std::string("a\xEF\xBF\xBE b\xEF\xBF\xBF c\x01 d\x1b[2J e\xFF f") +
                              "\xED\xA0\x80 g\x7F\xC2\x85 h\r\n\t]]> &amp;";
  for (auto& ex : r.exercises)
    for (auto& c : ex.checks) {
      c.name += hostile;
      c.message = hostile + "\n" + hostile;
      c.output = hostile;
    }
  r.exercises[0].name += hostile;
  const std::string xml = grader::to_junit_xml(r);
  CHECK(xml.find("\xEF\xBF\xBE") == std::string::npos);
  CHECK(xml.find("\xEF\xBF\xBF") == std::string::npos);
  CHECK(xml.find("\xED\xA0\x80") == std::string::npos);
  CHECK(xml.find('\xFF') == std::string::npos);
  for (const char c : xml) {
    const auto u = static_cast<unsigned char>(c);
    CHECK((u >= 0x20 || c == '\n' || c == '\t' || c == '\r'));
  }
  CHECK(xml.find("a\\uFFFE b\\uFFFF c\\x01 d\\x1b[2J") != std::string::npos);  // shown, as text
  CHECK(xml.find("]]&gt; &amp;amp;") != std::string::npos);
  // And a real XML parser agrees, where one is installed (Debian: libxml2-utils).
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    char path[] = "/tmp/junit-test-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, xml.data(), xml.size()) == static_cast<ssize_t>(xml.size()));
    ::close(fd);
    CHECK(std::system(("xmllint --noout " + std::string(path) + " 2>/dev/null").c_str()) == 0);
    ::unlink(path);
  }
}

TEST_CASE("reports: the terminal report has a line per check, a total, colour only on request") {
  std::ostringstream plain, coloured;
  grader::print_terminal(sample_report(), plain, false);
  grader::print_terminal(sample_report(), coloured, true);
  const std::string p = plain.str();
  CHECK(p.find("PASS   recurrent/hand-example") != std::string::npos);
  CHECK(p.find("FAIL   recurrent/large-eps") != std::string::npos);
  CHECK(p.find("CRASH  parallel/hand-example") != std::string::npos);
  CHECK(p.find("rerun: ./kit grade alice --only causal/recurrent/large-eps --seed 1") !=
        std::string::npos);
  CHECK(p.find("Total: 3/6.5") != std::string::npos);
  CHECK(p.find('\033') == std::string::npos);
  CHECK(coloured.str().find("\033[") != std::string::npos);
}

TEST_CASE("reports: late work in the native report and Gradescope's, the raw score kept beside") {
  grader::Report in = full_report();
  in.late = grader::Lateness{true, 2, 20, "gradescope", "2026-03-08T01:00:00Z", "", ""};
  in.late_policy = "due 2026-03-06T23:59:00Z; 10% off a day late (or part of one)";
  in.notices = {"causal.zip was unpacked (1 file)"};
  const auto native = grader::to_native_json(in);
  CHECK(native.at("score").get<double>() == 4.55);
  CHECK(native.at("late").at("days_late") == 2);
  CHECK(native.at("late").at("score_after_penalty").get<double>() == doctest::Approx(3.64));
  const auto g = grader::to_gradescope_json(in);
  CHECK(g.at("score").get<double>() == doctest::Approx(3.64));
  const std::string out = g.at("output");
  CHECK(out.find(
            "Late work (due 2026-03-06T23:59:00Z; 10% off a day late (or part of one)): submitted "
            "2026-03-08T01:00:00Z, 2 day(s) late, 20% off your total.") != std::string::npos);
  CHECK(out.find("Note: causal.zip was unpacked (1 file)") != std::string::npos);
}

TEST_CASE("reports: per-student seeds and a Gradescope extension are stated in every report") {
  grader::Report in = full_report();
  in.seeds = "per-student";
  in.student = "s2002";
  in.late = grader::Lateness{false,
                             0,
                             0,
                             "gradescope",
                             "2018-08-02T12:00:00-07:00",
                             "2018-08-03T23:00:00-07:00",
                             "gradescope extension"};
  in.late_policy = "due 2018-07-31T23:00:00-07:00; 10% off a day late (or part of one)";
  const auto native = grader::to_native_json(in);
  CHECK(native.at("seeds") == "per-student");
  CHECK(native.at("student") == "s2002");
  CHECK(native.at("late").at("due") == "2018-08-03T23:00:00-07:00");
  const auto g = grader::to_gradescope_json(in);
  const std::string summary = g.at("output");
  CHECK(summary.find("Your checks ran on inputs of your own (per-student seeds") !=
        std::string::npos);
  CHECK(summary.find("due 2018-08-03T23:00:00-07:00, your own due date on Gradescope (an "
                     "extension); on time.") != std::string::npos);
  // Every test states its seed; a failed visible one gives the student kit's line and the line
  // that reproduces these inputs (the check's seed, explicitly) in a kit with the reference.
  const auto& step = g.at("tests").at(4);  // causal: step/large-eps, visible, failed
  const std::string out = step.at("output");
  CHECK(out.find("\nseed: 18446744073709551557") != std::string::npos);
  CHECK(out.find("rerun in your kit: ./kit grade --only causal/step/large-eps\n") !=
        std::string::npos);
  CHECK(out.find("yours alone, which the course staff reproduce with: ./kit grade bob --only "
                 "step/large-eps "
                 "--seed 18446744073709551557)") != std::string::npos);
  for (const auto& t : g.at("tests"))
    CHECK(t.at("output").get<std::string>().find("\nseed: ") != std::string::npos);
  std::ostringstream terminal;
  grader::print_terminal(in, terminal, false);
  CHECK(terminal.str().find("Seeds: per-student, those of s2002") != std::string::npos);
  CHECK(terminal.str().find(
            "Late work: due 2018-08-03T23:00:00-07:00, your own due date on Gradescope (an "
            "extension)") != std::string::npos);
}
