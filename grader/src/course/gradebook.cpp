// The gradebook: the class's reports joined with the roster, and each row's facts: see
// gradebook.hpp. Its files are written in gradebook_exports.cpp, the roster read in roster.cpp.
#include "gradebook.hpp"

#include "csv_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace grader::gradebook {

namespace fs = std::filesystem;

const char* exercise_status(const nlohmann::json& ex) {
  const std::string source = ex.value("source_status", "found");
  if (source == "missing") return "missing_files";
  if (source == "ambiguous") return "ambiguous";
  // Not graded at all (the machine ran short, say): no score may stand for it.
  for (const auto& check : ex.value("checks", nlohmann::json::array()))
    if (check.value("status", "") == "grader_fault") return "grader_fault";
  const auto build = ex.find("build");
  if (build != ex.end() && !build->value("ok", false)) return "build_error";
  const double score = ex.value("score", 0.0), max = ex.value("max_score", 0.0);
  return score >= max - 1e-9 ? "ok" : "partial";
}

std::string submission_status(const std::vector<std::string>& statuses) {
  for (const char* s : {"grader_fault", "build_error", "ambiguous", "missing_files", "partial"})
    if (std::find(statuses.begin(), statuses.end(), s) != statuses.end()) return s;
  return "ok";
}

bool later(const Recency& a, const Recency& b) {
  if (!a.canvas_submission.empty() && !b.canvas_submission.empty()) {
    const std::string &x = a.canvas_submission,
                      &y = b.canvas_submission;  // digits: longer is larger
    return x.size() != y.size() ? x.size() > y.size() : x > y;
  }
  return a.newest_file > b.newest_file;
}

namespace {

// Of the folders joined to an entry by the Canvas id their name ends in (not by the entry's
// own folder name), those not joined after all go to `not_joined` with the reason; returned:
// the hand-made folders that claim one id together (see join).
std::set<std::string> canvas_id_claims(const std::map<std::string, nlohmann::json>& reports,
                                       const std::map<std::string, const Student*>& owner,
                                       std::map<std::string, std::string>& not_joined) {
  std::set<std::string> conflicts;
  auto origin = [&](const std::string& f) {
    return reports.at(f).value("class", nlohmann::json::object()).value("origin", "folder");
  };
  std::map<const Student*, std::vector<std::string>> by_id;
  for (const auto& [folder, who] : owner)
    if (!folder_matches(who->folder, folder)) by_id[who].push_back(folder);
  for (const auto& [who, folders] : by_id) {
    const bool has_canvas = std::any_of(folders.begin(), folders.end(), [&](const std::string& f) {
      return origin(f) == "canvas";
    });
    std::vector<std::string> by_hand;
    for (const auto& f : folders) {
      const std::string from = origin(f);
      const std::string whose = "Canvas id " + who->canvas_id + " (" + who->id + ")";
      if (from == "archive")
        not_joined[f] = "its name ends in " + whose +
                        ", but a loose archive's name is the uploader's choice: not joined";
      else if (from != "canvas" && has_canvas)
        not_joined[f] =
            "its name ends in " + whose + ", whose own Canvas download is here: not joined";
      else if (from != "canvas") by_hand.push_back(f);
    }
    if (by_hand.size() > 1) conflicts.insert(by_hand.begin(), by_hand.end());
  }
  return conflicts;
}

// The rows of a roster entry with several folders (no conflict among them): the pinned one,
// else the latest, first, for the exports; each row says which the exports take and why.
void add_several_folders(Book& book, const Student& s, std::vector<std::string> mine,
                         const std::map<std::string, nlohmann::json>& reports,
                         const std::map<std::string, Recency>& recency) {
  // Several: the pinned one, else the latest; it goes first, for the exports.
  auto recency_of = [&](const std::string& f) {
    const auto r = recency.find(f);
    return r == recency.end() ? Recency{} : r->second;
  };
  std::string taken, why;
  if (std::find(mine.begin(), mine.end(), s.pin) != mine.end()) {
    taken = s.pin;
    why = "pinned by the roster";
  } else {
    taken = mine[0];
    for (const auto& f : mine)
      if (later(recency_of(f), recency_of(taken))) taken = f;
    const Recency r = recency_of(taken);
    why = r.canvas_submission.empty() ? "the newest files"
                                      : "the latest Canvas submission, " + r.canvas_submission;
  }
  std::stable_partition(mine.begin(), mine.end(), [&](const std::string& f) { return f == taken; });
  book.several_folders.push_back(s.id + ": " + join_names(mine) + " (the exports take " + taken +
                                 ": " + why + ")");
  for (const auto& folder : mine)
    book.rows.push_back({folder, &s, reports.at(folder),
                         folder == taken
                             ? "one of " + std::to_string(mine.size()) + " folders of " + s.id +
                                   ", the one in the exports (" + why + ")"
                             : "one of " + std::to_string(mine.size()) + " folders of " + s.id +
                                   "; the exports take " + taken});
}

}  // namespace

Book join(const std::vector<Student>& roster, const std::map<std::string, nlohmann::json>& reports,
          const std::vector<std::string>& exercises,
          const std::map<std::string, Recency>& recency) {
  Book book;
  book.exercises = exercises;
  book.has_roster = !roster.empty();
  if (book.has_roster && roster.front().roster_header)
    book.roster_header = *roster.front().roster_header;
  // Each folder to one entry: an exact name first, else the first pattern that matches, else
  // the Canvas id it ends in.
  std::map<std::string, const Student*> owner;
  for (const auto& [folder, report] : reports) {
    const Student* who = owner_of(roster, folder);
    if (who) owner[folder] = who;
    else book.not_in_roster.push_back(folder);
  }
  // A Canvas id joins by a name alone only the folders really that student's (intake: issue
  // 32): Canvas's own download of them, or, where there is none, a folder made by hand in
  // Canvas's form. A loose archive's name is the uploader's choice ("mallory_1002.zip"), and so
  // is a folder beside the student's Canvas download: not joined, named in their notes. Two
  // hand-made folders that claim one id are a conflict: ambiguous, no grade exported.
  std::map<std::string, std::string> not_joined;  // folder -> why
  const std::set<std::string> conflicts = canvas_id_claims(reports, owner, not_joined);
  for (const auto& [folder, why] : not_joined) {
    owner.erase(folder);
    book.not_in_roster.push_back(folder);
  }
  std::sort(book.not_in_roster.begin(), book.not_in_roster.end());
  for (const auto& s : roster) {
    std::vector<std::string> mine;
    for (const auto& [folder, who] : owner)
      if (who == &s) mine.push_back(folder);
    if (mine.empty()) {
      book.rows.push_back({"", &s, nullptr, ""});
      if (!s.test_student)  // Canvas's Test Student is expected to hand in nothing
        book.no_submission.push_back(s.id + (s.name.empty() ? "" : " " + s.name));
      continue;
    }
    if (mine.size() == 1) {
      book.rows.push_back({mine[0], &s, reports.at(mine[0]), ""});
      continue;
    }
    // Hand-made folders that claim one Canvas id: none is known to be the student's.
    if (std::any_of(mine.begin(), mine.end(),
                    [&](const std::string& f) { return conflicts.count(f) > 0; })) {
      book.several_folders.push_back(s.id + ": " + join_names(mine) +
                                     " (ambiguous: they claim one Canvas id; none exported)");
      for (const auto& folder : mine) {
        Row row{folder, &s, reports.at(folder),
                "ambiguous: " + join_names(mine) + " all claim Canvas id " + s.canvas_id +
                    "; none goes to the exports"};
        row.conflict = true;
        book.rows.push_back(std::move(row));
      }
      continue;
    }
    add_several_folders(book, s, mine, reports, recency);
  }
  for (const auto& folder : book.not_in_roster)
    book.rows.push_back({folder, nullptr, reports.at(folder),
                         not_joined.count(folder) ? not_joined.at(folder) : ""});
  return book;
}

RowFacts facts(const Book& book, const Row& row) {
  RowFacts f;
  for (const auto& ex : book.exercises) {
    double score = 0;
    std::string status = "missing_files";
    if (!row.report.is_null()) {
      bool present = false;
      for (const auto& e : row.report.at("exercises"))
        if (e.value("name", "") == ex) {
          score = e.value("score", 0.0);
          status = exercise_status(e);
          present = true;
          if (status == "ambiguous") {
            std::string files;
            for (const auto& other : e.value("source_others", std::vector<std::string>{}))
              files += (files.empty() ? "" : ", ") + other;
            f.ambiguous.push_back(ex + " (" + files + ")");
          }
        }
      if (!present) status = "";  // not graded in this run (not part of the assignment)
    }
    if (status == "missing_files") f.missing.push_back(ex);
    if (status == "build_error") f.build_errors.push_back(ex);
    if (status == "grader_fault") f.not_graded.push_back(ex);
    f.scores.push_back(score);
    f.statuses.push_back(status);
  }
  if (row.report.is_null()) {
    f.status = "missing_files";
    f.no_submission = true;
    for (const auto& other : book.rows)  // out of what every graded submission is out of
      if (!other.report.is_null()) {
        f.max_score = other.report.value("max_score", 0.0);
        break;
      }
  } else {
    f.total = row.report.value("score", 0.0);
    f.max_score = row.report.value("max_score", 0.0);
    std::vector<std::string> graded;
    for (const auto& s : f.statuses)
      if (!s.empty()) graded.push_back(s);
    f.status = submission_status(graded);
  }
  if (row.conflict) {
    f.status = "ambiguous";
    f.conflict = true;
  }
  // Late work: the roster's time against the due time, else Canvas's flag in the report.
  // A student's own due time in the roster (an extension) replaces the assignment's.
  if (row.student && !row.student->submitted.empty()) {
    const std::string& own_due = row.student->due;
    f.late = lateness_at(
        book.late, parse_iso8601(row.student->submitted), "roster", row.student->submitted,
        own_due.empty() ? std::nullopt : std::optional<std::int64_t>(parse_iso8601(own_due)));
    if (!own_due.empty()) {
      f.late.due = own_due;
      f.late.due_from = "roster extension";
    }
  } else if (!row.report.is_null() && row.report.value("canvas_late", false))
    f.late = lateness_flagged(book.late, "canvas _LATE_");
  f.total_after_late = after_penalty(f.total, f.late);
  return f;
}

std::string exported_score(const RowFacts& f, bool missing_as_zero) {
  if (f.no_submission) return missing_as_zero ? "0" : "";
  return f.status == "grader_fault" || f.conflict ? "" : number(f.total_after_late);
}

bool counts_in_class(const Book& book, const Row& row) {
  if (row.student) return !row.student->test_student;
  return !book.has_roster;
}

std::vector<std::string> remove_stale_reports(const fs::path& reports_dir,
                                              const std::set<std::string>& submissions) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(reports_dir, ec)) {
    const fs::path p = entry.path();
    if (p.extension() != ".json" || !entry.is_regular_file(ec)) continue;
    const std::string name = p.stem().string();
    if (submissions.count(name)) continue;
    if (fs::remove(p, ec)) removed.push_back(name);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace grader::gradebook
