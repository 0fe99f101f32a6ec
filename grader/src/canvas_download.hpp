// Canvas's "Download Submissions": one flat folder (the unzipped submissions.zip) in which every
// file a student uploaded is renamed <student>_<user id>_<submission id>_<file as uploaded>,
// with _LATE_ after <student> for a late one ("lovelaceada_LATE_1001_52345_causal.cpp"); Canvas
// adds "-1", "-2" to the uploaded name when a student uploads the same name twice. grade-all
// turns such files into one submission folder per student, so that a Canvas class grades as it
// downloads, without unpacking by hand.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace grader {

struct CanvasFileName {
  std::string student;   // "lovelaceada_1001": Canvas's name and user id, one per student
  std::string uploaded;  // "causal.cpp": the name the student gave the file
  std::string submission_id;  // Canvas's, larger for a later submission
  bool late = false;
};

// The parts of a Canvas download name, or nothing when the name is not one.
std::optional<CanvasFileName> parse_canvas_name(const std::string& filename);

struct CanvasUnpacked {
  std::vector<std::string> students;  // the folders made under the staging folder, sorted
  std::vector<std::string> ignored;   // plain files of the class folder that are not Canvas's
};

// Copies every Canvas download file directly inside `class_dir` to
// staging/<student>/<uploaded>. The staging folder is made anew each time, so a student or a
// file gone from the download is gone from it too. Where two files of a student have
// the same uploaded name, the later submission's is kept. Folders in `class_dir` are left
// alone: they are submissions of their own.
CanvasUnpacked unpack_canvas_download(const std::filesystem::path& class_dir,
                                      const std::filesystem::path& staging);

}  // namespace grader
