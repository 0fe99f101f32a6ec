// The gradebook's files: gradebook.csv, the LMS exports and similarity.csv (gradebook.hpp).
#include "csv_text.hpp"
#include "gradebook.hpp"

#include <cmath>
#include <set>

namespace grader::gradebook {

std::string canvas_column(const Book& book, const std::vector<std::string>& names) {
  // Canvas's gradebook export names an assignment's column "Title (id)"; its import fills the
  // assignment whose column name matches, where any other name makes a new assignment.
  auto title_of = [](const std::string& cell) {
    const std::string t = trim(cell);
    const auto open = t.rfind(" (");
    if (t.size() < 4 || t.back() != ')' || open == std::string::npos) return t;
    const std::string id = t.substr(open + 2, t.size() - open - 3);
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return t;
    return t.substr(0, open);
  };
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const auto& name : names) {
    if (trim(name).empty()) continue;
    for (const auto& cell : book.roster_header)
      if (lower(trim(cell)) == lower(trim(name)) || lower(title_of(cell)) == lower(trim(name)))
        return trim(cell);
  }
  return names.empty() ? "" : names.front();
}

std::string gradebook_csv(const Book& book, bool bom) {
  std::vector<std::string> head = {"submission", "student_id", "name", "email"};
  for (const auto& ex : book.exercises) head.push_back(ex);
  head.insert(head.end(),
              {"total", "total_after_late", "max_score", "late", "days_late", "status"});
  for (const auto& ex : book.exercises) head.push_back(ex + "_status");
  head.push_back("notes");
  std::string out = (bom ? kBom : "") + line_of(head);
  for (const auto& row : book.rows) {
    const RowFacts f = facts(book, row);
    std::vector<std::string> cells = {row.submission, row.student ? row.student->id : "",
                                      row.student ? row.student->name : "",
                                      row.student ? row.student->email : ""};
    for (std::size_t e = 0; e < f.scores.size(); ++e)
      cells.push_back(f.statuses[e] == "grader_fault" ? "" : number(f.scores[e]));
    const bool graded = f.status != "grader_fault";
    cells.insert(cells.end(),
                 {graded ? number(f.total) : "",
                  graded && !f.conflict ? number(f.total_after_late) : "", number(f.max_score),
                  f.late.late ? "yes" : "no", std::to_string(f.late.days_late), f.status});
    for (const auto& s : f.statuses) cells.push_back(s);
    std::vector<std::string> notes;
    if (row.student && row.student->test_student)
      notes.push_back("Canvas's Test Student: not exported, not counted");
    if (row.report.is_null()) notes.push_back("no submission");
    if (!row.student) notes.push_back("not in the roster");
    if (!row.note.empty()) notes.push_back(row.note);
    if (!f.missing.empty() && !row.report.is_null())
      notes.push_back("missing: " + join_names(f.missing));
    if (!f.build_errors.empty()) notes.push_back("does not build: " + join_names(f.build_errors));
    if (!f.not_graded.empty())
      notes.push_back(
          "not graded, the grader's fault (the machine ran short; no score "
          "written): " +
          join_names(f.not_graded) + "; grade again");
    if (f.late.late) {
      const std::string taken =
          book.late.penalises ? number(f.late.penalty_percent) + "% off" : "no penalty";
      notes.push_back(f.late.source == "roster"
                          ? "late: submitted " + f.late.submitted_at + " (roster), " +
                                (f.late.due.empty()
                                     ? ""
                                     : "against the student's own due time " + f.late.due + ", ") +
                                taken
                          : "late: Canvas's _LATE_ flag, no time known, counted as 1 day, " +
                                taken);
    } else if (!f.late.due.empty()) {
      notes.push_back("on time by the student's own due time " + f.late.due + " (roster)");
    }
    for (const auto& a : f.ambiguous) notes.push_back("several files, none graded: " + a);
    if (!row.report.is_null())  // how grade-all took the files: a Canvas resubmission, an archive
      for (const auto& n : row.report.value("intake", std::vector<std::string>{}))
        notes.push_back(n);
    std::string note;
    for (const auto& n : notes) note += (note.empty() ? "" : "; ") + n;
    cells.push_back(note);
    out += line_of(cells);
  }
  return out;
}

namespace {

// One row per roster entry but Canvas's Test Student: its first submission's facts (of several
// folders, join put the one it took first).
template <class Fn>
void per_student(const Book& book, Fn fn) {
  std::set<const Student*> done;
  for (const auto& row : book.rows) {
    if (!row.student || row.student->test_student || done.count(row.student)) continue;
    done.insert(row.student);
    fn(*row.student, facts(book, row));
  }
}

}  // namespace

std::string canvas_csv(const Book& book, const std::string& column, bool bom,
                       bool missing_as_zero) {
  std::string out = (bom ? kBom : "") +
                    line_of({"Student", "ID", "SIS User ID", "SIS Login ID", "Section", column});
  per_student(book, [&](const Student& s, const RowFacts& f) {
    out += line_of(
        {s.name, s.canvas_id, s.id, s.sis_login_id, s.section, exported_score(f, missing_as_zero)});
  });
  return out;
}

std::string moodle_csv(const Book& book, const std::string& column, bool bom,
                       bool missing_as_zero) {
  std::string out = (bom ? kBom : "") +
                    line_of({"First name", "Last name", "ID number", "Email address", column});
  per_student(book, [&](const Student& s, const RowFacts& f) {
    const bool split = !s.first_name.empty() || !s.last_name.empty();
    out += line_of({split ? s.first_name : s.name, split ? s.last_name : "", s.id, s.email,
                    exported_score(f, missing_as_zero)});
  });
  return out;
}

std::string scores_csv(const Book& book, bool bom, bool missing_as_zero) {
  std::string out = (bom ? kBom : "") + line_of({"id", "score"});
  per_student(book, [&](const Student& s, const RowFacts& f) {
    out += line_of({s.id, exported_score(f, missing_as_zero)});
  });
  return out;
}

// --- similarity -------------------------------------------------------------------------

nlohmann::json class_source_json(const std::string& shown, const std::string& text) {
  const similarity::Fingerprint print = similarity::fingerprint(text);
  return {{"file", shown},
          {"hash", similarity::digest(text)},
          {"exact_hash", similarity::exact_digest(text)},
          {"tokens", print.tokens},
          {"kgrams", print.kgrams}};
}

ClassSource class_source(const nlohmann::json& facts) {
  ClassSource s;
  s.file = facts.value("file", "");
  s.hash = facts.value("hash", "");
  s.exact_hash = facts.value("exact_hash", "");
  s.print.tokens = facts.value("tokens", std::size_t{0});
  s.print.kgrams = facts.value("kgrams", std::vector<std::uint32_t>{});
  return s;
}

std::vector<SimilarPair> similar_pairs(
    const std::map<std::string, std::map<std::string, ClassSource>>& sources,
    const std::map<std::string, std::string>& stubs) {
  std::vector<SimilarPair> out;
  for (const auto& [exercise, of] : sources) {
    std::map<std::string, similarity::Fingerprint> prints;
    for (const auto& [submission, source] : of) prints[submission] = source.print;
    const auto stub = stubs.find(exercise);
    const similarity::Fingerprint stub_print =
        similarity::fingerprint(stub == stubs.end() ? "" : stub->second);
    for (const auto& pair : similarity::similar_pairs(prints, stub_print)) {
      SimilarPair p{exercise, pair, of.at(pair.a), of.at(pair.b)};
      p.a.print = p.b.print = {};
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::map<std::string, std::set<std::string>> left_as_handed_out(
    const std::map<std::string, std::map<std::string, ClassSource>>& sources,
    const std::map<std::string, std::string>& stubs) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& [exercise, stub] : stubs) {
    const auto of = sources.find(exercise);
    if (of == sources.end()) continue;
    // Names kept: a file that only renamed or swapped the starter's names is not the starter.
    const std::string stub_hash = similarity::exact_digest(stub);
    for (const auto& [submission, source] : of->second)
      if (source.exact_hash == stub_hash) out[exercise].insert(submission);
  }
  return out;
}

std::string similarity_csv(const std::vector<SimilarPair>& pairs, const Book& book, bool bom) {
  std::string out =
      (bom ? kBom : "") + line_of({"exercise", "group", "hash", "submission", "student_id", "name",
                                   "file", "share", "tokens", "matched"});
  int n = 0;
  for (const auto& p : pairs) {
    ++n;
    auto row = [&](const std::string& submission, const ClassSource& source, std::size_t tokens,
                   std::size_t matched) {
      const Student* who = nullptr;
      for (const auto& r : book.rows)
        if (r.submission == submission) who = r.student;
      out += line_of({p.exercise, std::to_string(n), source.hash.substr(0, 16), submission,
                      who ? who->id : "", who ? who->name : "", source.file,
                      number(std::round(p.pair.share * 100) / 100), std::to_string(tokens),
                      std::to_string(matched)});
    };
    row(p.pair.a, p.a, p.pair.counted_a, p.pair.matched_a);
    row(p.pair.b, p.b, p.pair.counted_b, p.pair.matched_b);
  }
  return out;
}

}  // namespace grader::gradebook
