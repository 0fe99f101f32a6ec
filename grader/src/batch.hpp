// Batch grading (`./kit grade-all DIR`): every sub-folder of DIR is a submission. Writes one
// native JSON report per submission and a gradebook CSV; a rerun skips the submissions whose
// files, and the kit, have not changed since their report was written.
#pragma once

#include <string>

namespace grader {

// argv without the program name and without "--batch". Returns the exit status.
int run_batch(int argc, char** argv);

}  // namespace grader
