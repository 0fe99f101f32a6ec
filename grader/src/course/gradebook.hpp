// The class's gradebook and what an LMS imports, made from the native reports of a batch
// (`./kit grade-all DIR [--roster FILE] [--bom]`), plus the similarity report.
//
// Statuses. Per exercise, from its native report entry:
//   ok             its file was found, it built, and every check passed (full marks);
//   build_error    its file was found but did not compile or link: no check ran;
//   missing_files  no file for it at all; scores zero;
//   ambiguous      several files compete for it (see find_files.hpp) and none was graded;
//                  the notes name them; scores zero;
//   partial        its file built and was graded, below full marks (zero included: a stub
//                  that still throws NotImplemented is `partial` with 0 points);
//   grader_fault   a check of it could not be graded for the grader's own reasons (the machine
//                  ran short of memory): its cell, the totals and the exports stay empty.
// Per submission: `ok` when every exercise is ok; otherwise the first of grader_fault, build_error,
// ambiguous, missing_files, partial that one of its exercises has. A roster entry with no
// submission folder is `missing_files`, with "no submission" in its notes; the exports leave its
// cell empty (an import then keeps what the LMS has, a grade entered by hand say), or write 0
// with --missing-as-zero.
//
// Canvas's Test Student (the roster row of its Student View, "Student, Test") is no one's grade:
// its gradebook row says so, and it is left out of the exports and the class report's counts.
//
// Files written (UTF-8; with --bom each starts with a byte-order mark, for spreadsheet
// programs that otherwise read UTF-8 as a legacy code page), RFC 4180 quoting:
//   gradebook.csv  submission,student_id,name,email,<each exercise>,total,total_after_late,
//                  max_score,late,days_late,status,<each exercise>_status,notes   (one row per
//                  roster entry, in roster order, then one per submission not in the roster).
//                  total is the checks' sum; total_after_late takes the assignment's late policy
//                  off it (late_policy.hpp), and is what the exports carry. late is yes or no;
//                  how it is known (the roster's submitted time, Canvas's _LATE_ flag) is in the
//                  notes.
//   canvas.csv     Canvas's gradebook import: Student,ID,SIS User ID,SIS Login ID,Section,
//                  <assignment column>. Canvas matches a row by ID (its own user id), SIS User
//                  ID or SIS Login ID; a new column name makes a new assignment, and its own
//                  export's header, "Title (assignment id)", fills that assignment (so the
//                  column is taken from the roster when it has one for the assignment:
//                  canvas_column). See "How do I
//                  import grades in the Gradebook?" (Canvas Instructor Guide) and the column
//                  layout of its gradebook export, e.g.
//                  https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades
//   moodle.csv     Moodle's "Import grades from CSV" (Grades > Import > CSV file): a header
//                  row, one row per student; at import, map "Email address" to useremail (or
//                  "ID number" to useridnumber) and the grade column to the grade item. Columns
//                  as Moodle's own export names them: First name,Last name,ID number,Email
//                  address (the roster's one name goes in "First name" unless it has
//                  first_name/last_name columns). https://docs.moodle.org/en/Grade_import
//   scores.csv     id,score
// The exports are written only with a roster (they need the students' ids), one row per
// roster entry (of several folders, the one join chose).
#pragma once

#include "../report/late_policy.hpp"
#include "similarity.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace grader::gradebook {

inline constexpr const char* kBom = "\xEF\xBB\xBF";

// RFC 4180: fields with a comma, quote, CR or LF quoted (and ';', a separator in some locales),
// quotes doubled. A field that starts with =, +, -, @, tab or CR, or with =, +, -, @ after blanks
// or in full width (a spreadsheet formula), gets a leading ' (OWASP, "CSV Injection").
std::string csv_field(const std::string& s);
// Rows of a CSV text: a leading UTF-8 BOM dropped, quoted fields (commas, quotes, newlines),
// LF, CRLF or a lone CR as line ends (a lone CR is how spreadsheets on old Macs end a line, so
// it ends the row even inside an unquoted cell; quote a cell to keep one); blank lines skipped.
// Throws std::runtime_error on an unclosed quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

struct Student {
  std::string folder;  // a submission folder's name, or a pattern with * ? [..] (fnmatch)
  std::string id, name, email;
  std::string first_name, last_name;             // optional, for Moodle
  std::string canvas_id, sis_login_id, section;  // optional, for Canvas
  std::string pin;        // optional: of several folders that match, the one to take (see join)
  std::string submitted;  // optional: when it was handed in, ISO 8601 with its zone (late work)
  std::string due;  // optional: the student's own due time (an extension), ISO 8601 with its zone
  bool test_student = false;  // Canvas's Test Student: not exported, not counted
  // The roster's header row, shared by its entries: a Canvas export's assignment columns are
  // there ("Part 1 (12345)"), for canvas_column.
  std::shared_ptr<const std::vector<std::string>> roster_header;
};

// Whether a roster name is Canvas's Test Student: Canvas names it "Test Student", and its
// gradebook export "Student, Test" (last name first).
bool is_test_student(const std::string& name);

// The roster: a CSV with a header row. Column names, any case, spaces or underscores:
//   folder (or: submission, pattern, file)   required unless `id` names the folders
//   id (or: student_id, student id, sis_user_id, sis user id, id_number, id number)   required
//   name (or: student, full name), email (or: email address, e-mail)
//   first_name, last_name, canvas_id, sis_login_id (or: login), section, pin (or: take),
//   submitted (or: submitted at, submission time): ISO 8601 with its zone, checked here
//   due (or: due date, extension): the student's own due time (an extension), ISO 8601 with its
//   zone, checked here; the late policy measures `submitted` against it instead of the assignment's
// Canvas's own gradebook export is read as it comes: its header has both ID and SIS User ID,
// so ID is Canvas's user id (canvas_id) and SIS User ID the student's id (Canvas's id where a
// student has none); the rows with no Canvas id ("Points Possible", "Manual Posting") are
// Canvas's, not students, and are skipped.
// Throws std::runtime_error naming the line for a bad roster.
std::vector<Student> parse_roster(const std::string& text);

bool folder_matches(const std::string& pattern, const std::string& folder);

const char* exercise_status(const nlohmann::json& exercise);  // a native report's exercise entry
std::string submission_status(const std::vector<std::string>& exercise_statuses);

struct Row {
  std::string submission;            // the folder; empty for a roster entry with no submission
  const Student* student = nullptr;  // nullptr for a submission not in the roster
  nlohmann::json report;             // the native report (null when no submission)
  std::string note;                  // one student, several folders: which one the exports take
  bool conflict = false;  // folders that claim one Canvas id: ambiguous, nothing exported
};

struct Book {
  std::vector<std::string> exercises;
  LatePolicy late;  // the assignment's (set after join)
  std::vector<Row> rows;
  std::vector<std::string> not_in_roster;    // folders no roster entry names
  std::vector<std::string> no_submission;    // roster entries with no folder ("id name")
  std::vector<std::string> several_folders;  // roster entries matching more than one folder
  bool has_roster = false;                   // join was given one
  std::vector<std::string> roster_header;    // its header row (canvas_column)
};

// How recent a submission folder is, to choose among one student's several folders.
struct Recency {
  std::string canvas_submission;  // the highest Canvas submission id of its files, if any
  double newest_file = 0;         // else: its newest file's modification time (seconds)
};
// Whether `a` is later than `b`: by Canvas submission id when both have one, else by newest file.
bool later(const Recency& a, const Recency& b);

// The roster entry a submission folder belongs to (nullptr: none): the first entry that names it
// exactly, else the first whose pattern matches it, else the entry whose canvas_id it ends in.
const Student* owner_of(const std::vector<Student>& roster, const std::string& folder);

// Joins the roster (empty: none) with the submissions' reports (folder -> report). A folder goes
// to the first entry that names it exactly, else the first whose pattern matches it, else the
// entry whose canvas_id it ends in ("lovelaceada_1001": a Canvas download's folder). When an
// entry has several folders, every one gets a row, and the exports take one: the entry's `pin`
// when it names one of them, else the latest by `recency` (folders it lacks count as oldest);
// its row comes first, and each row's note says which was taken. The Canvas id joins only what
// is really that student's (report["class"]["origin"]): not a loose archive, not a folder beside
// their Canvas download (both stay out of the roster, with a note); two hand-made folders that
// claim one id are each `ambiguous` (Row::conflict), and the exports leave the cell blank.
Book join(const std::vector<Student>& roster, const std::map<std::string, nlohmann::json>& reports,
          const std::vector<std::string>& exercises,
          const std::map<std::string, Recency>& recency = {});

struct RowFacts {
  double total = 0, max_score = 0;
  std::string status;
  std::vector<double> scores;         // per exercise
  std::vector<std::string> statuses;  // per exercise
  std::vector<std::string> missing;   // exercises with missing_files
  std::vector<std::string> build_errors;
  std::vector<std::string> not_graded;  // exercises with grader_fault: no score is written
  std::vector<std::string>
      ambiguous;  // "causal (causal (1).cpp, old/causal.cpp)": the competing files
  Lateness late;  // the roster's time, else a report's canvas_late flag
  double total_after_late = 0;
  bool conflict = false;       // the row's folder competes with another for one student (join)
  bool no_submission = false;  // a roster entry with no folder
};
RowFacts facts(const Book& book, const Row& row);
// What the exports write for a student: the total after the late policy; nothing when there is
// no submission (0 with `missing_as_zero`) or the grader could not grade it (grader_fault), so
// that an import leaves the LMS's cell as it is instead of inventing a grade.
std::string exported_score(const RowFacts& f, bool missing_as_zero = false);
// Whether a row counts in the class's numbers and exports: not Canvas's Test Student, and, when
// there is a roster, a roster student's (a folder no entry names, the instructor's own say, is
// in the gradebook only).
bool counts_in_class(const Book& book, const Row& row);

// The Canvas column for an assignment called one of `names` (the first is the default): the
// roster's own header cell "<name> (<digits>)" or "<name>" when it has one (names compared
// without regard to ASCII case), so that the import fills that assignment in Canvas instead of
// making a new one; else names.front().
std::string canvas_column(const Book& book, const std::vector<std::string>& names);

std::string gradebook_csv(const Book& book, bool bom);
std::string canvas_csv(const Book& book, const std::string& column, bool bom,
                       bool missing_as_zero = false);
std::string moodle_csv(const Book& book, const std::string& column, bool bom,
                       bool missing_as_zero = false);
std::string scores_csv(const Book& book, bool bom, bool missing_as_zero = false);

// --- similarity (similarity.hpp) -------------------------------------------------------
// What a report carries of one exercise's file for the similarity report (its "class" facts,
// grade_shards.hpp): the path shown, the digest of its token stream, its fingerprint.
struct ClassSource {
  std::string file, hash;
  std::string exact_hash;  // similarity::exact_digest: names kept (empty in older reports)
  similarity::Fingerprint print;
};
nlohmann::json class_source_json(const std::string& shown, const std::string& text);
ClassSource class_source(const nlohmann::json& facts);  // a report written before: no fingerprint

struct SimilarPair {
  std::string exercise;
  similarity::Pair pair;
  ClassSource a, b;  // the two files (fingerprints dropped)
};
// Per exercise, the pairs of files at least similarity::kReportShare alike, against the
// exercise's stub: sources is exercise -> (submission -> its file), stubs exercise -> the stub.
std::vector<SimilarPair> similar_pairs(
    const std::map<std::string, std::map<std::string, ClassSource>>& sources,
    const std::map<std::string, std::string>& stubs);
// Per exercise, the submissions whose file is the exercise's stub token for token, names
// included (only whitespace and comments changed): a starter left as handed out. Its checks may
// fail with a message naming "the starter's" code, which is work not done rather than a mistake
// made.
std::map<std::string, std::set<std::string>> left_as_handed_out(
    const std::map<std::string, std::map<std::string, ClassSource>>& sources,
    const std::map<std::string, std::string>& stubs);
// similarity.csv: exercise,group,hash,submission,student_id,name,file,share,tokens,matched: two
// rows per pair (its group), one per file: the pair's share of matching tokens, the file's
// tokens (the stub's not counted) and how many of them match.
std::string similarity_csv(const std::vector<SimilarPair>& pairs, const Book& book, bool bom);

// Reports (<name>.json) in `reports_dir` whose submission is gone: removed, names returned.
std::vector<std::string> remove_stale_reports(const std::filesystem::path& reports_dir,
                                              const std::set<std::string>& submissions);

}  // namespace grader::gradebook
