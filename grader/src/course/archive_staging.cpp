// Uploaded archives in grade-all: see archive_staging.hpp.
#include "archive_staging.hpp"

#include "../util/find_files.hpp"
#include "archive_unpack.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

namespace grader {

namespace fs = std::filesystem;

std::string archive_submission_name(const std::string& filename) {
  std::string lower = filename;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  for (const std::string tail : {".tar.gz", ".tgz", ".zip"})
    if (lower.size() > tail.size() &&
        lower.compare(lower.size() - tail.size(), tail.size(), tail) == 0)
      return filename.substr(0, filename.size() - tail.size());
  // An archive not unpacked ("carl.rar") is carl's too: its notes say why nothing is graded.
  if (const std::string kind = other_archive_kind(filename); !kind.empty())
    return filename.substr(0, filename.size() - kind.size());
  return filename;
}

std::vector<fs::path> archives_in(const fs::path& submission) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(submission, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code sec;
    if (entry.symlink_status(sec).type() == fs::file_type::regular && !finder_skips(name) &&
        (is_archive_name(name) || !other_archive_kind(name).empty()))
      found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

StagedSubmission stage_archives(const fs::path& submission, const std::vector<fs::path>& archives,
                                const fs::path& staging, const std::vector<std::string>& exercises,
                                const ArchiveLimits& limits) {
  StagedSubmission out;
  std::error_code ec;
  fs::remove_all(staging, ec);
  fs::create_directories(staging);
  // The student's own files first, as the finder sees them, at the same relative paths.
  if (fs::is_directory(submission))
    for (const auto& ex : exercises) {
      const FoundSource found = find_exercise_source(submission, ex);
      std::vector<std::string> files;
      if (found.kind == FoundSource::Kind::Found) files.push_back(found.shown);
      if (found.kind == FoundSource::Kind::Ambiguous) files = found.candidates;
      for (const auto& rel : files) {
        const fs::path target = staging / rel;
        fs::create_directories(target.parent_path(), ec);
        // Through the finder's door: no link on the way, at most a source's size.
        const std::string problem = copy_submission_file(submission, rel, target, kMaxSourceBytes);
        if (!problem.empty())
          out.notes.push_back("could not copy " + rel +
                              " to grade it beside the archives: " + problem);
      }
    }
  // One budget for all of the submission's archives: each within the limits alone, a hundred
  // small zips of 64 MiB of zeros each would still write 6.4 GB.
  ArchiveLimits left = limits;
  for (const auto& archive : archives) {
    const std::string name = archive.filename().string();
    if (const std::string kind = other_archive_kind(name); !kind.empty()) {
      out.notes.push_back(name +
                          " was not unpacked: the grader unpacks .zip, .tar.gz and .tgz, not " +
                          kind + "; nothing in it is graded (ask for a .zip or the files)");
      continue;
    }
    const UnpackResult r = unpack_archive(archive, staging / name, left);
    const std::string files = std::to_string(r.files) + (r.files == 1 ? " file" : " files");
    if (r.ok) {
      left.max_bytes -= r.bytes;
      left.max_entries -= r.entries;
    }
    const bool shared =
        left.max_bytes != limits.max_bytes || left.max_entries != limits.max_entries;
    out.notes.push_back(
        r.ok
            ? name + " was unpacked (" + files + "); its files are graded as " + name + "/..."
            : r.problem +
                  (shared ? " (the limits hold for all of a submission's archives together)" : ""));
    for (const auto& skipped : r.skipped) out.notes.push_back(name + ": " + skipped);
  }
  out.folder = staging;
  return out;
}

}  // namespace grader
