// The gradebook, the LMS exports and the similarity report: see gradebook.hpp.
#include "gradebook.hpp"

#include "../util/printable.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace grader::gradebook {

namespace fs = std::filesystem;

namespace {

std::string number(double x) {
  std::ostringstream o;
  o << std::round(x * 1e6) / 1e6;
  return o.str();
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// "Student ID", "student_id", "STUDENT-ID" -> "student id".
std::string header_key(const std::string& s) {
  std::string out;
  for (char c : trim(s))
    out += (c == '_' || c == '-') ? ' '
                                  : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string line_of(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line + "\n";
}

std::string join_names(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// Whether a spreadsheet could read the cell as a formula: its first character, or its first
// after leading spaces (some importers trim them: "  =1+2"), is = + - @, or one of their
// full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20), which some locales' spreadsheets take as
// the ASCII ones. (Control characters, a leading tab or line end among them, never reach it:
// csv_field shows them as escapes first.)
bool starts_like_formula(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return false;
  if (std::string("=+-@").find(text[first]) != std::string::npos) return true;
  for (const char* wide : {"\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"})
    if (text.compare(first, 3, wide) == 0) return true;
  return false;
}

}  // namespace

std::string csv_field(const std::string& text) {
  // Control characters and bytes that are not UTF-8 (a roster cell, a folder name, a note
  // quoting an upload's name) are written as visible escapes ("\x1b", "\x0a"): an export is
  // one line per student for a person and an importer, and carries no terminal sequence; a tab
  // or a line end can then split no cell in a Tab-delimited or line-based import either.
  const std::string shown = escape_controls(text, "");
  // A cell a spreadsheet would read as a formula (a folder named "=1+2", a file path a student
  // chose) gets a leading apostrophe, so that it shows as text: OWASP's advice on CSV injection.
  std::string s = starts_like_formula(shown) ? "'" + shown : shown;
  // Opened with ';' as the separator (a spreadsheet set to a European locale), a cell splits
  // there ("x;=1+2" is then two cells, the second a formula). The part after such a ';' gets
  // the apostrophe as well, and the field is quoted (one cell wherever quotes are honoured).
  // A plain "; " in the notes is left as it is.
  bool split_formula = false;
  for (std::size_t at = s.find(';'); at != std::string::npos; at = s.find(';', at + 1))
    if (starts_like_formula(s.substr(at + 1))) {
      s.insert(at + 1, "'");
      split_formula = true;
    }
  if (!split_formula && s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<std::vector<std::string>> parse_csv(const std::string& input) {
  std::string text = input;
  if (text.rfind(kBom, 0) == 0) text.erase(0, 3);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  std::size_t line = 1;
  auto end_row = [&] {
    if (any || !field.empty() || !row.empty()) {
      row.push_back(field);
      bool blank =
          std::all_of(row.begin(), row.end(), [](const std::string& f) { return trim(f).empty(); });
      if (!blank) rows.push_back(row);
    }
    row.clear();
    field.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_row();
      ++line;
    } else {
      field += c;
    }
  }
  if (quoted)
    throw std::runtime_error("a quoted field is not closed (line " + std::to_string(line) + ")");
  end_row();
  return rows;
}

std::vector<Student> parse_roster(const std::string& text) {
  const auto rows = parse_csv(text);
  if (rows.empty())
    throw std::runtime_error("the roster is empty (it needs a header row: folder,id,name,email)");
  const std::map<std::string, std::string> aliases = {{"folder", "folder"},
                                                      {"submission", "folder"},
                                                      {"pattern", "folder"},
                                                      {"file", "folder"},
                                                      {"id", "id"},
                                                      {"student id", "id"},
                                                      {"sis user id", "id"},
                                                      {"id number", "id"},
                                                      {"idnumber", "id"},
                                                      {"name", "name"},
                                                      {"student", "name"},
                                                      {"full name", "name"},
                                                      {"student name", "name"},
                                                      {"email", "email"},
                                                      {"email address", "email"},
                                                      {"e mail", "email"},
                                                      {"first name", "first_name"},
                                                      {"last name", "last_name"},
                                                      {"canvas id", "canvas_id"},
                                                      {"sis login id", "sis_login_id"},
                                                      {"login", "sis_login_id"},
                                                      {"section", "section"},
                                                      {"pin", "pin"},
                                                      {"take", "pin"},
                                                      {"submitted", "submitted"},
                                                      {"submitted at", "submitted"},
                                                      {"submission time", "submitted"},
                                                      {"due", "due"},
                                                      {"due date", "due"},
                                                      {"extension", "due"}};
  // Canvas's gradebook export: "ID" is Canvas's user id when "SIS User ID" is there too.
  bool canvas_export = false, has_id = false;
  for (const auto& cell : rows[0]) {
    canvas_export |= header_key(cell) == "sis user id";
    has_id |= header_key(cell) == "id";
  }
  canvas_export &= has_id;
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i) {
    const std::string key = header_key(rows[0][i]);
    const auto a = aliases.find(key);
    const std::string field = canvas_export && key == "id" ? "canvas_id"
                              : a != aliases.end()         ? a->second
                                                           : "";
    if (!field.empty() && !col.count(field)) col[field] = i;
  }
  if (!col.count("id"))
    throw std::runtime_error(
        "the roster's header has no id column (one of: id, student_id, sis_user_id, "
        "id_number); its header is: " +
        line_of(rows[0]));
  const bool folder_from_id = !col.count("folder");
  const auto header = std::make_shared<const std::vector<std::string>>(rows[0]);
  std::vector<Student> roster;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    auto get = [&](const char* key) {
      const auto c = col.find(key);
      return c != col.end() && c->second < rows[r].size() ? trim(rows[r][c->second])
                                                          : std::string();
    };
    Student s;
    s.canvas_id = get("canvas_id");
    // Canvas's own rows ("Points Possible", "Manual Posting") have no Canvas id: not students.
    if (canvas_export && s.canvas_id.empty()) continue;
    s.id = get("id");
    if (canvas_export && s.id.empty()) s.id = s.canvas_id;  // a student with no SIS id
    s.folder = folder_from_id ? s.id : get("folder");
    s.name = get("name");
    s.email = get("email");
    s.first_name = get("first_name");
    s.last_name = get("last_name");
    if (s.name.empty()) s.name = trim(s.first_name + " " + s.last_name);
    s.test_student = is_test_student(s.name);
    s.roster_header = header;
    s.sis_login_id = get("sis_login_id");
    s.pin = get("pin");
    s.section = get("section");
    s.submitted = get("submitted");
    if (!s.submitted.empty()) try {
        parse_iso8601(s.submitted);
      } catch (const LatePolicyError& e) {
        throw std::runtime_error("roster entry " + std::to_string(r + 1) + ": its submitted time " +
                                 e.what());
      }
    s.due = get("due");
    if (!s.due.empty()) try {
        parse_iso8601(s.due);
      } catch (const LatePolicyError& e) {
        throw std::runtime_error("roster entry " + std::to_string(r + 1) + ": its due time " +
                                 e.what());
      }
    if (s.id.empty() || s.folder.empty())
      throw std::runtime_error("roster entry " + std::to_string(r + 1) + " (" +
                               trim(line_of(rows[r])) + ") has no " +
                               (s.id.empty() ? "id" : "folder"));
    roster.push_back(std::move(s));
  }
  return roster;
}

bool is_test_student(const std::string& name) {
  const std::string key = header_key(name);
  return key == "test student" || key == "student, test";
}

bool folder_matches(const std::string& pattern, const std::string& folder) {
  if (pattern == folder) return true;
  if (pattern.find_first_of("*?[") == std::string::npos) return false;
  return ::fnmatch(pattern.c_str(), folder.c_str(), FNM_PERIOD) == 0;
}

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

// "lovelaceada_1001" ends in Canvas id 1001: a Canvas download's folder of that student.
bool ends_in_canvas_id(const std::string& folder, const std::string& canvas_id) {
  const std::string tail = "_" + canvas_id;
  return !canvas_id.empty() && folder.size() > tail.size() &&
         folder.compare(folder.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

const Student* owner_of(const std::vector<Student>& roster, const std::string& folder) {
  for (const auto& s : roster)
    if (s.folder == folder) return &s;
  for (const auto& s : roster)
    if (folder_matches(s.folder, folder)) return &s;
  for (const auto& s : roster)
    if (ends_in_canvas_id(folder, s.canvas_id)) return &s;
  return nullptr;
}

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
  std::set<std::string> conflicts;
  {
    auto origin = [&](const std::string& f) {
      return reports.at(f).value("class", nlohmann::json::object()).value("origin", "folder");
    };
    std::map<const Student*, std::vector<std::string>> by_id;
    for (const auto& [folder, who] : owner)
      if (!folder_matches(who->folder, folder)) by_id[who].push_back(folder);
    for (const auto& [who, folders] : by_id) {
      const bool has_canvas =
          std::any_of(folders.begin(), folders.end(),
                      [&](const std::string& f) { return origin(f) == "canvas"; });
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
    for (const auto& [folder, why] : not_joined) {
      owner.erase(folder);
      book.not_in_roster.push_back(folder);
    }
    std::sort(book.not_in_roster.begin(), book.not_in_roster.end());
  }
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
    std::stable_partition(mine.begin(), mine.end(),
                          [&](const std::string& f) { return f == taken; });
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
          {"tokens", print.tokens},
          {"kgrams", print.kgrams}};
}

ClassSource class_source(const nlohmann::json& facts) {
  ClassSource s;
  s.file = facts.value("file", "");
  s.hash = facts.value("hash", "");
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
