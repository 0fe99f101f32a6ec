// The one file finder: which file of an upload is a submission's <exercise>.cpp. Used by
// `./kit grade`, `./kit grade-all` and the Gradescope bundle (which grades the upload folder
// directly), so that every layout grades the same everywhere.
//
// Rules, in order (the first that gives an answer decides):
//   1. <submission>/<ex>/<ex>.cpp, the kit's own layout;
//   2. <submission>/<ex>.cpp, a flat upload;
//   3. anywhere below the submission, every file whose name is <ex>.cpp, or a name an upload
//      or a download makes of it: any case (Causal.cpp), a copy number ("causal (1).cpp",
//      "causal(2).cpp", "causal-1.cpp", "causal_1.cpp"). Exactly one such file: it is taken.
//      Two or more: nothing is taken, and the exercise reports which files compete
//      (ambiguous: the student keeps one, or puts it at <ex>/<ex>.cpp).
// Never looked at: hidden files and folders (a name starting with "."; "._causal.cpp" too),
// __MACOSX folders (macOS zip metadata), symbolic links (an upload's link could point into
// the kit), folders deeper than kMaxDepth, and anything past kMaxEntries entries.
// When rule 1 or 2 decides, the files rule 3 would also have seen are named as `ignored`,
// so that nothing is passed over silently.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace grader {

struct FoundSource {
  enum class Kind { Found, Missing, Ambiguous };
  Kind kind = Kind::Missing;
  std::filesystem::path path;           // the file to read, when Found
  std::string shown;                    // that file relative to the submission ("my work/causal (1).cpp")
  std::vector<std::string> candidates;  // Ambiguous: the competing files, relative, sorted
  std::vector<std::string> ignored;     // Found by rule 1 or 2: other files that looked like it
  const char* kind_name() const;        // "found", "missing", "ambiguous" (the report's source_status)
  // For the report: why nothing was taken (empty when Found).
  std::string problem(const std::string& exercise) const;
};

// Whether the finder passes over a file or folder of this name (hidden, __MACOSX); grade-all
// skips the same names at the top of the class folder.
bool finder_skips(const std::string& name);

// Whether a file name (no folder) is one rule 3 accepts for `exercise`.
bool names_exercise_file(const std::string& filename, const std::string& exercise);

FoundSource find_exercise_source(const std::filesystem::path& submission, const std::string& exercise);

}  // namespace grader
