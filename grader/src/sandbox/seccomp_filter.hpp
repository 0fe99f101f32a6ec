// The system calls student code may not make, as a compiled seccomp program (libseccomp).
//
// The program is applied just before the sandboxed program is started: by bubblewrap
// (`--seccomp FD`) under the namespaces layer, by the sandbox's own child process otherwise.
// Because that start is itself an execve, execve stays allowed here; the runner's harness
// closes it from its first constructor on (grader/runner/no_exec.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grader {

enum class FilterPurpose {
  Build,   // the compiler driver: may start its own programs (cc1plus, as, ld)
  Runner,  // a check's runner: threads yes, new processes no
};

// The BPF program (an array of struct sock_filter) for this machine's architecture. Throws
// std::runtime_error if libseccomp cannot build it.
const std::vector<std::uint8_t>& seccomp_program(FilterPurpose purpose);

// What the filter refuses, in a sentence for the README and the report.
std::string seccomp_summary();

}  // namespace grader
