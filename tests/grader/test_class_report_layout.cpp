// The class report's page as a reader meets it (issue 34): the histograms' labels never touch,
// whatever the points (bin edges that are not whole numbers too); the pass-rate table is one
// folded block per exercise; a stub left untouched is never a likely mistake.
#include "text_search.hpp"

#include <doctest/doctest.h>

#include "src/course/class_report.hpp"
#include "src/course/class_summary.hpp"

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

using namespace grader;
namespace gb = grader::gradebook;
using nlohmann::json;

namespace {

json check(const std::string& name, const std::string& status, double max,
           const std::string& message) {
  return {{"name", name},     {"function", "f"},
          {"status", status}, {"score", status == "passed" ? max : 0.0},
          {"max_score", max}, {"message", message},
          {"output", ""},     {"visibility", "visible"},
          {"rerun", ""}};
}

// An exercise `name` worth `max`, its checks (name, status, message) sharing the points.
json exercise(const std::string& name, double max,
              const std::vector<std::vector<std::string>>& checks) {
  json list = json::array();
  double score = 0;
  const double each = max / static_cast<double>(checks.size());
  for (const auto& c : checks) {
    list.push_back(check(c[0], c[1], each, c[2]));
    if (c[1] == "passed") score += each;
  }
  return {{"name", name},
          {"score", score},
          {"max_score", max},
          {"build", {{"ok", true}, {"log", ""}}},
          {"checks", list},
          {"source_status", "found"},
          {"source_others", json::array()}};
}

json report(const std::string& who, const std::vector<json>& exercises) {
  double score = 0, max = 0;
  for (const auto& e : exercises)
    score += e["score"].get<double>(), max += e["max_score"].get<double>();
  return {{"submission", who}, {"score", score}, {"max_score", max}, {"exercises", exercises}};
}

struct Label {
  double x;
  std::string text;
};

// The edge labels of one histogram (its <figure id="ID">), left to right.
std::vector<Label> edge_labels(const std::string& page, const std::string& id) {
  const auto from = page.find("<figure class=\"histogram\" id=\"" + id + "\">");
  REQUIRE(from != std::string::npos);
  const std::string figure = page.substr(from, page.find("</figure>", from) - from);
  static const std::regex edge(
      R"re(<text class="edge" data-edge="\d+" x="(-?[\d.]+)"[^>]*>([^<]*)</text>)re");
  std::vector<Label> out;
  for (std::sregex_iterator it(figure.begin(), figure.end(), edge), end; it != end; ++it)
    out.push_back({std::atof((*it)[1].str().c_str()), (*it)[2].str()});
  return out;
}

}  // namespace

TEST_CASE("class report: histogram labels never touch, whole-number edges or not") {
  // Points that make edges like 0.7, 1.35, 12.34: one exercise per maximum, one student.
  const std::vector<double> maxima = {10, 7, 3.5, 13.5, 2.25, 100, 1234.56, 0.3, 45, 17.77};
  std::vector<json> exercises;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < maxima.size(); ++i) {
    names.push_back("ex" + std::to_string(i));
    exercises.push_back(
        exercise(names.back(), maxima[i], {{"a", "passed", ""}, {"b", "failed", "x"}}));
  }
  std::map<std::string, json> reports;
  reports["ada"] = report("ada", exercises);
  const std::string page = class_report_html(summarize_class(gb::join({}, reports, names)), "W");
  bool some_fraction = false;
  for (std::size_t i = 0; i < maxima.size(); ++i) {
    CAPTURE(maxima[i]);
    const std::vector<Label> labels = edge_labels(page, "hist-" + names[i]);
    REQUIRE(labels.size() >= 2);
    CHECK(labels.front().text == "0");
    for (std::size_t k = 0; k < labels.size(); ++k) {
      CAPTURE(labels[k].text);
      const double half = labels[k].text.size() * kHistogramCharWidth / 2;
      // Inside the picture ...
      CHECK(labels[k].x - half >= 0);
      CHECK(labels[k].x + half <= kHistogramWidth);
      some_fraction = some_fraction || labels[k].text.find('.') != std::string::npos;
      if (k == 0) continue;
      // ... and clear of the label before it.
      const double before = labels[k - 1].text.size() * kHistogramCharWidth / 2;
      CHECK(labels[k].x - labels[k - 1].x >= half + before + 2);
    }
  }
  CHECK(some_fraction);  // the test did meet edges that are not whole numbers
  // Whole points out of 10 keep every edge labelled.
  CHECK(edge_labels(page, "hist-ex0").size() == 11);
  // The total (about 1435 points) keeps its last edge, the maximum.
  const auto total = edge_labels(page, "hist-total");
  REQUIRE(!total.empty());
  CHECK(total.back().x > total.front().x);
}

TEST_CASE("class report: the label stride grows only as far as the labels need") {
  CHECK(histogram_label_stride(10, 38) == 1);       // "0" .. "10"
  CHECK(histogram_label_stride(7, 38) == 1);        // "0.7", "1.4": three characters fit
  CHECK(histogram_label_stride(13.5, 38) == 2);     // "12.15": five do not
  CHECK(histogram_label_stride(1234.56, 38) == 2);  // "1234.56": seven need two slots
  CHECK(histogram_label_stride(1234.56, 20) == 5);
  CHECK(histogram_label_stride(1234.56, 10) == 10);
  // The edge, as the header states it: three characters of at most 8 px (0.6 em of 13 px
  // text) and 4 px between two labels need 28 px.
  CHECK(histogram_label_stride(7, 28) == 1);
  CHECK(histogram_label_stride(7, 27) == 2);
}

TEST_CASE("class report: the pass-rate table is folded, one block per exercise") {
  std::map<std::string, json> reports;
  for (const char* who : {"ada", "bob", "cy"})
    reports[who] =
        report(who, {exercise("flops", 10,
                              // a 2/3, b 1/3, c 0/3: each rate below the one before, none
                              // at full marks
                              {{"a", std::string(who) == "cy" ? "failed" : "passed", "z"},
                               {"b", std::string(who) == "ada" ? "passed" : "failed", "x"},
                               {"c", "failed", "y"}}),
                     exercise("memory", 6, {{"read", "passed", ""}, {"write", "passed", ""}})});
  const ClassSummary s = summarize_class(gb::join({}, reports, {"flops", "memory"}));
  const std::string page = class_report_html(s, "W");
  CHECK(occurrences(page, "<details class=\"exercise-checks\"") == 2);
  CHECK(!has(page,
             "<details class=\"exercise-checks\" data-exercise=\"flops\" data-checks=\"3\" open"));
  CHECK(has(page,
            "<details class=\"exercise-checks\" data-exercise=\"flops\" data-checks=\"3\">"
            "<summary><strong>flops</strong>: 3 checks, 3/9 passed (33%); the lowest, c: 0/3 "
            "(0%)</summary>"));
  CHECK(has(page,
            "data-exercise=\"memory\" data-checks=\"2\"><summary><strong>memory</strong>: "
            "2 checks, 6/6 passed (100%)"));
  // Every check's row is inside its exercise's block, the rows' data as before.
  const auto flops = page.find("data-exercise=\"flops\"");
  const auto memory = page.find("data-exercise=\"memory\"");
  const auto row_b = page.find("data-check=\"flops/b\" data-passed=\"1\" data-graded=\"3\"");
  const auto row_read = page.find("data-check=\"memory/read\"");
  CHECK(flops < row_b);
  CHECK(row_b < memory);
  CHECK(memory < row_read);
  CHECK(occurrences(page, "<tr class=\"check\"") == 5);
}

TEST_CASE("class report: an untouched stub is not a likely mistake") {
  // Two students leave check b a stub; the message of a stub may still name a mistake (the
  // judge's wording for the case); one student really makes it.
  const std::string named = "expected 5, got 0\nLikely mistake: returns zeros";
  std::map<std::string, json> reports;
  reports["ada"] = report(
      "ada", {exercise("flops", 10, {{"a", "passed", ""}, {"b", "not_implemented", named}})});
  reports["bob"] = report(
      "bob", {exercise("flops", 10, {{"a", "passed", ""}, {"b", "not_implemented", named}})});
  reports["cy"] =
      report("cy", {exercise("flops", 10, {{"a", "passed", ""}, {"b", "failed", named}})});
  const ClassSummary s = summarize_class(gb::join({}, reports, {"flops"}));
  REQUIRE(s.mistakes.size() == 1);
  CHECK(s.mistakes[0].mistake == "returns zeros");
  CHECK(s.mistakes[0].submissions == std::vector<std::string>{"cy"});
  // The stubs are still counted where they belong: check b did not pass for them.
  REQUIRE(s.checks.size() == 2);
  CHECK(s.checks[1].not_passed ==
        std::map<std::string, int>{{"not_implemented", 2}, {"failed", 1}});
  // Only stubs: no likely mistake at all.
  std::map<std::string, json> stubs;
  stubs["ada"] = reports["ada"];
  stubs["bob"] = reports["bob"];
  CHECK(summarize_class(gb::join({}, stubs, {"flops"})).mistakes.empty());
}
