// The GitHub Actions job summary and annotations: see report_github_summary.hpp.
#include "report_github_summary.hpp"

#include "html_text.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <sstream>

namespace grader {

namespace {

// GitHub refuses a step's summary over 1 MiB (and then shows none of it). Each text is cut
// before it is escaped, at most kListed checks are listed one by one, and the list stops
// early when the escaped text (up to six times the raw bytes: ' becomes &#39;) would take the
// summary past kSummaryBytes. The job's log always has the full terminal report.
constexpr std::size_t kMessageBytes = 2000;
constexpr std::size_t kOutputBytes = 4000;
constexpr std::size_t kStartHereBytes = 8000;
constexpr std::size_t kListed = 60;
constexpr std::size_t kSummaryBytes = 768 * 1024;
constexpr std::size_t kAnnotationBytes = 1000;

// The first `limit` bytes of `text`, cut on a character boundary, marked when cut. A character
// has at most three continuation bytes; more in a row are not UTF-8 (a student's output can be
// any bytes, each shown escaped later), and the text is cut at the limit instead of emptied.
std::string capped(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  auto continues = [&](std::size_t i) {
    return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  std::size_t cut = limit;
  while (cut > 0 && cut + 3 > limit && continues(cut)) --cut;
  if (continues(cut)) cut = limit;
  return text.substr(0, cut) + "\n[... cut: the job's log has all of it]";
}

bool not_written(const CheckResult& c) { return c.status == Status::NotImplemented; }

std::string points(double got, double max) { return score_text(got) + " / " + score_text(max); }

// The student's file as the repository holds it: the submission folder and the file graded
// (or the file the exercise expects), relative to where the grader runs, with / separators.
std::string student_file(const Report& report, const ExerciseResult& ex) {
  namespace fs = std::filesystem;
  fs::path path =
      fs::path(report.submission) /
      (ex.source.empty() ? fs::path(ex.name) / (ex.name + ".cpp") : fs::path(ex.source));
  std::error_code ec;
  if (path.is_absolute()) {
    const fs::path here = fs::current_path(ec);
    if (!ec) path = path.lexically_relative(here);
  }
  return path.lexically_normal().generic_string();
}

// Text inside the summary's own <pre>. The <details> element is written on one line, which
// Markdown passes on as raw HTML up to the next blank line: backslash escapes mean nothing
// there, so the text is escaped as HTML, and each line break is a character reference (a raw
// one could make the blank line that ends the raw block and hands the rest to Markdown).
std::string pre_literal(const std::string& text) {
  std::string out;
  for (const char ch : html::escape(escape_controls(text, "\n"))) {
    if (ch == '\n') out += "&#10;";
    else out += ch;
  }
  return out;
}

std::string summary_of_check(const ExerciseResult& ex, const CheckResult& c) {
  std::string out = "- **" + markdown_literal(ex.name) + "**, " + markdown_literal(c.name) + " (" +
                    status_name(c.status) + ", " + points(c.score, c.max_score) + ")";
  if (!c.message.empty()) out += ": " + markdown_literal(capped(c.message, kMessageBytes));
  out += "\n";
  if (!c.output.empty())
    out += "  <details><summary>what it printed</summary><pre>" +
           pre_literal(capped(c.output, kOutputBytes)) + "</pre></details>\n";
  return out;
}

}  // namespace

std::string markdown_literal(const std::string& text) {
  std::string out;
  for (const char ch : escape_controls(text, "\n")) {
    const auto u = static_cast<unsigned char>(ch);
    const bool punctuation = (u >= 0x21 && u <= 0x2F) || (u >= 0x3A && u <= 0x40) ||
                             (u >= 0x5B && u <= 0x60) || (u >= 0x7B && u <= 0x7E);
    if (ch == '\n') out += "<br>";  // our own tag: the text's line breaks, inside one block
    else if (punctuation) out += std::string("\\") + ch;
    else out += ch;
  }
  return out;
}

std::string workflow_message(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '%') out += "%25";
    else if (ch == '\r') out += "%0D";
    else if (ch == '\n') out += "%0A";
    else out += ch;
  }
  return out;
}

std::string workflow_property(const std::string& text) {
  std::string out;
  for (const char ch : workflow_message(text)) {
    if (ch == ':') out += "%3A";
    else if (ch == ',') out += "%2C";
    else out += ch;
  }
  return out;
}

std::string to_github_summary(const Report& report) {
  std::ostringstream out;
  out << "## Linear attention: " << points(report.score, report.max_score) << " points\n\n";
  if (!report.assignment.empty())
    out << "The assignment " << markdown_literal(report.assignment) << ", graded in "
        << markdown_literal(report.submission) << ".\n\n";
  if (report.isolation == "none")
    out << "No sandbox on this runner: student code ran with limits only.\n\n";
  out << "| exercise | points | checks passed |\n| --- | ---: | ---: |\n";
  for (const auto& ex : report.exercises) {
    std::size_t passed = 0;
    for (const auto& c : ex.checks) passed += c.status == Status::Passed;
    out << "| " << markdown_literal(ex.name) << (ex.build_ok ? "" : " (not built)") << " | "
        << points(ex.score, ex.max_score) << " | " << passed << " / " << ex.checks.size() << " |\n";
  }
  const std::string start = start_here_text(report);
  if (start.empty()) {
    out << "\nEvery check passed.\n";
    return out.str();
  }
  // The terminal's own block, line by line, as literal text.
  out << "\n### Start here\n\n" << markdown_literal(capped(start, kStartHereBytes)) << "\n";
  out << "\n### Checks that did not pass\n\n";
  std::size_t listed = 0, more = 0, bytes = static_cast<std::size_t>(out.tellp());
  std::map<std::string, bool> todo_shown;
  for (const auto& ex : report.exercises)
    for (const auto& c : ex.checks) {
      if (c.status == Status::Passed) continue;
      // One line for all the checks of a function not written yet, as in the terminal.
      if (not_written(c) && todo_shown[ex.name + "/" + c.function]) continue;
      if (not_written(c)) todo_shown[ex.name + "/" + c.function] = true;
      const std::string entry = not_written(c)
                                    ? "- **" + markdown_literal(ex.name) +
                                          "**: " + markdown_literal(c.function) +
                                          " is not written yet (its checks: not_implemented)\n"
                                    : summary_of_check(ex, c);
      if (listed == kListed || more > 0 || bytes + entry.size() > kSummaryBytes) {
        ++more;
        continue;
      }
      ++listed;
      bytes += entry.size();
      out << entry;
    }
  if (more) out << "\n" << more << " more in the job's log.\n";
  return out.str();
}

std::string github_annotations(const Report& report) {
  std::ostringstream out;
  std::map<std::string, bool> todo_shown;
  for (const auto& ex : report.exercises) {
    const std::string file = workflow_property(student_file(report, ex));
    for (const auto& c : ex.checks) {
      if (c.status == Status::Passed) continue;
      std::string title = ex.name + ": " + c.name, message;
      if (not_written(c)) {
        if (todo_shown[c.function]) continue;
        todo_shown[c.function] = true;
        title = ex.name + ": " + c.function;
        message = c.function + " is not written yet (it throws NotImplemented)";
      } else {
        message = std::string(status_name(c.status)) + (c.message.empty() ? "" : ": " + c.message);
      }
      out << "::error file=" << file << ",title=" << workflow_property(printable_name(title))
          << "::" << workflow_message(capped(printable(message), kAnnotationBytes)) << "\n";
    }
  }
  return out.str();
}

}  // namespace grader
