// The roster: reading it, and which roster entry a submission folder belongs to (gradebook.hpp).
#include "csv_text.hpp"
#include "gradebook.hpp"

#include <fnmatch.h>

#include <stdexcept>

namespace grader::gradebook {

namespace {

// Which column holds what, by the header's names (the usual spellings of Canvas's, Moodle's
// and a hand-made roster's); Canvas's gradebook export is told by its "SIS User ID".
struct RosterColumns {
  std::map<std::string, std::size_t> col;  // field -> column
  bool canvas_export = false;
};

RosterColumns roster_columns(const std::vector<std::string>& header) {
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
  for (const auto& cell : header) {
    canvas_export |= header_key(cell) == "sis user id";
    has_id |= header_key(cell) == "id";
  }
  canvas_export &= has_id;
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string key = header_key(header[i]);
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
        line_of(header));
  return {col, canvas_export};
}

// A time a roster entry gives (submitted, due) must be one the late policy reads.
void check_time(const std::string& value, std::size_t r, const char* what) {
  if (value.empty()) return;
  try {
    parse_iso8601(value);
  } catch (const LatePolicyError& e) {
    throw std::runtime_error("roster entry " + std::to_string(r + 1) + ": its " + what + " time " +
                             e.what());
  }
}

}  // namespace

std::vector<Student> parse_roster(const std::string& text) {
  const auto rows = parse_csv(text);
  if (rows.empty())
    throw std::runtime_error("the roster is empty (it needs a header row: folder,id,name,email)");
  const RosterColumns columns = roster_columns(rows[0]);
  const auto& col = columns.col;
  const bool canvas_export = columns.canvas_export;
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
    check_time(s.submitted, r, "submitted");
    s.due = get("due");
    check_time(s.due, r, "due");
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

}  // namespace grader::gradebook
