// The one file finder: which file of an upload is a submission's <exercise>.cpp, and the one
// door through which the grader reads a submission's files. Used by `./kit grade`,
// `./kit grade-all` and the Gradescope bundle (which grades the upload folder directly), so
// that every layout grades the same everywhere.
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
// __MACOSX folders (macOS zip metadata), symbolic links, and whatever lies behind one (a link
// in a submission could point at the kit's solutions or at another student's folder: a
// folder link "causal -> ../../solutions/causal" is refused like a file link), folders deeper
// than kMaxDepth, and anything past kMaxEntries entries.
// When rule 1 or 2 decides, the files rule 3 would also have seen are named as `ignored`,
// so that nothing is passed over silently; so are the links that looked like the exercise's
// file or folder, and a missing file's message names the links that were not followed.
//
// The file taken is read at once, through read_submission_file (below): every component of
// its path opened without following a link, at most kMaxSourceBytes. Its bytes (`text`) are
// the copy that everything after reads: the builder stages them, grade-all's rerun stamp and
// its similarity pass hash and compare them. No one reads the student's folder again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace grader {

// The largest source file the grader reads (1 MiB; the kit's longest solution is a few KiB).
// A larger one is refused before a byte of it is read: the exercise's build error.
inline constexpr std::uint64_t kMaxSourceBytes = 1ull << 20;

struct FoundSource {
  enum class Kind { Found, Missing, Ambiguous };
  Kind kind = Kind::Missing;
  // The file taken, when Found (for messages: it is never read again), and that file relative
  // to the submission ("my work/causal (1).cpp").
  std::filesystem::path path;
  std::string shown;
  // Ambiguous: the competing files, relative, sorted.
  std::vector<std::string> candidates;
  // Found by rule 1 or 2: other files that looked like it; and links that did, as
  // "causal (a symbolic link, not followed)".
  std::vector<std::string> ignored;
  // The submission's symbolic links met on the walk, relative, sorted (at most 20).
  std::vector<std::string> links;
  // Found and read: the file's bytes, the copy everything after grades.
  std::string text;
  // Found but not read (over kMaxSourceBytes, a link that appeared on the way): why.
  std::string refused;
  // Missing: source files whose names look like the exercise's without being one of rule 3's
  // ("rf_draft.cpp" for random_features.cpp, "casual.cpp" for causal.cpp), relative, sorted, at
  // most kMaxLookAlikes. Never graded: named so that a person can tell the student.
  std::vector<std::string> look_alikes;
  // "found", "missing", "ambiguous" (the report's source_status).
  const char* kind_name() const;
  // For the report: why nothing is graded (empty when Found and read).
  std::string problem(const std::string& exercise) const;
};

// Whether the finder passes over a file or folder of this name (hidden, __MACOSX); grade-all
// skips the same names at the top of the class folder.
bool finder_skips(const std::string& name);

// Whether a file name (no folder) is one rule 3 accepts for `exercise`.
bool names_exercise_file(const std::string& filename, const std::string& exercise);

// Whether a C++ source's name (no folder) looks like `exercise`'s file without being one rule 3
// accepts: the exercise's name inside it ("my_causal_final.cpp"), its initials as a word of it
// ("rf_draft.cpp" for random_features), or one letter off, swapped or missing ("casual.cpp",
// "flop.cpp").
bool looks_like_exercise_file(const std::string& filename, const std::string& exercise);
inline constexpr std::size_t kMaxLookAlikes = 5;

FoundSource find_exercise_source(const std::filesystem::path& submission,
                                 const std::string& exercise);

// The door: a submission's file, read without trusting anything the student made.
// `relative` is a path below `root` ("causal/causal.cpp"). Each of its folders is opened with
// O_NOFOLLOW | O_DIRECTORY from the one before (root itself is taken as the user named it), so
// a symbolic link at any depth is refused, not followed; "..", "." and absolute paths are
// refused too (nothing outside root is reached). The file must be a plain file (a FIFO or a
// device is refused without blocking) of at most `max_bytes`, which fstat on the opened
// descriptor decides before anything is read; then at most that many bytes are read.
// (openat2's RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH would do the walk in one call on Linux 5.6
// and later; the walk by hand works on every kernel and says which component was the link.)
struct SubmissionFile {
  enum class Status { Read, Absent, Refused };
  Status status = Status::Absent;
  bool link = false;    // refused because a component is a symbolic link
  std::string bytes;    // Read: the file's content
  std::string problem;  // not Read: for the student, naming the path ("causal/causal.cpp ...")
  bool ok() const { return status == Status::Read; }
};
SubmissionFile read_submission_file(const std::filesystem::path& root, const std::string& relative,
                                    std::uint64_t max_bytes = kMaxSourceBytes);

// The same door, for a file to be copied into a staging folder rather than held in memory (an
// upload's archive, say): copies root/relative to `destination` (created, or replaced; never
// through a link at destination's last component), at most `max_bytes`. Returns "" when
// copied, else the problem, worded as read_submission_file words it.
std::string copy_submission_file(const std::filesystem::path& root, const std::string& relative,
                                 const std::filesystem::path& destination, std::uint64_t max_bytes);

// "1 MiB", "2.00 GiB": a size as a refusal message states it.
std::string size_text(std::uint64_t bytes);

}  // namespace grader
