// The report a person reads: a line per check, the reasons under each one that did not pass,
// and a total. Colour only when asked for (a terminal, and NO_COLOR unset).
#include "report.hpp"

#include <cstdio>
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

// A fixed-width tag per status, so the lines line up.
const char* tag(Status s) {
  switch (s) {
    case Status::Passed: return "PASS ";
    case Status::Failed: return "FAIL ";
    case Status::NotImplemented: return "TODO ";
    case Status::Error: return "ERROR";
    case Status::Crashed: return "CRASH";
    case Status::Timeout: return "TIME ";
    case Status::OverMemory: return "MEM  ";
    case Status::BuildError: return "BUILD";
    case Status::Ambiguous: return "AMBIG";
  }
  return "?    ";
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

// Text from a submission (what it printed, messages quoting it) reaches a terminal: escape
// every control character but newline and tab, so that it can neither move the cursor, clear
// the screen, retitle the window nor hide text. C1 controls (U+0080 to U+009F, which some
// terminals obey too) are escaped as well.
}  // namespace

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  char hex[8];
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else if (c1) {
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned char>(text[++i]));
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

void indented(std::ostream& out, const std::string& text, const std::string& pad) {
  std::istringstream lines(printable(text));
  for (std::string line; std::getline(lines, line);) out << pad << line << "\n";
}

}  // namespace

void print_terminal(const Report& report, std::ostream& out, bool colour) {
  const Style style{colour};
  out << "Grading " << printable(report.submission) << "\n";
  for (const auto& notice : report.notices) out << style.paint("Note: " + notice, "33") << "\n";
  if (report.isolation == "none")
    out << style.paint("No sandbox here: student code ran with time, memory and file limits only, "
                       "and could read what your user can read. Fine for your own work; course "
                       "grading refuses this.", "33")
        << "\n";
  for (const auto& ex : report.exercises) {
    out << "\n" << style.paint(ex.name, "1") << "  " << points(ex.score, ex.max_score);
    // Nothing built: no file, several competing files, or a file that does not compile.
    const char* why = ex.source_status == "missing"     ? "(no file)"
                      : ex.source_status == "ambiguous" ? "(several files, none graded)"
                                                        : "(does not build)";
    if (!ex.build_ok) out << "  " << style.paint(why, "31");
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
    bool build_error_shown = false;
    for (const auto& c : ex.checks) {
      std::ostringstream line;
      line << "  " << style.paint(tag(c.status), colour_of(c.status)) << "  " << std::left
           << std::setw(38) << printable(c.name) << " " << std::setw(7) << points(c.score, c.max_score)
           << " " << c.function;
      if (c.visibility != "visible" && !c.visibility.empty()) line << "  [" << c.visibility << "]";
      out << line.str() << "\n";
      if (c.status == Status::Passed) continue;
      // A build error is the same for every check of the exercise: say it once.
      if (c.status == Status::BuildError || c.status == Status::Ambiguous) {
        if (!build_error_shown) indented(out, c.message, "        ");
        build_error_shown = true;
        continue;
      }
      if (c.status == Status::NotImplemented) continue;  // the tag says it all
      indented(out, c.message, "        ");
      if (!c.output.empty()) {
        out << "        what your code printed:\n";
        indented(out, c.output, "          | ");
      }
      if (!c.rerun.empty()) out << "        rerun: " << style.paint(c.rerun, "36") << "\n";
    }
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
  if (report.grader_fault)
    out << style.paint("The grader itself ran into a problem (see above); the score may be incomplete.",
                       "31")
        << "\n";
}

}  // namespace grader
