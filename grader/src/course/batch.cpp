#include "batch.hpp"

#include "../engine/assignment.hpp"
#include "../engine/engine.hpp"
#include "../engine/progress.hpp"
#include "../judge/check.hpp"
#include "../report/report.hpp"
#include "../util/find_files.hpp"
#include "../util/printable.hpp"
#include "../util/utf8.hpp"
#include "class_intake.hpp"
#include "grade_shards.hpp"
#include "grade_stamp.hpp"
#include "gradebook.hpp"
#include "grader_config.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace grader {

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

// The time spent on one submission: its builds and its checks. grade_many times the whole batch
// (its workers interleave every submission's jobs), which says nothing about one of them.
double own_seconds(const Report& report) {
  double seconds = 0;
  for (const auto& ex : report.exercises) {
    seconds += ex.build_seconds;
    for (const auto& c : ex.checks) seconds += c.seconds;
  }
  return seconds;
}

// The assignment and the roster, read before any grading so that a bad one costs nothing.
// Returns false, having said why, when either cannot be read.
bool read_class_inputs(const BatchOptions& batch, const Options& checks, Assignment& assignment,
                       std::vector<gradebook::Student>& roster) {
  try {
    // Its exercises are the gradebook's columns.
    assignment = load_assignment(LINATTN_SOURCE_DIR, checks.assignment, exercise_checks());
  } catch (const AssignmentError& e) {
    std::cerr << "linattn-grade: " << e.what() << "\n";
    return false;
  }
  const std::string& roster_path = batch.roster_path;
  if (roster_path.empty()) return true;
  std::ifstream f(roster_path, std::ios::binary);
  if (!f) {
    std::cerr << "linattn-grade: cannot read the roster " << roster_path << "\n";
    return false;
  }
  try {
    roster = gradebook::parse_roster(read_text(roster_path));
  } catch (const std::exception& e) {
    std::cerr << "linattn-grade: the roster " << roster_path << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

// What the finder decided without a word in the gradebook: the file that lost to the one
// graded (a loose causal.cpp beside a zip holding another), and, for a missing file, files
// named like it (rf_draft.cpp). And a name no report file can carry as it is.
void note_finder_choices(const std::string& name, const FoundSources& found_of,
                         const std::vector<std::string>& exercises,
                         std::vector<std::string>& notes) {
  for (const std::string& ex : exercises) {
    const FoundSource& found = found_of.at(ex);
    if (found.kind == FoundSource::Kind::Found && !found.ignored.empty()) {
      std::string also;
      for (const auto& other : found.ignored) also += (also.empty() ? "" : ", ") + other;
      notes.push_back(ex + ": " + found.shown +
                      " is graded; also named like it, not graded: " + also);
    }
    if (found.kind == FoundSource::Kind::Missing && !found.look_alikes.empty()) {
      std::string like;
      for (const auto& f : found.look_alikes) like += (like.empty() ? "" : ", ") + f;
      notes.push_back(ex + ": no " + ex + ".cpp, but " + like +
                      " looks like it (not graded: the file must be named " + ex + ".cpp)");
    }
  }
  if (report_stem(name) != name) {
    const std::string why =
        name.size() > 200
            ? "is too long (" + std::to_string(name.size()) + " bytes) for a report's file name"
        : printable_name(valid_utf8(name)) != name ? "has bytes a file name should not carry"
                                                   : "ends like a shortened report name";
    notes.push_back("the submission's name " + why + ": its reports are " + report_stem(name) +
                    ".json and .html");
  }
}

// Per-student seeds (assignment.hpp): each submission's student is its roster entry's id, else
// the submission's own name. The student is the one the gradebook joins the submission to
// (gradebook::join): a loose archive, or a folder beside a Canvas download of that id, only
// claims a Canvas id by its name, and is its own student. The class's Canvas students are all
// known here, before any --shard split, so every shard decides alike.
std::map<std::string, std::string> seed_students(const std::vector<std::string>& names,
                                                 const ClassIntake& in,
                                                 const std::vector<gradebook::Student>& roster) {
  auto only_claims_id = [&](const std::string& name, const gradebook::Student* owner) {
    if (!owner || gradebook::folder_matches(owner->folder, name)) return false;
    const auto from = in.origin_of.find(name);
    if (from != in.origin_of.end() && from->second != "folder") return from->second == "archive";
    return std::any_of(
        in.canvas_students.begin(), in.canvas_students.end(),
        [&](const std::string& c) { return c != name && gradebook::owner_of(roster, c) == owner; });
  };
  std::map<std::string, std::string> student_of;
  for (const auto& name : names) {
    const gradebook::Student* owner = gradebook::owner_of(roster, name);
    if (only_claims_id(name, owner)) owner = nullptr;
    student_of[name] = owner && !owner->id.empty() ? owner->id : name;
  }
  return student_of;
}

// What this run grades: per submission, in the class's order, its folder, name, stamp, found
// files and student (for per-student seeds; else empty).
struct ToGrade {
  std::vector<std::string> folders, names, stamps, students;
  std::vector<const FoundSources*> found;
};

// The submissions to grade: those whose report is missing, unreadable, or stamped for other
// files, seeds or kit (grade_stamp.hpp).
ToGrade select_to_grade(const std::vector<std::string>& names, const ClassIntake& in,
                        const std::map<std::string, FoundSources>& found_of,
                        const std::map<std::string, std::string>& student_of, const Options& checks,
                        const Assignment& assignment, const fs::path& reports_dir) {
  const std::string kit = kit_hash();
  ToGrade to;
  for (const auto& name : names) {
    const auto owner = student_of.find(name);
    const std::string student = owner != student_of.end() ? owner->second : std::string();
    const std::string stamp = stamp_of(found_of.at(name), kit, checks, assignment, student);
    const fs::path report = reports_dir / (report_stem(name) + ".json");
    bool fresh = false;
    if (fs::exists(report)) {
      try {
        fresh = nlohmann::json::parse(read_text(report)).value("stamp", "") == stamp;
      } catch (const std::exception&) {
        fresh = false;  // an unreadable report is graded again
      }
    }
    if (!fresh) {
      to.folders.push_back(in.folder_of.at(name).string());
      to.names.push_back(name);
      to.stamps.push_back(stamp);
      to.found.push_back(&found_of.at(name));
      to.students.push_back(student);
    }
  }
  return to;
}

// Grades `to` and writes each report (stamped, with how its files were taken). Returns whether
// the grader was at fault for any of them.
bool grade_and_write_reports(const ToGrade& to, const Options& checks, bool per_student,
                             const ClassIntake& in, const fs::path& reports_dir) {
  const Progress progress = stderr_progress(/*lines_in_logs=*/true);
  std::vector<Report> reports;
  if (!per_student) {
    reports = grade_many(to.folders, checks, progress, to.found);
  } else {
    // Each student's checks have cases of their own, worked out by the oracle and held until
    // their checks ran: a few students at a time keeps that memory small.
    std::cerr << "grade-all: per-student seeds (from the course key and each student's id)\n";
    constexpr std::size_t kStudentsAtOnce = 8;
    for (std::size_t from = 0; from < to.folders.size(); from += kStudentsAtOnce) {
      const std::size_t until = std::min(to.folders.size(), from + kStudentsAtOnce);
      auto part = grade_many({to.folders.begin() + from, to.folders.begin() + until}, checks,
                             progress, {to.found.begin() + from, to.found.begin() + until},
                             {to.students.begin() + from, to.students.begin() + until});
      for (auto& r : part) reports.push_back(std::move(r));
    }
  }
  clear_progress_line();
  bool fault = false;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    reports[i].seconds = own_seconds(reports[i]);
    nlohmann::json j = to_native_json(reports[i]);
    j["stamp"] = to.stamps[i];
    fault |= reports[i].grader_fault;
    const std::string& name = to.names[i];
    // How its files were taken, in the report (a notice) and, for the gradebook, on its own.
    if (const auto notes = in.notes_of.find(name); notes != in.notes_of.end()) {
      j["intake"] = notes->second;
      for (const auto& note : notes->second) j["notices"].push_back(note);
    }
    std::ofstream file(reports_dir / (report_stem(name) + ".json"));
    file << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!file) throw std::runtime_error("cannot write the report of " + printable_name(name));
  }
  return fault;
}

// Every report on disk (fresh or kept), given what the gradebook needs of its folder
// (grade_shards.hpp), so that merge-grades, which has the reports only, writes the same files.
// Returns false when a report could not be written back.
bool add_class_facts(const std::vector<std::string>& names, const ClassIntake& in,
                     const std::map<std::string, FoundSources>& found_of,
                     const std::set<std::string>& canvas_late,
                     const std::vector<std::string>& exercises, const fs::path& reports_dir,
                     std::map<std::string, nlohmann::json>& reports) {
  bool written = true;
  for (const auto& name : names) {
    const fs::path file = reports_dir / (report_stem(name) + ".json");
    nlohmann::json j = nlohmann::json::parse(read_text(file));
    const auto recency = in.recency.find(name);
    j["class"] = class_facts(found_of.at(name),
                             recency != in.recency.end() ? recency->second : gradebook::Recency{},
                             exercises);
    // Its own name (the file's may be shortened) and where it came from, for merge-grades and
    // the gradebook's join.
    j["class"]["submission"] = name;
    j["class"]["origin"] = in.origin_of.count(name) ? in.origin_of.at(name) : "folder";
    // How its files were taken, as of this run: a report kept from an earlier run (its files
    // unchanged) may have a new neighbour since (a loose zip of its name, say).
    if (const auto notes = in.notes_of.find(name); notes != in.notes_of.end())
      j["intake"] = notes->second;
    else j.erase("intake");
    // Canvas named its file _LATE_: the gradebook applies the late policy (late_policy.hpp).
    if (canvas_late.count(name)) j["canvas_late"] = true;
    else j.erase("canvas_late");
    written &=
        write_text(file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    reports[name] = std::move(j);
  }
  return written;
}

}  // namespace

int run_batch(const BatchOptions& batch, const Options& checks) {
  const std::string& dir = batch.dir;
  if (!fs::is_directory(dir)) {
    std::cerr << "linattn-grade: grade-all needs a folder of submissions; there is no folder "
              << dir << "\n";
    return 2;
  }
  Assignment assignment;
  std::vector<gradebook::Student> roster;
  if (!read_class_inputs(batch, checks, assignment, roster)) return 2;
  // "submissions/" and "submissions" alike give "submissions-grades", beside the folder.
  std::string out = batch.out;
  fs::path folder = fs::path(dir).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();
  if (out.empty()) out = folder.string() + "-grades";
  const fs::path reports_dir = fs::path(out) / "reports";
  fs::create_directories(reports_dir);

  ClassIntake in = take_class(dir, out, roster, batch.shard, assignment);
  std::vector<std::string> names;
  for (const auto& [name, folder] : in.folder_of) names.push_back(name);  // sorted: a map's order
  // Reports of submissions whose folder is gone go too: the reports folder mirrors the class.
  std::set<std::string> stems;
  for (const auto& name : names) stems.insert(report_stem(name));
  const auto stale = gradebook::remove_stale_reports(reports_dir, stems);
  if (!stale.empty())
    std::cerr << "grade-all: removed the reports of " << stale.size()
              << " submission(s) no longer in " << dir << ": " << printable_list(stale) << "\n";
  // Each student's files, found and read once through the finder's door: the stamps, the
  // grading and the similarity pass below all use these copies.
  const std::vector<std::string> exercises = assignment.exercise_names();
  std::map<std::string, FoundSources> found_of;
  for (const auto& name : names)
    for (const std::string& ex : exercises)
      found_of[name][ex] = find_exercise_source(in.folder_of.at(name), ex);
  // Late by Canvas's flag when a file graded is one Canvas named _LATE_, or comes from inside
  // one (an archive: "work.zip/..."): a late upload nothing is graded from changes nothing.
  std::set<std::string> canvas_late;
  for (const auto& [student, late_files] : in.late_uploads) {
    const auto found = found_of.find(student);
    if (found == found_of.end()) continue;
    for (const auto& [ex, source] : found->second)
      if (source.kind == FoundSource::Kind::Found &&
          late_files.count(source.shown.substr(0, source.shown.find('/'))))
        canvas_late.insert(student);
  }
  for (const auto& name : names) {
    auto& notes = in.notes_of[name];
    note_finder_choices(name, found_of.at(name), exercises, notes);
    if (notes.empty()) in.notes_of.erase(name);
  }
  const bool per_student = assignment.seeds == Seeds::PerStudent && !checks.seed;
  const std::map<std::string, std::string> student_of =
      per_student ? seed_students(names, in, roster) : std::map<std::string, std::string>();

  const ToGrade to =
      select_to_grade(names, in, found_of, student_of, checks, assignment, reports_dir);
  std::cerr << "grade-all: " << names.size() << " submissions, " << to.folders.size()
            << " to grade, " << names.size() - to.folders.size()
            << " unchanged since their report\n";
  const bool fault =
      !to.folders.empty() && grade_and_write_reports(to, checks, per_student, in, reports_dir);

  // The gradebook, from every report on disk (fresh or kept), joined with the roster.
  std::map<std::string, nlohmann::json> reports;
  bool written = add_class_facts(names, in, found_of, canvas_late, exercises, reports_dir, reports);
  ClassOutputs to_write;
  to_write.out = out;
  to_write.roster = roster;
  to_write.has_roster = !batch.roster_path.empty();
  to_write.assignment = &assignment;
  to_write.bom = batch.bom;
  to_write.lms_column = batch.lms_column;
  to_write.missing_as_zero = batch.missing_as_zero;
  written &= write_class_outputs(to_write, reports);
  return (fault || !written) ? 2 : 0;
}

}  // namespace grader
