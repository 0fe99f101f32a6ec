// A submission's grade stamp: see grade_stamp.hpp.
#include "grade_stamp.hpp"

#include "../engine/course_seeds.hpp"
#include "../util/sha256.hpp"
#include "grader_config.hpp"

#include <filesystem>

namespace grader {

namespace fs = std::filesystem;

// What decides a submission's grade: the files the finder takes (and where it found them), the
// kit's programs, the options, the assignment (its name and every byte of its file). `found_files`
// is the finder's answer for each exercise, with the copy it read (never the folder again).
std::string stamp_of(const FoundSources& found_files, const std::string& kit_hash, const Options& o,
                     const Assignment& assignment, const std::string& student) {
  Sha256 h;
  h.add(kit_hash);
  h.add(o.seed ? std::to_string(*o.seed) : "own seeds");
  if (!student.empty()) h.add("per-student seeds of " + student);  // a new roster id: new seeds
  h.add(o.visible_only ? "visible" : "all");
  h.add("assignment " + assignment.name + "\n" + assignment.text);
  for (const std::string& ex : assignment.exercise_names()) {
    h.add(ex);
    const FoundSource& found = found_files.at(ex);
    h.add(std::string(found.kind_name()) + "\n" + found.shown);
    for (const auto& other :
         found.kind == FoundSource::Kind::Ambiguous ? found.candidates : found.ignored)
      h.add("\n" + other);
    for (const auto& link : found.links) h.add("\nlink " + link);
    for (const auto& like : found.look_alikes) h.add("\nlooks like " + like);  // in the notes
    if (found.kind == FoundSource::Kind::Found)
      h.add(found.refused.empty() ? found.text : "refused " + found.refused);
  }
  return h.hex();
}

std::string kit_hash() {
  Sha256 h;
  add_file(h, "/proc/self/exe");  // the judge and every check are in this program
  // The course's seeds: the key is made here on its first use, before any grading, so that the
  // stamps written after this run name the key it graded with (else the next run regrades all).
  h.add(course_key(LINATTN_SOURCE_DIR));
  for (const std::string ex : {LINATTN_EXERCISE_LIST})
    add_file(h, fs::path(LINATTN_HARNESS_DIR) / ("liblinattn_harness_" + ex + ".a"));
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(LINATTN_SOURCE_DIR) / "exercises"))
    if (entry.path().extension() == ".hpp") {
      h.add(entry.path().string());
      add_file(h, entry.path());
    }
  return h.hex();
}

}  // namespace grader
