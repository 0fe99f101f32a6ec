// The class report (class_summary.hpp, class_report.hpp) and a student's report page
// (report_html.hpp) on hand-made native reports: what is counted, in which order, and that no
// name or message a student controls becomes markup.
#include "text_search.hpp"

#include <doctest/doctest.h>

#include "src/course/class_report.hpp"
#include "src/course/class_summary.hpp"
#include "src/course/report_stem.hpp"
#include "src/report/html_text.hpp"
#include "src/report/report_html.hpp"

#include <string>
#include <vector>

using namespace grader;
namespace gb = grader::gradebook;
using nlohmann::json;

namespace {

json check(const std::string& name, const std::string& status, double max,
           const std::string& message = "") {
  return {{"name", name},
          {"function", "crossover_T"},
          {"status", status},
          {"score", status == "passed" ? max : 0.0},
          {"max_score", max},
          {"message", message},
          {"output", ""},
          {"visibility", "visible"},
          {"rerun", "./kit grade x --only flops/" + name}};
}

// A flops exercise of three checks (2 + 4 + 4 points) with the given statuses and messages.
json flops(const std::vector<std::pair<std::string, std::string>>& verdicts,
           const std::string& source = "found", bool built = true) {
  const std::vector<std::pair<std::string, double>> checks = {{"a", 2}, {"b", 4}, {"c", 4}};
  json list = json::array();
  double score = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    list.push_back(check(checks[i].first, verdicts[i].first, checks[i].second, verdicts[i].second));
    if (verdicts[i].first == "passed") score += checks[i].second;
  }
  return {{"name", "flops"},
          {"score", score},
          {"max_score", 10},
          {"build", {{"ok", built}, {"log", ""}}},
          {"checks", list},
          {"source_status", source},
          {"source_others", json::array()}};
}

json report(const std::string& name, const json& exercise) {
  return {{"submission", name},
          {"score", exercise["score"]},
          {"max_score", 10},
          {"exercises", {exercise}}};
}

const std::pair<std::string, std::string> kPass{"passed", ""};
std::pair<std::string, std::string> fail(const std::string& mistake) {
  return {"failed", "expected 5, got 4\nLikely mistake: " + mistake};
}

// A class of eight folders, seven students: full marks; one with M2 and a failure no mistake
// explains (before the others in the roster, so that M2 is seen first); two students with
// mistake M1 (one of them in two checks, and late); a build error; a
// missing file; competing files; one student with two folders (the exports take the newer).
struct SampleClass {
  std::vector<gb::Student> roster;
  gb::Book book;
  SampleClass() {
    roster = gb::parse_roster(
        "folder,id,name,submitted\n"
        "ada,1,Ada,\ndee,4,Dee,\nbob,2,Bob,2026-03-08T10:00:00Z\ncy,3,Cy,\neve,5,Eve,\nfay,6,Fay,\n"
        "gil*,7,Gil,\nhal,8,Hal,\n");
    std::map<std::string, json> reports;
    reports["ada"] = report("ada", flops({kPass, kPass, kPass}));
    reports["bob"] = report("bob", flops({kPass, fail("M1"), fail("M1")}));
    reports["cy"] = report("cy", flops({kPass, fail("M1"), kPass}));
    reports["dee"] = report("dee", flops({fail("M2"), {"crashed", "it stopped"}, kPass}));
    reports["eve"] = report(
        "eve",
        flops({{"build_error", "x"}, {"build_error", "x"}, {"build_error", "x"}}, "found", false));
    reports["fay"] = report(
        "fay",
        flops({{"build_error", ""}, {"build_error", ""}, {"build_error", ""}}, "missing", false));
    json competing =
        flops({{"ambiguous", ""}, {"ambiguous", ""}, {"ambiguous", ""}}, "ambiguous", false);
    competing["source_others"] = {"a/flops.cpp", "b/flops.cpp"};
    reports["gil_v2"] = report("gil_v2", competing);
    reports["gil_v1"] = report("gil_v1", flops({kPass, kPass, kPass}));
    std::map<std::string, gb::Recency> recency;
    recency["gil_v1"].newest_file = 1;
    recency["gil_v2"].newest_file = 2;
    book = gb::join(roster, reports, {"flops"}, recency);
    book.late = parse_late_policy("2026-03-06T23:59:00Z", json{{"per_day", 10}});
  }
};

}  // namespace

TEST_CASE("class report: counts, each student once, the most frequent mistake first") {
  const SampleClass c;
  const ClassSummary s = summarize_class(c.book);
  CHECK(s.counted == 7);  // gil's older folder is not counted; hal has none
  CHECK(s.no_submission == std::vector<std::string>{"8 Hal"});
  // Totals out of 10: ada 10, dee 4, bob 2, cy 6, eve 0, fay 0, gil_v2 0.
  CHECK(s.total.max == 10);
  CHECK(s.total.counts == std::vector<int>{3, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1});
  REQUIRE(s.per_exercise.size() == 1);
  CHECK(s.per_exercise[0].counts == s.total.counts);
  // Each check over the seven, in hand-out order.
  REQUIRE(s.checks.size() == 3);
  CHECK(s.checks[0].check == "a");
  CHECK(s.checks[0].passed == 3);  // ada bob cy (dee's is M2)
  CHECK(s.checks[0].graded == 7);
  CHECK(s.checks[1].passed == 1);  // ada
  CHECK(s.checks[1].not_passed ==
        std::map<std::string, int>{
            {"failed", 2}, {"crashed", 1}, {"build_error", 2}, {"ambiguous", 1}});
  CHECK(s.checks[2].passed == 3);  // ada cy dee
  // M1: two students (bob's two checks count once), before M2's one.
  REQUIRE(s.mistakes.size() == 2);
  CHECK(s.mistakes[0].mistake == "M1");
  CHECK(s.mistakes[0].submissions == std::vector<std::string>{"bob", "cy"});
  CHECK(s.mistakes[0].checks == std::vector<std::string>{"b", "c"});
  CHECK(s.mistakes[1].mistake == "M2");
  CHECK(s.mistakes[1].submissions == std::vector<std::string>{"dee"});
  // The lists.
  REQUIRE(s.build_errors.size() == 1);
  CHECK(s.build_errors[0].submission == "eve");
  REQUIRE(s.missing.size() == 1);
  CHECK(s.missing[0].submission == "fay");
  REQUIRE(s.ambiguous.size() == 1);
  CHECK(s.ambiguous[0].submission == "gil_v2");
  CHECK(s.ambiguous[0].text == "flops (a/flops.cpp, b/flops.cpp)");
  REQUIRE(s.late.size() == 1);
  CHECK(s.late[0].submission == "bob");
  CHECK(s.late[0].text == "2 day(s) late (submitted 2026-03-08T10:00:00Z), 2 -> 1.6");
  // Every row of the gradebook is a line, the uncounted ones too.
  CHECK(s.students.size() == 9);
}

TEST_CASE("class report: the page shows the counts, the mistakes in order, a link per submission") {
  const SampleClass c;
  const std::string page = class_report_html(summarize_class(c.book), "Week 1");
  CHECK(has(page, "<span id=\"counted\">7</span>"));
  CHECK(has(page,
            "<tr class=\"mistake\" data-students=\"2\"><td class=\"num\">2</td><td>flops</td><td "
            "class=\"text\">M1<"));
  CHECK(page.find(">M1<") < page.find(">M2<"));
  CHECK(has(page, "data-check=\"flops/b\" data-passed=\"1\" data-graded=\"7\""));
  // The total's histogram: the full-marks bin holds one, the lowest three.
  CHECK(has(page, "<g class=\"bin\" data-bin=\"10\" data-count=\"1\">"));
  CHECK(has(page, "<g class=\"bin\" data-bin=\"0-1\" data-count=\"3\">"));
  for (const char* name : {"ada", "bob", "cy", "dee", "eve", "fay", "gil_v1", "gil_v2"})
    CHECK(has(page, std::string("<a class=\"report\" href=\"reports/") + name + ".html\">" + name +
                        "</a>"));
  CHECK(has(page, "<li>8 Hal</li>"));
  // Opens from disk and loads nothing: no script, a policy that allows none.
  CHECK(!has(page, "<script"));
  CHECK(has(page, "default-src 'none'"));
}

TEST_CASE("class report: hostile folder names, roster cells and messages stay text") {
  const std::string script = "<script>alert(1)</script>";
  const std::string quote = "q\" onmouseover=\"alert(2)";
  const std::string img = "<img src=x onerror=alert(3)>";
  const auto roster =
      gb::parse_roster("folder,id,name\n\"" + std::string("q\"\" onmouseover=\"\"alert(2)") +
                       "\",9,\"" + img + "\"\n");
  std::map<std::string, json> reports;
  reports[script] = report(script, flops({kPass, kPass, kPass}));
  reports[quote] = report(quote, flops({kPass, fail(img), {"crashed", ""}}));
  reports["../../etc"] = report("../../etc", flops({kPass, kPass, kPass}));
  gb::Book book = gb::join(roster, reports, {"flops"});
  const std::string page = class_report_html(summarize_class(book), "<b>title</b>");
  CHECK(!has(page, "<script"));
  CHECK(!has(page, "<img"));
  CHECK(!has(page, "<b>"));
  CHECK(!has(page, "onmouseover=\""));
  CHECK(has(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK(has(page, "&lt;img src=x onerror=alert(3)&gt;"));  // the roster's name, and the mistake
  CHECK(occurrences(page, "&lt;img src=x onerror=alert(3)&gt;") == 2);
  CHECK(has(page, "q&quot; onmouseover=&quot;alert(2)</a>: flops/c crashed"));  // who crashed
  // Links stay inside reports/: every byte that could end the attribute, leave the folder or
  // start a query is percent-encoded; a name no file can carry (a '/', a leading '.') links to
  // its shortened report file (report_stem.hpp), which is what grade-all writes.
  for (const std::string& name : {script, std::string("../../etc")}) {
    CHECK(grader::report_stem(name) != name);
    CHECK(has(page, "href=\"reports/" + html::url_segment(grader::report_stem(name)) + ".html\""));
  }
  CHECK(has(page, "href=\"reports/q%22%20onmouseover%3D%22alert%282%29.html\""));
  CHECK(!has(page, "%2F"));
}

TEST_CASE("class report: who crashed, ran out of time or memory, by name and check") {
  const auto roster = gb::parse_roster("folder,id,name\nada,1,Ada\nbob,2,Bob\ncy,3,Cy\n");
  std::map<std::string, json> reports;
  reports["ada"] = report("ada", flops({kPass, {"crashed", "SIGSEGV"}, {"timeout", ""}}));
  reports["bob"] = report("bob", flops({{"over_memory", ""}, kPass, fail("M1")}));
  reports["cy"] = report("cy", flops({kPass, kPass, kPass}));
  const ClassSummary s = summarize_class(gb::join(roster, reports, {"flops"}));
  REQUIRE(s.stopped.size() == 2);
  CHECK(s.stopped[0].submission == "ada");
  CHECK(s.stopped[0].text == "flops/b crashed, flops/c timeout");
  CHECK(s.stopped[1].submission == "bob");
  CHECK(s.stopped[1].text == "flops/a over_memory");
  const std::string page = class_report_html(s, "Week 1");
  CHECK(has(page, "<section id=\"stopped\">"));
  CHECK(has(page,
            "<li><a class=\"report\" href=\"reports/ada.html\">ada</a>: flops/b crashed, flops/c "
            "timeout</li>"));
  CHECK(has(page, ">bob</a>: flops/a over_memory</li>"));
}

TEST_CASE(
    "class report: Canvas's Test Student and a folder the roster does not name are not counted") {
  // The instructor tried Student View (the Test Student handed in a stub) and left their own
  // solution in the class folder: neither is a student of the class the histograms describe.
  const auto roster = gb::parse_roster(
      "Student,ID,SIS User ID,SIS Login ID,Section,Part 1 (12345)\n"
      "\"Lovelace, Ada\",1001,S-17,ada,S1,\n"
      "\"Student, Test\",1999,,,S1,\n"
      "\"Turing, Alan\",1002,S-18,alan,S1,\n");
  std::map<std::string, json> reports;
  reports["lovelaceada_1001"] = report("lovelaceada_1001", flops({kPass, fail("M1"), kPass}));
  reports["studenttest_1999"] =
      report("studenttest_1999", flops({{"crashed", ""}, fail("M9"), fail("M9")}));
  reports["instructor"] = report("instructor", flops({kPass, kPass, kPass}));
  const ClassSummary s = summarize_class(gb::join(roster, reports, {"flops"}));
  CHECK(s.counted == 1);  // Ada alone
  CHECK(s.total.counts == std::vector<int>{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  REQUIRE(s.checks.size() == 3);
  CHECK(s.checks[0].graded == 1);
  REQUIRE(s.mistakes.size() == 1);
  CHECK(s.mistakes[0].mistake == "M1");
  CHECK(s.stopped.empty());
  CHECK(s.no_submission == std::vector<std::string>{"S-18 Turing, Alan"});
  // Every row still has its line, marked as not counted.
  REQUIRE(s.students.size() == 4);
  int counted = 0;
  for (const auto& line : s.students) counted += line.counted;
  CHECK(counted == 1);
  // Without a roster, every folder counts (there is no class to tell the instructor's from).
  CHECK(summarize_class(gb::join({}, reports, {"flops"})).counted == 3);
}

TEST_CASE("class report: a starter left as handed out is work not done, not a likely mistake") {
  // The memory exercise's starter runs and fails with "this is the starter's S q": ann and cy
  // handed it in untouched, bob wrote a file of his own that happens to make the same slip.
  const std::string starter = "the starter's S q";
  std::map<std::string, json> reports;
  for (const char* name : {"ann", "bob", "cy"})
    reports[name] = report(name, flops({kPass, fail(starter), fail(starter)}));
  const gb::Book book = gb::join({}, reports, {"flops"});
  const ClassSummary s = summarize_class(book, {}, {{"flops", {"ann", "cy"}}, {"taylor", {"bob"}}});
  REQUIRE(s.mistakes.size() == 1);
  CHECK(s.mistakes[0].submissions == std::vector<std::string>{"bob"});
  CHECK(s.mistakes[0].checks == std::vector<std::string>{"b", "c"});
  CHECK(s.as_handed_out ==
        std::map<std::string, std::vector<std::string>>{{"flops", {"ann", "cy"}}});
  // Their checks still count as not passed: only the mistakes table leaves them out.
  REQUIRE(s.checks.size() == 3);
  CHECK(s.checks[1].passed == 0);
  CHECK(s.checks[1].graded == 3);
  const std::string page = class_report_html(s, "Part 1");
  CHECK(has(page, "<tr class=\"mistake\" data-students=\"1\">"));
  CHECK(has(page, "Not counted: 2 flops files left as handed out"));
  // Without the stub's list, all three count.
  CHECK(summarize_class(book).mistakes.at(0).submissions.size() == 3);
}

TEST_CASE("html text: escaping and link segments") {
  CHECK(html::escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f");
  CHECK(html::escape(std::string("bell\x07 nul") + '\0' + "x\ttab\nline") ==
        "bell\\x07 nul\\x00x\ttab\nline");
  CHECK(html::escape("Zoë 李") == "Zoë 李");
  CHECK(html::url_segment("ada_1-2.v~") == "ada_1-2.v~");
  CHECK(html::url_segment("a/b?c#d e") == "a%2Fb%3Fc%23d%20e");
  CHECK(html::url_segment("javascript:alert(1)") == "javascript%3Aalert%281%29");
  CHECK(html::url_segment("..") == "%2E%2E");
  CHECK(html::url_segment(".") == "%2E");
  CHECK(html::url_segment("ë") == "%C3%AB");
  // A name no file can carry links to the shortened file grade-all writes (report_stem.hpp).
  CHECK(report_link("..") == "reports/" + html::url_segment(grader::report_stem("..")) + ".html");
  CHECK(report_link("..").rfind("reports/_.~", 0) == 0);
  CHECK(report_link("ada") == "reports/ada.html");
}

TEST_CASE("student report page: each check's verdict and message, the diagnosed ones open") {
  const std::string error = "memory.cpp:3: error: <expected> ;";
  json r = report("class/<i>me", flops({kPass, fail("<b>M1</b>"), {"crashed", "stopped\x1b[2J"}}));
  r["exercises"].push_back(
      {{"name", "memory"},
       {"score", 0},
       {"max_score", 5},
       {"build", {{"ok", false}, {"log", error}}},
       {"checks",
        {check("read/x", "build_error", 3, "The exercise does not build:\n" + error),
         check("read/y", "build_error", 2, "The exercise does not build:\n" + error)}},
       {"source", "memory/memory.cpp"},
       {"source_status", "found"}});
  // What the failing check printed, as a hostile submission would print it (issue 36: only a
  // corpus case caught this output left unescaped).
  r["exercises"][0]["checks"][1]["output"] = "<script>alert(1)</script><img src=x onerror=y>&";
  const std::string page = student_report_html(r);
  CHECK(has(page, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=y&gt;&amp;"));
  CHECK(!has(page, "<img"));
  CHECK(has(page, "<details class=\"check check-passed\" data-status=\"passed\">"));
  CHECK(has(page, "<details class=\"check check-failed\" data-status=\"failed\" open>"));
  CHECK(has(page, "<details class=\"check check-failed\" data-status=\"crashed\" open>"));
  CHECK(has(page, "<details class=\"check check-failed\" data-status=\"build_error\" open>"));
  CHECK(has(page, "<details class=\"check check-failed\" data-status=\"build_error\">"));
  CHECK(occurrences(page, "<details class=\"check") == 5);
  // The build error is shown once, under the first check; the other check points to it.
  CHECK(occurrences(page, "memory.cpp:3: error: &lt;expected&gt; ;") == 1);
  CHECK(has(page, "Not run: the build error is shown under read/x."));
  CHECK(has(page, "Likely mistake: &lt;b&gt;M1&lt;/b&gt;"));
  CHECK(has(page, "stopped\\x1b[2J"));  // an escape sequence shown, never passed on
  // The heading is the submission's last path component, escaped.
  CHECK(has(page, "<h1>Report: &lt;i&gt;me</h1>"));
  CHECK(has(page, "Total: <strong>2/10</strong>"));
  CHECK(has(page, "./kit grade x --only flops/b"));  // how to grade a failing check again
  CHECK(!has(page, "<script"));
  CHECK(!has(page, "<b>"));
  CHECK(!has(page, "<i>"));
}
