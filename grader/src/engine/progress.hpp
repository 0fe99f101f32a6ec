// Progress on stderr while grading runs: "building 3/5", "checking 40/63". On a terminal one
// line is rewritten in place; in a log (CI, batch jobs) a line per tenth when asked for.
#pragma once

#include "engine.hpp"

namespace grader {

// lines_in_logs: print lines when stderr is not a terminal (batch grading) or stay silent
// (a single grade, whose report follows at once).
Progress stderr_progress(bool lines_in_logs);

// Removes a progress line left on the terminal, so the report starts on a clean line.
void clear_progress_line();

}  // namespace grader
