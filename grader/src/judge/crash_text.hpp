// What a crash of a check's runner says after "crashed: SIGABRT.": the kind of fault, named
// from what the runner printed when it can be (Eigen's assertions print the header and the
// condition that failed), then the check's own guess at the likely mistake.
#pragma once

#include <string>

namespace grader {

// `output`: what the runner printed (its stdout and stderr, as kept); `crash_hint`: the
// check's likely mistake for a failed assertion, or empty. Starts with a space.
std::string crash_explanation(int signal, const std::string& output, const std::string& crash_hint);

}  // namespace grader
