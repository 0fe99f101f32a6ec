// When the student's code aborts (an Eigen assertion, mostly: a shape mismatch), the runner
// prints where: one line on stderr, after the assertion's own message,
//   [linattn-runner abort frames: 13c7 15c1 1232]
// the stack's return addresses inside the runner program, each made an address of the program
// file (less its load address) and one byte back into the call that made it. The judge turns
// them into lines of the student's file with addr2line (grader/src/engine/abort_site.hpp);
// the program is compiled with line tables (-g1) for that. What the student's code prints
// can imitate the line: the judge takes the last one, and only a line of the student's own
// file is ever named from it.
#pragma once

namespace runner {

// Installs the handler; call once, before any student code runs. The handler prints the line
// and then lets the abort end the process as it would have.
void print_frames_on_abort();

}  // namespace runner
