#include "class_intake.hpp"

#include "../util/find_files.hpp"
#include "../util/printable.hpp"
#include "archive_staging.hpp"
#include "archive_unpack.hpp"
#include "canvas_download.hpp"
#include "grade_shards.hpp"

#include <algorithm>
#include <iostream>

#include <sys/stat.h>

namespace grader {

namespace {

namespace fs = std::filesystem;

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

// The class folder's own folders. A folder, not a link to one: a student's "folder" that is a
// link could name another student's folder or the kit's solutions; it is never graded as
// theirs, and is named.
void take_folders(const fs::path& dir, ClassIntake& in) {
  std::vector<std::string> linked;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (finder_skips(name)) continue;  // __MACOSX, hidden: passed over as the finder does
    const auto type = entry.symlink_status().type();
    if (type == fs::file_type::symlink) linked.push_back(name);
    else if (type == fs::file_type::directory) in.folder_of[name] = entry.path();
  }
  std::sort(linked.begin(), linked.end());
  if (!linked.empty())
    std::cerr
        << "grade-all: not graded, symbolic links (a submission must be a folder of its own): "
        << printable_list(linked) << "\n";
}

// The students of a Canvas download's files, each unpacked to a folder of its own under
// out/canvas-download. Returns what Canvas's unpacking made of the class folder's files.
CanvasUnpacked take_canvas_download(const fs::path& dir, const fs::path& out,
                                    const std::vector<gradebook::Student>& roster,
                                    ClassIntake& in) {
  // Who each Canvas user id is, for a download name that reads two ways (canvas_download.hpp).
  CanvasNames known;
  for (const auto& s : roster)
    if (!s.canvas_id.empty()) {
      known[s.canvas_id].insert(canvas_file_name_of(s.name));
      if (!s.last_name.empty())
        known[s.canvas_id].insert(canvas_file_name_of(s.last_name + s.first_name));
    }
  CanvasUnpacked canvas = unpack_canvas_download(dir, out / "canvas-download", known);
  if (!canvas.ambiguous.empty())
    std::cerr << "grade-all: Canvas download files that read as two students' files, which the "
              << "roster does not tell apart, graded for nobody: "
              << printable_list(canvas.ambiguous) << "\n";
  for (const auto& student : canvas.students) {
    if (in.folder_of.count(student)) {
      // A note of the folder's, printed with the others once the shard is chosen (a shard
      // speaks of its own submissions only) and in the gradebook, where the instructor looks.
      in.notes_of[student].push_back("Canvas download files of " + student +
                                     " are in the class folder too; the folder " + student +
                                     " is graded, not those files");
      continue;
    }
    in.folder_of[student] = out / "canvas-download" / student;
    if (const auto late = canvas.late.find(student); late != canvas.late.end())
      in.late_uploads[student] = late->second;
    if (const auto notes = canvas.notes.find(student); notes != canvas.notes.end())
      in.notes_of[student] = notes->second;
  }
  if (!canvas.students.empty())
    std::cerr << "grade-all: " << canvas.students.size()
              << " student(s) from Canvas download files\n";
  in.canvas_students = canvas.students;
  return canvas;
}

// Archives: a loose one in the class folder is a submission of its own ("kim.zip": kim); one
// in a submission folder is graded with it. `files` are the class folder's plain files that
// are not Canvas's; those that are no archive either go to `ignored`.
std::map<std::string, std::vector<fs::path>> find_archives(const fs::path& dir,
                                                           const std::vector<std::string>& files,
                                                           ClassIntake& in,
                                                           std::vector<std::string>& ignored) {
  std::map<std::string, std::vector<fs::path>> archives_of;
  for (const auto& file : files) {
    const fs::path path = dir / file;
    // An archive of a kind not unpacked (.rar, .7z) is a submission too: its notes say why
    // nothing in it is graded, instead of a 0 with no reason.
    const bool archive = is_archive_name(file) || !other_archive_kind(file).empty();
    if (!archive || fs::symlink_status(path).type() != fs::file_type::regular) {
      ignored.push_back(file);
      continue;
    }
    const std::string student = archive_submission_name(file);
    if (in.folder_of.count(student)) {
      in.notes_of[student].push_back(  // printed once the shard is chosen, as above
          file + ", beside this submission in the class folder, is not graded (" +
          "a loose archive of the same name)");
      continue;
    }
    archives_of[student].push_back(path);
  }
  for (const auto& [name, folder] : in.folder_of)
    if (auto inside = archives_in(folder); !inside.empty()) archives_of[name] = std::move(inside);
  return archives_of;
}

// One shard of the class (--shard K/N): the others are left to other machines.
void keep_shard(const Shard& shard, ClassIntake& in,
                std::map<std::string, std::vector<fs::path>>& archives_of) {
  if (shard.count <= 1) return;
  std::set<std::string> all;
  for (const auto& [name, f] : in.folder_of) all.insert(name);
  for (const auto& [name, a] : archives_of) all.insert(name);
  std::size_t kept = 0;
  for (const auto& name : all) {
    if (in_shard(name, shard)) {
      ++kept;
      continue;
    }
    in.folder_of.erase(name);
    archives_of.erase(name);
    in.notes_of.erase(name);
  }
  std::cerr << "grade-all: shard " << shard.index << "/" << shard.count << ": " << kept << " of "
            << all.size() << " submissions\n";
}

// Where each submission came from, and how recent it is (before archives are unpacked).
void date_submissions(const fs::path& out, const CanvasUnpacked& canvas,
                      const std::map<std::string, std::vector<fs::path>>& archives_of,
                      ClassIntake& in) {
  const fs::path canvas_folder = out / "canvas-download";
  for (const auto& [name, f] : in.folder_of)
    in.origin_of[name] = f.parent_path() == canvas_folder ? "canvas" : "folder";
  for (const auto& [name, a] : archives_of)
    if (!in.origin_of.count(name)) in.origin_of[name] = "archive";
  for (const auto& [name, folder] : in.folder_of) {
    const auto canvas_id = canvas.latest_submission.find(name);
    if (canvas_id != canvas.latest_submission.end() && folder.parent_path() == canvas_folder)
      in.recency[name].canvas_submission = canvas_id->second;
    else in.recency[name].newest_file = newest_file(folder);
  }
  for (const auto& [name, archives] : archives_of)
    if (!in.folder_of.count(name))  // a loose archive: its own time
      for (const auto& archive : archives)
        in.recency[name].newest_file = std::max(in.recency[name].newest_file, newest_file(archive));
}

// Each archive unpacked into a folder of the grader's (with its submission folder's files, if
// any), which is then graded as the submission.
void unpack_archives(const fs::path& out, const Assignment& assignment,
                     const std::map<std::string, std::vector<fs::path>>& archives_of,
                     ClassIntake& in) {
  const fs::path unpacked = out / "unpacked";
  fs::remove_all(unpacked);  // made anew, like the Canvas folders
  for (const auto& [name, archives] : archives_of) {
    const fs::path own = in.folder_of.count(name) ? in.folder_of.at(name) : fs::path();
    StagedSubmission staged =
        stage_archives(own, archives, unpacked / report_stem(name), assignment.exercise_names());
    in.folder_of[name] = staged.folder;
    auto& notes = in.notes_of[name];
    notes.insert(notes.end(), staged.notes.begin(), staged.notes.end());
  }
}

}  // namespace

std::string printable_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& s : names) out += (out.empty() ? "" : ", ") + printable_name(s);
  return out;
}

ClassIntake take_class(const fs::path& dir, const fs::path& out,
                       const std::vector<gradebook::Student>& roster, const Shard& shard,
                       const Assignment& assignment) {
  ClassIntake in;
  take_folders(dir, in);
  const CanvasUnpacked canvas = take_canvas_download(dir, out, roster, in);
  std::vector<std::string> ignored;
  auto archives_of = find_archives(dir, canvas.ignored, in, ignored);
  keep_shard(shard, in, archives_of);
  date_submissions(out, canvas, archives_of, in);
  unpack_archives(out, assignment, archives_of, in);
  for (const auto& [student, notes] : in.notes_of)
    for (const auto& note : notes)
      std::cerr << "grade-all: " << printable_name(student) << ": " << printable_name(note) << "\n";
  if (!ignored.empty())
    std::cerr << "grade-all: files of " << dir.string()
              << " that are neither a folder nor a Canvas download file, "
              << "not graded: " << printable_list(ignored) << "\n";
  return in;
}

}  // namespace grader
