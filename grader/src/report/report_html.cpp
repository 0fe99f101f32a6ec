// A student's report as a page: see report_html.hpp.
#include "report_html.hpp"

#include "html_text.hpp"
#include "report_from_json.hpp"
#include "report_layout.hpp"

#include <filesystem>
#include <optional>

namespace grader {

namespace {

using html::escape;
using nlohmann::json;

std::string points_of(double got, double max) { return score_text(got) + "/" + score_text(max); }

// The summary of a row: the status word the terminal prints, the check, its points, its tag.
std::string row_summary(const ReportRow& row) {
  const CheckResult& c = *row.check;
  std::string out =
      "<summary><span class=\"verdict\">" + escape(status_word(c.status)) + "</span> ";
  if (row.kind == ReportRow::Kind::Todo) {
    const std::size_t n = row.todo.size();
    return out + "<span class=\"check-name\">" + escape(c.function) + "</span>: not written yet (" +
           std::to_string(n) + (n == 1 ? " check) " : " checks) ") + points_of(0, row.todo_max) +
           "</summary>\n";
  }
  out += "<span class=\"check-name\">" + escape(c.name) + "</span> <span class=\"muted\">(" +
         escape(c.function) + ")</span> " + points_of(c.score, c.max_score);
  const std::string tag = visibility_tag(c);
  if (!tag.empty()) out += " <span class=\"tag\">" + escape(tag) + "</span>";
  if (row.kind == ReportRow::Kind::Same)
    out += " <span class=\"muted\">(likely mistake: as " + escape(row.same_as->name) + ")</span>";
  return out + "</summary>\n";
}

// Where to read what the exercise asks: a link to the hand-out from where the page is, when
// the page is read beside the kit (`kit`: the kit's folder as a relative URL ending in '/');
// its path in the kit, as text, when it is read elsewhere (grade-all's pages).
std::string handout_html(const std::string& exercise, const std::optional<std::string>& kit) {
  const std::string path = handout_path(exercise);
  if (!kit) return "<code>" + escape(path) + "</code>";
  return "<a href=\"" + escape(*kit + path) + "\">" + escape(path) + "</a>";
}

std::string message_html(const CheckResult& c) {
  std::string out;
  if (!c.message.empty()) out += "<pre class=\"message\">" + escape(c.message) + "</pre>\n";
  if (!c.output.empty())
    out += "<p class=\"muted\">What the code printed:</p>\n<pre class=\"output\">" +
           escape(c.output) + "</pre>\n";
  return out;
}

std::string rerun_html(const CheckResult& c) {
  if (c.rerun.empty() || !visibility_tag(c).empty()) return "";
  return "<p>Grade it again on its own: <code>" + escape(c.rerun) + "</code></p>\n";
}

// One row (report_layout.hpp) as a <details>, open exactly when the terminal shows its details.
// `first_build`: the check under which the exercise's build error is shown.
std::string row_html(const ReportRow& row, const std::string& exercise,
                     const std::string& first_build, const std::optional<std::string>& kit) {
  const CheckResult& c = *row.check;
  const char* kind = c.status == Status::Passed          ? "check-passed"
                     : row.kind == ReportRow::Kind::Todo ? "check-todo"
                                                         : "check-failed";
  std::string out = "<details class=\"check " + std::string(kind) + "\" data-status=\"" +
                    escape(status_name(c.status)) + "\"" + (row.expanded ? " open" : "") + ">\n" +
                    row_summary(row);
  if (row.kind == ReportRow::Kind::Todo) {
    out += "<p>Checks waiting for it:";
    for (const CheckResult* t : row.todo) out += " " + escape(t->name);
    out += ".</p>\n<p>What it computes: " + handout_html(exercise, kit) + "; when stuck: <code>" +
           escape(hint_command(exercise)) + "</code>.</p>\n";
  } else if (row.kind == ReportRow::Kind::Same) {
    out += "<p class=\"muted\">The likely mistake is explained under " + escape(row.same_as->name) +
           "; this check's own details:</p>\n" + message_html(c) + rerun_html(c);
  } else if (c.status == Status::Passed) {
    out += "<p class=\"muted\">Passed.</p>\n";
  } else if ((c.status == Status::BuildError || c.status == Status::Ambiguous) && !row.expanded) {
    out += "<p class=\"muted\">Not run: the build error is shown under " + escape(first_build) +
           ".</p>\n";
  } else {
    out += message_html(c);
    if (!row.explains.empty()) {
      out += "<p>The same likely mistake explains " + std::to_string(row.explains.size()) +
             (row.explains.size() == 1 ? " more check" : " more checks") + " below:";
      for (const CheckResult* other : row.explains) out += " " + escape(other->name);
      out += ".</p>\n";
    }
    if (c.status != Status::BuildError && c.status != Status::Ambiguous) out += rerun_html(c);
  }
  return out + "</details>\n";
}

std::string exercise_html(const ExerciseResult& ex, const std::optional<std::string>& kit) {
  const std::string state = unbuilt_reason(ex);
  std::string out =
      "<section class=\"exercise\" id=\"ex-" + html::url_segment(ex.name) + "\">\n<h2>" +
      escape(ex.name) + " <span class=\"points\">" + points_of(ex.score, ex.max_score) + "</span>" +
      (state.empty() ? "" : " <span class=\"failed\">(" + escape(state) + ")</span>") +
      "</h2>\n<p class=\"muted\">Hand-out: " + handout_html(ex.name, kit) + "; hints: <code>" +
      escape(hint_command(ex.name)) + "</code></p>\n";
  if (!ex.source.empty())
    out += "<p class=\"muted\">File graded: <code>" + escape(ex.source) + "</code></p>\n";
  if (ex.source_status == "ambiguous") {
    out += "<p>These files compete for the exercise; keep one:</p>\n<ul>\n";
    for (const auto& other : ex.source_others)
      out += "<li><code>" + escape(other) + "</code></li>\n";
    out += "</ul>\n";
  }
  const std::vector<ReportRow> rows = report_rows(ex, false);
  std::string first_build;  // the check the layout shows the build error under
  for (const ReportRow& row : rows)
    if (first_build.empty() && row.expanded &&
        (row.check->status == Status::BuildError || row.check->status == Status::Ambiguous))
      first_build = row.check->name;
  for (const ReportRow& row : rows) out += row_html(row, ex.name, first_build, kit);
  if (!ex.course_only.empty()) {
    out += "<p class=\"muted\">Graded by the course only (not here):";
    for (const auto& [name, max] : ex.course_only)
      out += " " + escape(name) + " (" + score_text(max) + ")";
    out += "</p>\n";
  }
  return out + "</section>\n";
}

// "Start here" (report_layout.hpp), first on the page: the advice, with the hand-out as a link
// and the hint command as code, and the command that grades the check again.
std::string start_here_html(const Report& report, const std::optional<std::string>& kit) {
  const auto start = start_here(report);
  if (!start) return "";
  const CheckResult& c = *start->check;
  const std::string& exercise = start->exercise->name;
  std::string advice = escape(start->advice);
  const auto link = [&](const std::string& plain, const std::string& markup) {
    const std::size_t at = advice.find(escape(plain));
    if (at != std::string::npos) advice.replace(at, escape(plain).size(), markup);
  };
  link(handout_path(exercise), handout_html(exercise, kit));
  link(hint_command(exercise), "<code>" + escape(hint_command(exercise)) + "</code>");
  std::string out = "<section class=\"start-here\">\n<h2>Start here</h2>\n<p><a href=\"#ex-" +
                    html::url_segment(exercise) + "\">" + escape(exercise) + "</a>, " +
                    escape(c.name) + " (" + escape(status_word(c.status)) + ")</p>\n<p>" + advice +
                    "</p>\n";
  if (!c.rerun.empty()) out += "<p>Rerun: <code>" + escape(c.rerun) + "</code></p>\n";
  return out + "</section>\n";
}

// The submission's own name: its folder's last component, never the path the grader was given
// (an absolute path shows the grader's folders and overflows a phone's width).
std::string own_name(std::string submission) {
  while (submission.size() > 1 && submission.back() == '/') submission.pop_back();
  const std::size_t slash = submission.rfind('/');
  std::string name = slash == std::string::npos ? submission : submission.substr(slash + 1);
  // "." and ".." name a folder only relative to where the grader ran: no name to show.
  return name.empty() || name == "." || name == ".." ? "submission" : name;
}

// Marks in Okabe and Ito's palette (bluish green, vermillion, orange), which colour-blind
// readers tell apart; each verdict's text in a darker shade of its mark's hue, legible on white
// (a contrast of 4.5:1 or more).
const char* const kStyle = R"css(
details.check { border-left: 4px solid #009e73; padding: 0.1rem 0.6rem; margin: 0.3rem 0; }
details.check-failed { border-left-color: #d55e00; }
details.check-failed .verdict { color: #b34700; font-weight: bold; }
details.check-passed .verdict { color: #007a5a; }
details.check-todo { border-left-color: #e69f00; }
details.check-todo .verdict { color: #8f5a00; font-weight: bold; }
.tag { font-family: monospace; }
.start-here { border: 2px solid #0072b2; padding: 0.2rem 0.8rem; margin: 1rem 0; }
.start-here h2 { margin-top: 0.4rem; }
.check-name { font-weight: 600; }
)css";

}  // namespace

std::string student_report_html(const json& r, const std::optional<std::string>& kit) {
  const Report report = report_from_native_json(r);
  const std::string name = own_name(report.submission);
  std::string body = "<h1>Report: " + escape(name) + "</h1>\n<p class=\"total\">Total: <strong>" +
                     points_of(report.score, report.max_score) + "</strong>";
  if (!report.assignment.empty()) body += " (assignment " + escape(report.assignment) + ")";
  body += "</p>\n" + start_here_html(report, kit);
  const auto late = r.find("late");
  if (late != r.end() && late->is_object() && late->value("late", false))
    body += "<p class=\"failed\">Late: " + std::to_string(late->value("days_late", 0)) +
            " day(s), " + score_text(json_number(*late, "penalty_percent")) +
            "% off: " + score_text(json_number(*late, "score_after_penalty")) +
            " after the penalty (" + escape(json_text(*late, "policy")) + ").</p>\n";
  for (const auto& notice : report.notices)
    body += "<p class=\"notice\">Note: " + escape(notice) + "</p>\n";
  if (!report.isolation.empty())
    body += "<p class=\"muted\">Sandbox: " + escape(report.isolation) + "</p>\n";
  // The exercises at a glance, each a link to its section.
  body +=
      "<table class=\"exercises\">\n<tr><th>exercise</th><th "
      "class=\"num\">points</th><th>passed</th></tr>\n";
  for (const auto& ex : report.exercises) {
    int passed = 0;
    for (const auto& c : ex.checks) passed += c.status == Status::Passed;
    const std::string state = unbuilt_reason(ex);
    body += "<tr><td><a href=\"#ex-" + html::url_segment(ex.name) + "\">" + escape(ex.name) +
            "</a></td><td class=\"num\">" + points_of(ex.score, ex.max_score) + "</td><td>" +
            std::to_string(passed) + " of " + std::to_string(ex.checks.size()) + " checks" +
            (state.empty() ? "" : " (" + escape(state) + ")") + "</td></tr>\n";
  }
  body += "</table>\n";
  for (const auto& ex : report.exercises) body += exercise_html(ex, kit);
  return html::page("Report: " + name, kStyle, body);
}

std::string kit_url_from(const std::string& page, const std::string& kit) {
  namespace fs = std::filesystem;
  const fs::path from = fs::weakly_canonical(fs::absolute(page)).parent_path();
  const fs::path rel = fs::weakly_canonical(fs::absolute(kit)).lexically_relative(from);
  std::string url;
  for (const auto& segment : rel)
    if (!segment.empty() && segment != ".")
      // ".." is the step up here; url_segment would make it a name ("%2E%2E").
      url += (segment == ".." ? ".." : html::url_segment(segment.string())) + "/";
  return url;
}

}  // namespace grader
