// Batch grading (`./kit grade-all DIR`): every sub-folder of DIR is a submission. Writes one
// native JSON report per submission and a gradebook CSV; a rerun skips the submissions whose
// files, and the kit, have not changed since their report was written.
#pragma once

#include "../engine/options.hpp"

namespace grader {

// Grades batch.dir with `checks` (strict and course already set). Returns the exit status.
int run_batch(const BatchOptions& batch, const Options& checks);

}  // namespace grader
