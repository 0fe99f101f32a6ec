// A student's report as a page: see report_html.hpp.
#include "report_html.hpp"

#include "html_text.hpp"

#include <cmath>
#include <sstream>

namespace grader {

namespace {

using html::escape;
using nlohmann::json;

std::string points(double x) {
  std::ostringstream o;
  o << std::round(x * 1e6) / 1e6;
  return o.str();
}

std::string text_of(const json& j, const char* key) {
  const auto at = j.find(key);
  return at != j.end() && at->is_string() ? at->get<std::string>() : "";
}

double number_of(const json& j, const char* key) {
  const auto at = j.find(key);
  return at != j.end() && at->is_number() ? at->get<double>() : 0.0;
}

// What an exercise's line says besides its points: why no check ran.
std::string exercise_state(const json& ex) {
  const std::string source = text_of(ex, "source_status");
  if (source == "missing") return "no file";
  if (source == "ambiguous") return "several files, none graded";
  const auto build = ex.find("build");
  if (build != ex.end() && build->is_object() && !build->value("ok", true)) return "does not build";
  return "";
}

// `same_as`: the check before it, when its message was the same (a build error's, say): said
// once, then named.
std::string check_html(const json& c, const std::string& same_as) {
  const std::string status = text_of(c, "status");
  const bool passed = status == "passed";
  std::string out =
      "<details class=\"check " + std::string(passed ? "check-passed" : "check-failed") +
      "\" data-status=\"" + escape(status) + "\"" + (passed ? "" : " open") +
      ">\n<summary><span class=\"verdict\">" + escape(status) +
      "</span> <span class=\"check-name\">" + escape(text_of(c, "name")) +
      "</span> <span class=\"muted\">(" + escape(text_of(c, "function")) + ")</span> " +
      points(number_of(c, "score")) + "/" + points(number_of(c, "max_score")) + "</summary>\n";
  const std::string message = text_of(c, "message"), output = text_of(c, "output");
  if (!message.empty() && !same_as.empty())
    out += "<p class=\"muted\">The same message as " + escape(same_as) + ".</p>\n";
  else if (!message.empty()) out += "<pre class=\"message\">" + escape(message) + "</pre>\n";
  if (!output.empty())
    out += "<p class=\"muted\">What the code printed:</p>\n<pre class=\"output\">" +
           escape(output) + "</pre>\n";
  const std::string visibility = text_of(c, "visibility"), rerun = text_of(c, "rerun");
  if (!passed && !rerun.empty() && (visibility.empty() || visibility == "visible"))
    out += "<p>Grade it again on its own: <code>" + escape(rerun) + "</code></p>\n";
  if (passed && message.empty() && output.empty()) out += "<p class=\"muted\">Passed.</p>\n";
  return out + "</details>\n";
}

std::string exercise_html(const json& ex) {
  const std::string name = text_of(ex, "name");
  const std::string state = exercise_state(ex);
  std::string out =
      "<section class=\"exercise\" id=\"ex-" + html::url_segment(name) + "\">\n<h2>" +
      escape(name) + " <span class=\"points\">" + points(number_of(ex, "score")) + "/" +
      points(number_of(ex, "max_score")) + "</span>" +
      (state.empty() ? "" : " <span class=\"failed\">(" + escape(state) + ")</span>") + "</h2>\n";
  const std::string source = text_of(ex, "source");
  if (!source.empty())
    out += "<p class=\"muted\">File graded: <code>" + escape(source) + "</code></p>\n";
  if (text_of(ex, "source_status") == "ambiguous") {
    out += "<p>These files compete for the exercise; keep one:</p>\n<ul>\n";
    for (const auto& other : ex.value("source_others", json::array()))
      if (other.is_string())
        out += "<li><code>" + escape(other.get<std::string>()) + "</code></li>\n";
    out += "</ul>\n";
  }
  const auto build = ex.find("build");
  if (build != ex.end() && build->is_object() && !build->value("ok", true)) {
    const std::string log = text_of(*build, "log");
    if (!log.empty())
      out +=
          "<details class=\"build-log\" open>\n<summary>What the compiler said</summary>\n<pre>" +
          escape(log) + "</pre>\n</details>\n";
  }
  const json* previous = nullptr;
  for (const auto& c : ex.value("checks", json::array())) {
    const bool repeated = previous && !text_of(c, "message").empty() &&
                          text_of(c, "message") == text_of(*previous, "message");
    out += check_html(c, repeated ? text_of(*previous, "name") : "");
    if (!repeated) previous = &c;
  }
  const json course_only = ex.value("course_only", json::array());
  if (!course_only.empty()) {
    out += "<p class=\"muted\">Graded by the course only (not here):";
    for (const auto& c : course_only)
      out += " " + escape(text_of(c, "name")) + " (" + points(number_of(c, "max_score")) + ")";
    out += "</p>\n";
  }
  return out + "</section>\n";
}

const char* const kStyle = R"css(
details.check { border-left: 4px solid #009e73; padding: 0.1rem 0.6rem; margin: 0.3rem 0; }
details.check-failed { border-left-color: #e51e10; }
details.check-failed .verdict { color: #e51e10; font-weight: bold; }
details.check-passed .verdict { color: #009e73; }
.check-name { font-weight: 600; }
)css";

}  // namespace

std::string student_report_html(const json& r) {
  const std::string submission = text_of(r, "submission");
  std::string body = "<h1>Report: " + escape(submission) +
                     "</h1>\n<p class=\"total\">Total: <strong>" + points(number_of(r, "score")) +
                     "/" + points(number_of(r, "max_score")) + "</strong>";
  const std::string assignment = text_of(r, "assignment");
  if (!assignment.empty()) body += " (assignment " + escape(assignment) + ")";
  body += "</p>\n";
  const auto late = r.find("late");
  if (late != r.end() && late->is_object() && late->value("late", false))
    body += "<p class=\"failed\">Late: " + std::to_string(late->value("days_late", 0)) +
            " day(s), " + points(number_of(*late, "penalty_percent")) +
            "% off: " + points(number_of(*late, "score_after_penalty")) + " after the penalty (" +
            escape(text_of(*late, "policy")) + ").</p>\n";
  for (const auto& notice : r.value("notices", json::array()))
    if (notice.is_string())
      body += "<p class=\"notice\">Note: " + escape(notice.get<std::string>()) + "</p>\n";
  const std::string isolation = text_of(r, "isolation");
  if (!isolation.empty()) body += "<p class=\"muted\">Sandbox: " + escape(isolation) + "</p>\n";
  // The exercises at a glance, each a link to its section.
  body +=
      "<table class=\"exercises\">\n<tr><th>exercise</th><th "
      "class=\"num\">points</th><th>passed</th></tr>\n";
  const json exercises = r.value("exercises", json::array());
  for (const auto& ex : exercises) {
    int passed = 0, all = 0;
    for (const auto& c : ex.value("checks", json::array())) {
      ++all;
      passed += text_of(c, "status") == "passed";
    }
    const std::string name = text_of(ex, "name"), state = exercise_state(ex);
    body += "<tr><td><a href=\"#ex-" + html::url_segment(name) + "\">" + escape(name) +
            "</a></td><td class=\"num\">" + points(number_of(ex, "score")) + "/" +
            points(number_of(ex, "max_score")) + "</td><td>" + std::to_string(passed) + " of " +
            std::to_string(all) + " checks" + (state.empty() ? "" : " (" + escape(state) + ")") +
            "</td></tr>\n";
  }
  body += "</table>\n";
  for (const auto& ex : exercises) body += exercise_html(ex);
  return html::page("Report: " + submission, kStyle, body);
}

}  // namespace grader
