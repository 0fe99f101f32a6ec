#include "canvas_download.hpp"

#include "../util/find_files.hpp"
#include "../util/utf8.hpp"
#include "archive_unpack.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <system_error>

namespace grader {

namespace fs = std::filesystem;

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Canvas writes the student's name with its punctuation and spaces removed and lower-cased:
// ASCII lower-case letters and digits, and any letter of another script as it is in UTF-8
// ("garcíajosé", "李明"). A byte of a control character, a '.' or a name that is not valid
// UTF-8 is no name Canvas wrote.
bool canvas_student_word(const std::string& s) {
  if (s.empty() || valid_utf8(s) != s) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return c >= 0x80 || (std::islower(c) || std::isdigit(c));
  });
}

// Canvas versions differ in the flag's case ("_LATE_", "_late_"; some lower-case the whole
// prefix), so any case is the flag.
bool late_flag(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s == "late";
}

}  // namespace

std::optional<CanvasFileName> parse_canvas_name(const std::string& filename) {
  // Split off the first four '_'-separated fields; the rest is the uploaded name, which may
  // itself hold '_' ("my_causal.cpp").
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t at = filename.find('_', from);
    if (at == std::string::npos) break;
    parts.push_back(filename.substr(from, at - from));
    from = at + 1;
  }
  CanvasFileName name;
  std::size_t ids = 1;  // where the user id is among the fields
  if (parts.size() >= 2 && late_flag(parts[1])) {
    name.late = true;
    ids = 2;
  }
  // student, [LATE,] user id, submission id, then the uploaded name.
  if (parts.size() < ids + 2 || !canvas_student_word(parts[0]) || !all_digits(parts[ids]) ||
      !all_digits(parts[ids + 1]))
    return std::nullopt;
  std::size_t rest = 0;
  for (std::size_t i = 0; i < ids + 2; ++i) rest += parts[i].size() + 1;
  name.uploaded = filename.substr(rest);
  if (name.uploaded.empty() || name.uploaded[0] == '.') return std::nullopt;  // nothing, or hidden
  name.student = parts[0] + "_" + parts[ids];
  // Without leading zeros: every comparison of ids (here, in grade-all and the gradebook) takes a
  // longer string of digits for a larger number, which "0199" against "200" would make untrue.
  const std::string& id = parts[ids + 1];
  name.submission_id = id.substr(std::min(id.find_first_not_of('0'), id.size() - 1));
  return name;
}

std::string canvas_copy_of(const std::string& uploaded) {
  const std::size_t dot = uploaded.find('.');
  const std::string stem = uploaded.substr(0, dot),
                    ext = dot == std::string::npos ? "" : uploaded.substr(dot);
  const std::size_t dash = stem.rfind('-');
  if (dash == std::string::npos || dash == 0 || !all_digits(stem.substr(dash + 1))) return uploaded;
  return stem.substr(0, dash) + ext;
}

CanvasUnpacked unpack_canvas_download(const fs::path& class_dir, const fs::path& staging) {
  // student -> the file a "-N" copy stands for -> every upload of it
  std::map<std::string, std::map<std::string, std::vector<std::pair<fs::path, CanvasFileName>>>>
      by_student;
  CanvasUnpacked out;
  for (const auto& entry : fs::directory_iterator(class_dir)) {
    // A folder is a submission of its own, a link is named by grade-all (it could point
    // anywhere); a pipe, a socket or a device is named with the files that are not graded.
    const auto type = entry.symlink_status().type();
    if (type == fs::file_type::directory || type == fs::file_type::symlink) continue;
    const std::string filename = entry.path().filename().string();
    if (filename[0] == '.') continue;
    if (type != fs::file_type::regular) {
      out.ignored.push_back(filename);
      continue;
    }
    const auto name = parse_canvas_name(filename);
    if (!name) {
      out.ignored.push_back(filename);
      continue;
    }
    by_student[name->student][canvas_copy_of(name->uploaded)].emplace_back(entry.path(), *name);
  }
  fs::remove_all(staging);  // made anew: a student or a file gone from the download goes here too
  // Ids as numbers: a shorter string of digits is a smaller number.
  auto later = [](const auto& a, const auto& b) {
    const std::string &x = a.second.submission_id, &y = b.second.submission_id;
    return x.size() != y.size() ? x.size() > y.size() : x > y;
  };
  for (auto& [student, uploads] : by_student) {
    const fs::path folder = staging / student;
    fs::create_directories(folder);
    for (auto& [file, copies] : uploads) {
      std::stable_sort(copies.begin(), copies.end(), later);  // the latest first
      const std::string& latest = copies.front().second.submission_id;
      std::string& newest = out.latest_submission[student];
      if (newest.size() < latest.size() || (newest.size() == latest.size() && newest < latest))
        newest = latest;
      std::vector<std::string> older;
      for (const auto& [from, name] : copies) {
        if (name.submission_id == latest) {
          // Copies under one id: not Canvas's doing, so both go and the file finder decides.
          // Through the finder's door, at most a source's size (an archive: what it may unpack
          // to), so that a 2 GiB sparse upload is never written out in full.
          const std::uint64_t cap =
              is_archive_name(name.uploaded) ? ArchiveLimits{}.max_bytes : kMaxSourceBytes;
          const std::string problem = copy_submission_file(class_dir, from.filename().string(),
                                                           folder / name.uploaded, cap);
          if (!problem.empty()) out.notes[student].push_back(problem + "; it was not graded");
          if (problem.empty() && name.late) out.late.insert(student);
        } else {
          older.push_back(name.uploaded + " (submission " + name.submission_id + ")");
        }
      }
      if (older.empty()) continue;
      std::string note = copies.front().second.uploaded + " (Canvas submission " + latest +
                         ") is graded; older uploads of " + file + " left out:";
      for (std::size_t i = 0; i < older.size(); ++i) note += (i ? ", " : " ") + older[i];
      out.notes[student].push_back(note);
    }
    out.students.push_back(student);
  }
  std::sort(out.ignored.begin(), out.ignored.end());
  return out;
}

}  // namespace grader
