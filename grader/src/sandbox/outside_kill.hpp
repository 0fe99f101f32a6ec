// A program killed from outside the limits the sandbox set: by the kernel's out-of-memory
// killer, when the machine (or the grader's cgroup) ran short. That is the machine's doing,
// never the submission's: the engine runs such a build or check again, alone, and if it dies
// again reports the exercise as the grader's fault (status grader_fault) with no score.
#pragma once

#include "sandbox.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace grader {

// How many processes the kernel's out-of-memory killer has killed since boot (/proc/vmstat's
// oom_kill, which counts cgroup limits too), or 0 where the kernel does not say.
std::uint64_t oom_kills_so_far();

// A compiler run that was killed from outside: the driver itself by SIGKILL, or the driver
// reporting that one of its programs (cc1plus, as, ld) was ("Killed signal terminated program
// cc1plus", "ld terminated with signal 9 [Killed]"). Nothing a source file can do sends a
// compiler SIGKILL: the build's own limits end it otherwise (a time-out, or "out of memory" at
// its address-space cap).
// Returns how it was killed, in the tool's own words where it gave some ("g++: fatal error:
// Killed signal terminated program cc1plus"), or nothing.
std::optional<std::string> tool_killed_from_outside(const RunOutcome& r);

// A runner killed by SIGKILL while the out-of-memory killer ran (`oom_kills` is the rise of
// oom_kills_so_far over the run). A runner may send itself SIGKILL; it cannot make the kernel
// count an out-of-memory kill (its address space is capped far below the machine's memory), so
// both together name the machine.
bool runner_killed_from_outside(const RunOutcome& r, std::uint64_t oom_kills);

}  // namespace grader
