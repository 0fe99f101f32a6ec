// The report a person reads: a line per check, the reasons under each one that did not pass,
// a total, and where to start. Colour only when asked for (a terminal, and NO_COLOR unset).
// Unless verbose, what repeats is said once: the checks of a function not written yet are one
// line, and a likely mistake that several checks of an exercise share is explained under the
// first of them, the others naming it. What is folded, the status words and where to start are
// decided in report_layout.hpp, which the page (report_html.cpp) follows too.
#include "report.hpp"
#include "report_layout.hpp"

#include <iomanip>
#include <sstream>

namespace grader {

namespace {

struct Style {
  bool on;
  std::string paint(const std::string& text, const char* code) const {
    return on ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
  }
};

// A status word padded to one width (report_layout.hpp), so that the lines line up.
std::string tag(Status s) {
  std::string word = status_word(s);
  word.resize(5, ' ');
  return word;
}

const char* colour_of(Status s) {
  if (s == Status::Passed) return "32";
  if (s == Status::NotImplemented) return "33";
  return "31";
}

std::string points(double got, double max) {
  std::ostringstream o;
  o << std::setprecision(4) << got << "/" << max;
  return o.str();
}

void indented(std::ostream& out, const std::string& text, const std::string& pad) {
  std::istringstream lines(printable(text));
  for (std::string line; std::getline(lines, line);) out << pad << line << "\n";
}

// "Start here" (report_layout.hpp), at the end: after reading the report, the next thing to do.
void print_start_here(const Report& report, const Style& style, std::ostream& out) {
  const auto start = start_here(report);
  if (!start) return;
  const CheckResult& c = *start->check;
  out << "\n"
      << style.paint("Start here:", "1") << " " << start->exercise->name << ", "
      << printable(c.name) << " (" << status_word(c.status) << ")\n";
  out << "  " << printable(start->advice) << "\n";
  if (!c.rerun.empty()) out << "  rerun: " << style.paint(c.rerun, "36") << "\n";
}

// One row of an exercise (report_layout.hpp): its line, then its details when expanded.
void print_row(const ReportRow& row, const Style& style, std::ostream& out) {
  const CheckResult& c = *row.check;
  if (row.kind == ReportRow::Kind::Todo) {
    const std::size_t count = row.todo.size();
    std::ostringstream what;
    what << "(" << count << (count == 1 ? " check)" : " checks)");
    out << "  " << style.paint(tag(c.status), colour_of(c.status)) << "  " << std::left
        << std::setw(38) << what.str() << " " << std::setw(7) << points(0, row.todo_max) << " "
        << c.function << ": not written yet\n";
    return;
  }
  out << "  " << style.paint(tag(c.status), colour_of(c.status)) << "  " << std::left
      << std::setw(38) << printable(c.name) << " " << std::setw(7) << points(c.score, c.max_score)
      << " " << c.function;
  const std::string visibility = visibility_tag(c);
  if (!visibility.empty()) out << "  " << visibility;
  if (row.kind == ReportRow::Kind::Same)
    out << "  (likely mistake: as " << printable(row.same_as->name) << ")";
  out << "\n";
  if (!row.expanded) return;
  indented(out, c.message, "        ");
  // A build error is the same for every check of the exercise: its message is all there is.
  if (c.status == Status::BuildError || c.status == Status::Ambiguous) return;
  if (!row.explains.empty()) {
    out << "        The same likely mistake explains " << row.explains.size() << " more "
        << (row.explains.size() == 1 ? "check" : "checks") << " below:";
    for (const CheckResult* other : row.explains) out << " " << printable(other->name);
    out << " (--verbose shows each one's own details)\n";
  }
  if (!c.output.empty()) {
    out << "        what your code printed:\n";
    indented(out, c.output, "          | ");
  }
  if (!c.rerun.empty()) out << "        rerun: " << style.paint(c.rerun, "36") << "\n";
}

}  // namespace

std::string start_here_text(const Report& report) {
  std::ostringstream out;
  print_start_here(report, Style{false}, out);
  std::string text = out.str();
  if (!text.empty() && text.front() == '\n') text.erase(0, 1);  // the blank line before it
  return text;
}

void print_terminal(const Report& report, std::ostream& out, bool colour, bool verbose) {
  const Style style{colour};
  out << "Grading " << printable(report.submission) << "\n";
  for (const auto& notice : report.notices)
    out << style.paint("Note: " + printable_name(notice), "33") << "\n";
  if (report.isolation == "none")
    out << style.paint(
               "No sandbox here: student code ran with time, memory and file limits only, "
               "and could read what your user can read. Fine for your own work; course "
               "grading refuses this.",
               "33")
        << "\n";
  for (const auto& ex : report.exercises) {
    out << "\n" << style.paint(ex.name, "1") << "  " << points(ex.score, ex.max_score);
    // Nothing built: no file, several competing files, or a file that does not compile.
    if (!ex.build_ok) out << "  " << style.paint("(" + unbuilt_reason(ex) + ")", "31");
    out << "\n";
    // Which file was graded (find_files.hpp), and what was passed over for it.
    if (!ex.source.empty()) {
      out << "  file: " << printable(ex.source);
      if (!ex.source_others.empty()) {
        out << "  (also found, not graded:";
        for (const auto& other : ex.source_others) out << " " << printable(other);
        out << ")";
      }
      out << "\n";
    }
    for (const ReportRow& row : report_rows(ex, verbose)) print_row(row, style, out);
    if (!ex.course_only.empty()) {
      out << "  " << style.paint("Graded by the course only:", "2");
      for (const auto& [name, max] : ex.course_only) out << " " << name << " (" << max << ")";
      out << "\n";
    }
  }
  out << "\n" << style.paint("Total: " + points(report.score, report.max_score), "1");
  std::ostringstream secs;
  secs << std::fixed << std::setprecision(2) << report.seconds;
  out << "   (" << secs.str() << " s";
  if (!report.isolation.empty()) out << ", sandbox: " << report.isolation;
  out << ")\n";
  if (!report.jobs_why.empty()) out << "Ran " << report.jobs_why << "\n";
  if (report.seeds == "per-student")
    out << "Seeds: per-student, those of " << printable(report.student)
        << " (the course key's); each rerun line carries its check's seed\n";
  else if (report.seeds == "course")
    out << "Seeds: the course key's; each rerun line carries its check's seed\n";
  if (report.late && !describe_due(*report.late).empty())
    out << "Late work: " << describe_due(*report.late) << "\n";
  if (report.late && report.late->late)
    out << "Late: " << report.late->days_late << " day(s), " << report.late->penalty_percent
        << "% off (" << report.late_policy << "): " << after_penalty(report.score, *report.late)
        << " after the penalty\n";
  if (report.grader_fault)
    out << style.paint(
               "The grader itself ran into a problem (see above): checks marked FAULT were not "
               "graded and score nothing here. That is not your code's doing; grade again.",
               "31")
        << "\n";
  print_start_here(report, style, out);
}

}  // namespace grader
