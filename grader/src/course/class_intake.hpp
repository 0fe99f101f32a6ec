// What grade-all takes from a class folder before anything is graded: each submission's folder,
// where it came from (a folder of the class, Canvas's download, a loose archive) and what a person
// should know of how its files were taken. Every name in it is the uploader's choice: hostile
// input, said on the terminal through printable_name only.
#pragma once

#include "../engine/assignment.hpp"
#include "../engine/options.hpp"
#include "gradebook.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace grader {

struct ClassIntake {
  // Submission name -> the folder graded as it (a class folder's own folder, a Canvas student's
  // staged files, an archive's unpacked files); sorted by name, as a map is.
  std::map<std::string, std::filesystem::path> folder_of;
  // How its files were taken (a Canvas resubmission, an archive, a neighbour not graded).
  std::map<std::string, std::vector<std::string>> notes_of;
  // "canvas", "folder" or "archive": a loose archive's name is the uploader's choice, so the
  // gradebook never joins it to a student by a Canvas id.
  std::map<std::string, std::string> origin_of;
  // How recent each submission is, for a student with several.
  std::map<std::string, gradebook::Recency> recency;
  // Of the Canvas students kept, the files Canvas named _LATE_.
  std::map<std::string, std::set<std::string>> late_uploads;
  // Every student of the Canvas download, before any --shard split (so every shard decides a
  // submission's student alike).
  std::vector<std::string> canvas_students;
};

// Reads the class folder `dir`: its folders (not links), the Canvas download files in it
// (unpacked under out/canvas-download), and loose archives (unpacked under out/unpacked, with
// those inside a folder); keeps only `shard`'s part of the class. Says on stderr what it passed
// over and why.
ClassIntake take_class(const std::filesystem::path& dir, const std::filesystem::path& out,
                       const std::vector<gradebook::Student>& roster, const Shard& shard,
                       const Assignment& assignment);

// "a, b, c", each name made printable: names a student chose, on the terminal.
std::string printable_list(const std::vector<std::string>& names);

}  // namespace grader
