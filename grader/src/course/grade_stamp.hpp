// A submission's grade stamp: grade-all regrades a submission only when its stamp changed.
#pragma once

#include "../engine/assignment.hpp"
#include "../engine/engine.hpp"

#include <string>

namespace grader {

// What decides a submission's grade: the files the finder takes (and where it found them), the
// kit's programs, the options, the assignment (its name and every byte of its file). `found_files`
// is the finder's answer for each exercise, with the copy it read (never the folder again).
std::string stamp_of(const FoundSources& found_files, const std::string& kit_hash, const Options& o,
                     const Assignment& assignment, const std::string& student);

// The kit's part of every stamp: this program, the exercises' harnesses and headers, and the
// course's key (made here on its first use, before any grading).
std::string kit_hash();

}  // namespace grader
