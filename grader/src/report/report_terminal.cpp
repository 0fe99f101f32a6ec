// The report a person reads: a line per check, the reasons under each one that did not pass,
// a total, and where to start. Colour only when asked for (a terminal, and NO_COLOR unset).
// Unless verbose, what repeats is said once: the checks of a function not written yet are one
// line, and a likely mistake that several checks of an exercise share is explained under the
// first of them, the others naming it.
#include "report.hpp"

#include <cstdio>
#include <iomanip>
#include <map>
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
    case Status::GraderFault: return "FAULT";
  }
  return "?    ";
}

std::string tag_word(Status s) {
  std::string t = tag(s);
  return t.substr(0, t.find(' '));
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

const std::string kLikely = "Likely mistake: ";

// A check whose details are worth reading: it did not pass, its code exists, and the grader
// itself did not fail on it.
bool diagnosed(const CheckResult& c) {
  return c.status != Status::Passed && c.status != Status::NotImplemented &&
         c.status != Status::BuildError && !c.grader_fault;
}

// Per exercise: each likely mistake shared by two or more checks, and the checks it covers in
// report order (the first one carries the details).
std::map<std::string, std::vector<const CheckResult*>> shared_mistakes(const ExerciseResult& ex) {
  std::map<std::string, std::vector<const CheckResult*>> by_mistake;
  for (const auto& c : ex.checks) {
    if (!diagnosed(c)) continue;
    const std::string mistake = likely_mistake(c.message);
    if (!mistake.empty()) by_mistake[mistake].push_back(&c);
  }
  for (auto it = by_mistake.begin(); it != by_mistake.end();)
    it = it->second.size() < 2 ? by_mistake.erase(it) : std::next(it);
  return by_mistake;
}

// "Start here": the first check, in hand-out order, that did not pass, what to do about it
// and the command that grades it again.
void print_start_here(const Report& report, const Style& style, std::ostream& out) {
  for (const auto& ex : report.exercises)
    for (const auto& c : ex.checks) {
      if (c.status == Status::Passed || c.grader_fault) continue;
      out << "\n"
          << style.paint("Start here:", "1") << " " << ex.name << ", " << printable(c.name) << " ("
          << tag_word(c.status) << ")\n";
      if (c.status == Status::NotImplemented) {
        out << "  " << c.function << " is not written yet: exercises/" << ex.name
            << "/README.md says what it "
            << "computes; ./kit hint " << ex.name << " helps when stuck.\n";
      } else if (c.status == Status::BuildError) {
        out << "  " << ex.name
            << " does not build: fix the first compiler error shown under it above.\n";
      } else {
        const std::string mistake = likely_mistake(c.message);
        if (!mistake.empty()) out << "  " << kLikely << printable(mistake) << "\n";
        else out << "  The message under it above says what was called, expected and returned.\n";
      }
      if (!c.rerun.empty()) out << "  rerun: " << style.paint(c.rerun, "36") << "\n";
      return;
    }
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
    const auto shared = verbose ? decltype(shared_mistakes(ex)){} : shared_mistakes(ex);
    std::map<std::string, bool> todo_shown;  // functions whose TODO line is out (not verbose)
    for (const auto& c : ex.checks) {
      // Not verbose: the checks of a function not written yet are one line, at the first.
      if (!verbose && c.status == Status::NotImplemented) {
        if (todo_shown[c.function]) continue;
        todo_shown[c.function] = true;
        int count = 0;
        double max = 0;
        for (const auto& other : ex.checks)
          if (other.status == Status::NotImplemented && other.function == c.function) {
            ++count;
            max += other.max_score;
          }
        std::ostringstream what;
        what << "(" << count << (count == 1 ? " check)" : " checks)");
        out << "  " << style.paint(tag(c.status), colour_of(c.status)) << "  " << std::left
            << std::setw(38) << what.str() << " " << std::setw(7) << points(0, max) << " "
            << c.function << ": not written yet\n";
        continue;
      }
      std::ostringstream line;
      line << "  " << style.paint(tag(c.status), colour_of(c.status)) << "  " << std::left
           << std::setw(38) << printable(c.name) << " " << std::setw(7)
           << points(c.score, c.max_score) << " " << c.function;
      if (c.visibility != "visible" && !c.visibility.empty()) line << "  [" << c.visibility << "]";
      // Not verbose: a likely mistake shared with an earlier check of the exercise is not
      // explained again; the check's own line points back to it.
      const auto group =
          c.status == Status::Passed ? shared.end() : shared.find(likely_mistake(c.message));
      if (diagnosed(c) && group != shared.end() && group->second.front() != &c) {
        out << line.str() << "  (likely mistake: as " << printable(group->second.front()->name)
            << ")\n";
        continue;
      }
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
      if (diagnosed(c) && group != shared.end()) {
        out << "        The same likely mistake explains " << group->second.size() - 1 << " more "
            << (group->second.size() == 2 ? "check" : "checks") << " below:";
        for (std::size_t i = 1; i < group->second.size(); ++i)
          out << " " << printable(group->second[i]->name);
        out << " (--verbose shows each one's own details)\n";
      }
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
