#include "batch.hpp"

#include "../engine/assignment.hpp"
#include "../engine/engine.hpp"
#include "../engine/progress.hpp"
#include "../judge/check.hpp"
#include "../report/report.hpp"
#include "../util/find_files.hpp"
#include "../util/utf8.hpp"
#include "archive_staging.hpp"
#include "archive_unpack.hpp"
#include "canvas_download.hpp"
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

#include <sys/stat.h>

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

// The modification time of the newest plain file in a folder (or of the file itself), in
// seconds: how recent a submission is when Canvas gives no id. Links are not followed.
double newest_file(const fs::path& path) {
  // lstat's time since 1970 (the file clock's epoch is the library's choice, and can make
  // every time negative).
  auto mtime = [](const fs::path& p) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0.0;
    return static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) * 1e-9;
  };
  double newest = mtime(path);
  std::error_code ec;
  std::size_t entries = 0;
  if (fs::symlink_status(path, ec).type() == fs::file_type::directory)
    for (fs::recursive_directory_iterator
             it(path, fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end && ++entries <= 20000; it.increment(ec))
      newest = std::max(newest, mtime(it->path()));  // links and folders give 0
  return newest;
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

// Names a student chose (a file in the class folder, a folder, an archive) reach the terminal:
// printable, so that none can clear the screen or retitle the window.
std::string list(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + printable_name(s);
  return out;
}

}  // namespace

int run_batch(const BatchOptions& batch, const Options& checks) {
  const std::string& dir = batch.dir;
  const std::string& roster_path = batch.roster_path;
  std::string out = batch.out;
  if (!fs::is_directory(dir)) {
    std::cerr << "linattn-grade: grade-all needs a folder of submissions; there is no folder "
              << dir << "\n";
    return 2;
  }
  // The assignment, read before any grading: its exercises are the gradebook's columns.
  Assignment assignment;
  try {
    assignment = load_assignment(LINATTN_SOURCE_DIR, checks.assignment, exercise_checks());
  } catch (const AssignmentError& e) {
    std::cerr << "linattn-grade: " << e.what() << "\n";
    return 2;
  }
  // The roster, read before any grading so that a bad one costs nothing.
  std::vector<gradebook::Student> roster;
  if (!roster_path.empty()) {
    std::ifstream f(roster_path, std::ios::binary);
    if (!f) {
      std::cerr << "linattn-grade: cannot read the roster " << roster_path << "\n";
      return 2;
    }
    try {
      roster = gradebook::parse_roster(read_text(roster_path));
    } catch (const std::exception& e) {
      std::cerr << "linattn-grade: the roster " << roster_path << ": " << e.what() << "\n";
      return 2;
    }
  }
  // "submissions/" and "submissions" alike give "submissions-grades", beside the folder.
  fs::path folder = fs::path(dir).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();
  if (out.empty()) out = folder.string() + "-grades";
  const fs::path reports_dir = fs::path(out) / "reports";
  fs::create_directories(reports_dir);

  // The submissions: the class folder's folders, and the students of a Canvas download's
  // files (unpacked to a folder each beside the reports), and which changed since their report.
  const std::string kit = kit_hash();
  std::vector<std::string> names, to_grade, to_grade_names;
  std::map<std::string, fs::path> folder_of;
  std::vector<std::string> linked;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (finder_skips(name)) continue;  // __MACOSX, hidden: passed over as the finder does
    // A folder, not a link to one: a student's "folder" that is a link could name another
    // student's folder or the kit's solutions; it is never graded as theirs, and is named.
    const auto type = entry.symlink_status().type();
    if (type == fs::file_type::symlink) linked.push_back(name);
    else if (type == fs::file_type::directory) folder_of[name] = entry.path();
  }
  std::sort(linked.begin(), linked.end());
  if (!linked.empty())
    std::cerr
        << "grade-all: not graded, symbolic links (a submission must be a folder of its own): "
        << list(linked) << "\n";
  // What each report says of how its files were taken (a Canvas resubmission, an archive).
  std::map<std::string, std::vector<std::string>> notes_of;
  std::set<std::string> canvas_late;  // graded from Canvas files it named _LATE_ (below)
  std::map<std::string, std::set<std::string>> late_uploads;  // of the Canvas students graded
  // Who each Canvas user id is, for a download name that reads two ways (canvas_download.hpp).
  CanvasNames known;
  for (const auto& s : roster)
    if (!s.canvas_id.empty()) {
      known[s.canvas_id].insert(canvas_file_name_of(s.name));
      if (!s.last_name.empty())
        known[s.canvas_id].insert(canvas_file_name_of(s.last_name + s.first_name));
    }
  const CanvasUnpacked canvas =
      unpack_canvas_download(dir, fs::path(out) / "canvas-download", known);
  if (!canvas.ambiguous.empty())
    std::cerr << "grade-all: Canvas download files that read as two students' files, which the "
              << "roster does not tell apart, graded for nobody: " << list(canvas.ambiguous)
              << "\n";
  for (const auto& student : canvas.students) {
    if (folder_of.count(student)) {
      // Said in the folder's notes too: the gradebook is where the instructor looks.
      notes_of[student].push_back("Canvas download files of " + student +
                                  " are in the class folder too; the folder " + student +
                                  " is graded, not those files");
      std::cerr << "grade-all: " << printable_name(student)
                << " is both a folder and a student of the Canvas download; "
                << "the folder is graded\n";
      continue;
    }
    folder_of[student] = fs::path(out) / "canvas-download" / student;
    if (const auto late = canvas.late.find(student); late != canvas.late.end())
      late_uploads[student] = late->second;
    if (const auto notes = canvas.notes.find(student); notes != canvas.notes.end())
      notes_of[student] = notes->second;
  }
  if (!canvas.students.empty())
    std::cerr << "grade-all: " << canvas.students.size()
              << " student(s) from Canvas download files\n";
  // Archives: a loose one in the class folder is a submission of its own ("kim.zip": kim); one
  // in a submission folder is graded with it. Each is unpacked into a folder of the grader's.
  std::map<std::string, std::vector<fs::path>> archives_of;
  std::vector<std::string> ignored;
  for (const auto& file : canvas.ignored) {
    const fs::path path = fs::path(dir) / file;
    // An archive of a kind not unpacked (.rar, .7z) is a submission too: its notes say why
    // nothing in it is graded, instead of a 0 with no reason.
    const bool archive = is_archive_name(file) || !other_archive_kind(file).empty();
    if (!archive || fs::symlink_status(path).type() != fs::file_type::regular) {
      ignored.push_back(file);
      continue;
    }
    const std::string student = archive_submission_name(file);
    if (folder_of.count(student)) {
      notes_of[student].push_back(file +
                                  ", beside this submission in the class folder, is not graded (" +
                                  "a loose archive of the same name)");
      std::cerr << "grade-all: " << printable_name(file) << " is beside a submission named "
                << printable_name(student) << "; not graded\n";
      continue;
    }
    archives_of[student].push_back(path);
  }
  for (const auto& [name, folder] : folder_of)
    if (auto inside = archives_in(folder); !inside.empty()) archives_of[name] = std::move(inside);
  // One shard of the class (--shard K/N): the others are left to other machines.
  if (batch.shard.count > 1) {
    std::set<std::string> all;
    for (const auto& [name, f] : folder_of) all.insert(name);
    for (const auto& [name, a] : archives_of) all.insert(name);
    std::size_t kept = 0;
    for (const auto& name : all) {
      if (in_shard(name, batch.shard)) {
        ++kept;
        continue;
      }
      folder_of.erase(name);
      archives_of.erase(name);
      notes_of.erase(name);
    }
    std::cerr << "grade-all: shard " << batch.shard.index << "/" << batch.shard.count << ": "
              << kept << " of " << all.size() << " submissions\n";
  }
  // Where each submission came from: Canvas's own download, a folder, or a loose archive (whose
  // name is the uploader's choice: the gradebook never joins it to a student by a Canvas id).
  std::map<std::string, std::string> origin_of;
  for (const auto& [name, f] : folder_of)
    origin_of[name] = f.parent_path() == fs::path(out) / "canvas-download" ? "canvas" : "folder";
  for (const auto& [name, a] : archives_of)
    if (!origin_of.count(name)) origin_of[name] = "archive";
  // How recent each submission is, for a student with several (before archives are unpacked).
  std::map<std::string, gradebook::Recency> recency;
  for (const auto& [name, folder] : folder_of) {
    const auto canvas_id = canvas.latest_submission.find(name);
    if (canvas_id != canvas.latest_submission.end() &&
        folder.parent_path() == fs::path(out) / "canvas-download")
      recency[name].canvas_submission = canvas_id->second;
    else recency[name].newest_file = newest_file(folder);
  }
  for (const auto& [name, archives] : archives_of)
    if (!folder_of.count(name))  // a loose archive: its own time
      for (const auto& archive : archives)
        recency[name].newest_file = std::max(recency[name].newest_file, newest_file(archive));
  const fs::path unpacked = fs::path(out) / "unpacked";
  fs::remove_all(unpacked);  // made anew, like the Canvas folders
  for (const auto& [name, archives] : archives_of) {
    const fs::path own = folder_of.count(name) ? folder_of.at(name) : fs::path();
    StagedSubmission staged =
        stage_archives(own, archives, unpacked / report_stem(name), assignment.exercise_names());
    folder_of[name] = staged.folder;
    auto& notes = notes_of[name];
    notes.insert(notes.end(), staged.notes.begin(), staged.notes.end());
  }
  for (const auto& [student, notes] : notes_of)
    for (const auto& note : notes)
      std::cerr << "grade-all: " << printable_name(student) << ": " << printable_name(note) << "\n";
  if (!ignored.empty())
    std::cerr << "grade-all: files of " << dir
              << " that are neither a folder nor a Canvas download file, "
              << "not graded: " << list(ignored) << "\n";
  for (const auto& [name, folder] : folder_of) names.push_back(name);  // sorted: a map's order
  // Reports of submissions whose folder is gone go too: the reports folder mirrors the class.
  std::set<std::string> stems;
  for (const auto& name : names) stems.insert(report_stem(name));
  const auto stale = gradebook::remove_stale_reports(reports_dir, stems);
  if (!stale.empty())
    std::cerr << "grade-all: removed the reports of " << stale.size()
              << " submission(s) no longer in " << dir << ": " << list(stale) << "\n";
  // Each student's files, found and read once through the finder's door: the stamps, the
  // grading and the similarity pass below all use these copies.
  std::map<std::string, FoundSources> found_of;
  for (const auto& name : names)
    for (const std::string& ex : assignment.exercise_names())
      found_of[name][ex] = find_exercise_source(folder_of.at(name), ex);
  // Late by Canvas's flag when a file graded is one Canvas named _LATE_, or comes from inside
  // one (an archive: "work.zip/..."): a late upload nothing is graded from changes nothing.
  for (const auto& [student, late_files] : late_uploads) {
    const auto found = found_of.find(student);
    if (found == found_of.end()) continue;
    for (const auto& [ex, source] : found->second)
      if (source.kind == FoundSource::Kind::Found &&
          late_files.count(source.shown.substr(0, source.shown.find('/'))))
        canvas_late.insert(student);
  }
  // What the finder decided without a word in the gradebook: the file that lost to the one
  // graded (a loose causal.cpp beside a zip holding another), and, for a missing file, files
  // named like it (rf_draft.cpp). And a name no report file can carry as it is.
  for (const auto& name : names) {
    auto& notes = notes_of[name];
    for (const std::string& ex : assignment.exercise_names()) {
      const FoundSource& found = found_of.at(name).at(ex);
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
    if (notes.empty()) notes_of.erase(name);
  }
  // Per-student seeds (assignment.hpp): each submission's student is its roster entry's id,
  // else the submission's own name.
  const bool per_student = assignment.seeds == Seeds::PerStudent && !checks.seed;
  std::map<std::string, std::string> student_of;
  // The student is the one the gradebook joins the submission to (gradebook::join): a loose
  // archive, or a folder beside a Canvas download of that id, only claims a Canvas id by its
  // name, and is its own student. The class's Canvas students are all known here, before any
  // --shard split, so every shard decides alike.
  auto only_claims_id = [&](const std::string& name, const gradebook::Student* owner) {
    if (!owner || gradebook::folder_matches(owner->folder, name)) return false;
    const auto from = origin_of.find(name);
    if (from != origin_of.end() && from->second != "folder") return from->second == "archive";
    return std::any_of(canvas.students.begin(), canvas.students.end(), [&](const std::string& c) {
      return c != name && gradebook::owner_of(roster, c) == owner;
    });
  };
  if (per_student)
    for (const auto& name : names) {
      const gradebook::Student* owner = gradebook::owner_of(roster, name);
      if (only_claims_id(name, owner)) owner = nullptr;
      student_of[name] = owner && !owner->id.empty() ? owner->id : name;
    }
  std::vector<std::string> stamps, students_to_grade;
  std::vector<const FoundSources*> found_to_grade;
  for (const auto& name : names) {
    const std::string student = per_student ? student_of.at(name) : std::string();
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
      to_grade.push_back(folder_of.at(name).string());
      to_grade_names.push_back(name);
      stamps.push_back(stamp);
      found_to_grade.push_back(&found_of.at(name));
      students_to_grade.push_back(student);
    }
  }
  std::cerr << "grade-all: " << names.size() << " submissions, " << to_grade.size() << " to grade, "
            << names.size() - to_grade.size() << " unchanged since their report\n";

  const Progress progress = stderr_progress(/*lines_in_logs=*/true);

  bool fault = false;
  if (!to_grade.empty()) {
    std::vector<Report> reports;
    if (!per_student) {
      reports = grade_many(to_grade, checks, progress, found_to_grade);
    } else {
      // Each student's checks have cases of their own, worked out by the oracle and held until
      // their checks ran: a few students at a time keeps that memory small.
      std::cerr << "grade-all: per-student seeds (from the course key and each student's id)\n";
      constexpr std::size_t kStudentsAtOnce = 8;
      for (std::size_t from = 0; from < to_grade.size(); from += kStudentsAtOnce) {
        const std::size_t to = std::min(to_grade.size(), from + kStudentsAtOnce);
        auto part = grade_many({to_grade.begin() + from, to_grade.begin() + to}, checks, progress,
                               {found_to_grade.begin() + from, found_to_grade.begin() + to},
                               {students_to_grade.begin() + from, students_to_grade.begin() + to});
        for (auto& r : part) reports.push_back(std::move(r));
      }
    }
    clear_progress_line();
    for (std::size_t i = 0; i < reports.size(); ++i) {
      reports[i].seconds = own_seconds(reports[i]);
      nlohmann::json j = to_native_json(reports[i]);
      j["stamp"] = stamps[i];
      fault |= reports[i].grader_fault;
      const std::string& name = to_grade_names[i];
      // How its files were taken, in the report (a notice) and, for the gradebook, on its own.
      if (const auto notes = notes_of.find(name); notes != notes_of.end()) {
        j["intake"] = notes->second;
        for (const auto& note : notes->second) j["notices"].push_back(note);
      }
      std::ofstream file(reports_dir / (report_stem(name) + ".json"));
      file << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      if (!file) throw std::runtime_error("cannot write the report of " + printable_name(name));
    }
  }

  // The gradebook, from every report on disk (fresh or kept), joined with the roster. Each
  // report is given what the gradebook needs of its folder (grade_shards.hpp), so that
  // merge-grades, which has the reports only, writes the same files.
  const std::vector<std::string> exercises = assignment.exercise_names();
  std::map<std::string, nlohmann::json> reports;
  bool written = true;
  for (const auto& name : names) {
    const fs::path file = reports_dir / (report_stem(name) + ".json");
    nlohmann::json j = nlohmann::json::parse(read_text(file));
    j["class"] = class_facts(found_of.at(name), recency[name], exercises);
    // Its own name (the file's may be shortened) and where it came from, for merge-grades and
    // the gradebook's join.
    j["class"]["submission"] = name;
    j["class"]["origin"] = origin_of.count(name) ? origin_of.at(name) : "folder";
    // How its files were taken, as of this run: a report kept from an earlier run (its files
    // unchanged) may have a new neighbour since (a loose zip of its name, say).
    if (const auto notes = notes_of.find(name); notes != notes_of.end())
      j["intake"] = notes->second;
    else j.erase("intake");
    // Canvas named its file _LATE_: the gradebook applies the late policy (late_policy.hpp).
    if (canvas_late.count(name)) j["canvas_late"] = true;
    else j.erase("canvas_late");
    written &=
        write_text(file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    reports[name] = std::move(j);
  }
  ClassOutputs to;
  to.out = out;
  to.roster = roster;
  to.has_roster = !roster_path.empty();
  to.assignment = &assignment;
  to.bom = batch.bom;
  to.lms_column = batch.lms_column;
  to.missing_as_zero = batch.missing_as_zero;
  written &= write_class_outputs(to, reports);
  return (fault || !written) ? 2 : 0;
}

}  // namespace grader
