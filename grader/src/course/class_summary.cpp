// Counting the class report's numbers from the gradebook: see class_summary.hpp.
#include "class_summary.hpp"

#include "../report/report.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace grader {

void Histogram::add(double score) {
  if (max <= 0) return;
  if (score >= max - 1e-9) {
    ++counts.back();
    return;
  }
  const int bin = static_cast<int>(std::floor(std::max(0.0, score) / max * 10));
  ++counts[static_cast<std::size_t>(std::min(bin, 9))];
}

namespace {

std::string join(const std::vector<std::string>& v, const char* separator) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : separator) + s;
  return out;
}

std::string number(double x) {
  std::ostringstream o;
  o << std::round(x * 1e6) / 1e6;
  return o.str();
}

// Each exercise's points, from the first report that graded it (an assignment gives every
// submission the same).
double exercise_max(const gradebook::Book& book, const std::string& exercise) {
  for (const auto& row : book.rows)
    if (!row.report.is_null())
      for (const auto& e : row.report.at("exercises"))
        if (e.value("name", "") == exercise) return e.value("max_score", 0.0);
  return 0;
}

// The per-check counts, filled one report at a time.
struct CheckTally {
  ClassSummary& s;
  std::map<std::pair<std::string, std::string>, std::size_t> check_at;    // (exercise, check)
  std::map<std::pair<std::string, std::string>, std::size_t> mistake_at;  // (exercise, mistake)

  CheckRate& rate(const std::string& exercise, const nlohmann::json& c) {
    const std::string name = c.value("name", "");
    auto at = check_at.find({exercise, name});
    if (at == check_at.end()) {
      at = check_at.emplace(std::make_pair(exercise, name), s.checks.size()).first;
      s.checks.push_back({exercise, name, c.value("function", ""), 0, 0, {}});
    }
    return s.checks[at->second];
  }

  void mistake(const std::string& submission, const std::string& exercise, const std::string& check,
               const std::string& text) {
    auto m = mistake_at.find({exercise, text});
    if (m == mistake_at.end()) {
      m = mistake_at.emplace(std::make_pair(exercise, text), s.mistakes.size()).first;
      s.mistakes.push_back({exercise, text, {}, {}});
    }
    MistakeCount& count = s.mistakes[m->second];
    // A student counts once however many checks named it.
    if (count.submissions.empty() || count.submissions.back() != submission)
      count.submissions.push_back(submission);
    if (std::find(count.checks.begin(), count.checks.end(), check) == count.checks.end())
      count.checks.push_back(check);
  }

  // One exercise of one submission; the checks that did not run to the end go to `stopped`.
  void add(const std::string& submission, const nlohmann::json& e, bool as_handed_out,
           std::vector<std::string>& stopped) {
    const std::string exercise = e.value("name", "");
    for (const auto& c : e.value("checks", nlohmann::json::array())) {
      const std::string name = c.value("name", ""), status = c.value("status", "");
      CheckRate& r = rate(exercise, c);
      ++r.graded;
      if (status == "passed") {
        ++r.passed;
        continue;
      }
      ++r.not_passed[status];
      if (status == "crashed" || status == "timeout" || status == "over_memory")
        stopped.push_back(exercise + "/" + name + " " + status);
      // A stub left as handed out is work not done, not a mistake made: whatever its message
      // names ("this is the starter's S q"), it is not counted among the likely mistakes,
      // whether it throws (not_implemented) or runs the starter's code.
      if (status == "not_implemented" || as_handed_out) continue;
      const std::string named = likely_mistake(c.value("message", ""));
      if (!named.empty()) mistake(submission, exercise, name, named);
    }
  }
};

}  // namespace

ClassSummary summarize_class(const gradebook::Book& book,
                             const std::vector<gradebook::SimilarPair>& similar,
                             const std::map<std::string, std::set<std::string>>& untouched) {
  ClassSummary s;
  s.exercises = book.exercises;
  s.no_submission = book.no_submission;
  for (const auto& ex : book.exercises) s.per_exercise.push_back({exercise_max(book, ex)});
  CheckTally tally{s, {}, {}};
  std::set<const gradebook::Student*> seen;
  for (const auto& row : book.rows) {
    const gradebook::RowFacts f = gradebook::facts(book, row);
    StudentLine line{row.submission,
                     row.student ? row.student->id : "",
                     row.student ? row.student->name : "",
                     f.total,
                     f.total_after_late,
                     f.max_score,
                     f.scores,
                     f.status,
                     f.late.late,
                     false};
    // The exports' choice: a roster entry's first row (join puts the folder it takes first).
    line.counted = !row.report.is_null() && gradebook::counts_in_class(book, row) &&
                   (!row.student || seen.insert(row.student).second);
    s.students.push_back(line);
    if (!line.counted) continue;
    ++s.counted;
    if (s.total.max <= 0) s.total.max = f.max_score;
    s.total.add(f.total);
    for (std::size_t i = 0; i < book.exercises.size(); ++i)
      if (!f.statuses[i].empty()) s.per_exercise[i].add(f.scores[i]);
    if (!f.build_errors.empty())
      s.build_errors.push_back({row.submission, join(f.build_errors, ", ")});
    if (!f.missing.empty()) s.missing.push_back({row.submission, join(f.missing, ", ")});
    for (const auto& a : f.ambiguous) s.ambiguous.push_back({row.submission, a});
    if (f.late.late)
      s.late.push_back(
          {row.submission,
           std::to_string(f.late.days_late) + " day(s) late (" +
               (f.late.source == "roster" ? "submitted " + f.late.submitted_at : f.late.source) +
               "), " + number(f.total) + " -> " + number(f.total_after_late)});
    std::vector<std::string> stopped;  // this submission's checks that did not run to the end
    for (const auto& e : row.report.at("exercises")) {
      const std::string exercise = e.value("name", "");
      if (std::find(book.exercises.begin(), book.exercises.end(), exercise) == book.exercises.end())
        continue;
      const auto left = untouched.find(exercise);
      const bool as_handed_out = left != untouched.end() && left->second.count(row.submission);
      if (as_handed_out) s.as_handed_out[exercise].push_back(row.submission);
      tally.add(row.submission, e, as_handed_out, stopped);
    }
    if (!stopped.empty()) s.stopped.push_back({row.submission, join(stopped, ", ")});
  }
  std::set<std::string> counted;
  for (const auto& line : s.students)
    if (line.counted) counted.insert(line.submission);
  for (const auto& p : similar)
    if (counted.count(p.pair.a) && counted.count(p.pair.b)) s.similar.push_back(p);
  std::stable_sort(
      s.mistakes.begin(), s.mistakes.end(), [](const MistakeCount& a, const MistakeCount& b) {
        if (a.submissions.size() != b.submissions.size())
          return a.submissions.size() > b.submissions.size();
        return a.exercise != b.exercise ? a.exercise < b.exercise : a.mistake < b.mistake;
      });
  return s;
}

}  // namespace grader
