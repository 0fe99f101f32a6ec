#include "outside_kill.hpp"

#include <signal.h>

#include <fstream>
#include <string>

namespace grader {

std::uint64_t oom_kills_so_far() {
  std::ifstream in("/proc/vmstat");
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value)
    if (name == "oom_kill") return value;
  return 0;
}

std::optional<std::string> tool_killed_from_outside(const RunOutcome& r) {
  const std::string killed = "killed by SIGKILL";
  if (r.ending == RunOutcome::Ending::Signaled)
    return r.signal == SIGKILL ? std::optional<std::string>(killed) : std::nullopt;
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code == 0) return std::nullopt;
  // bubblewrap passes on a program killed by signal N as status 128 + N.
  if (r.exit_code == 128 + SIGKILL) return killed;
  for (const char* words :
       {"Killed signal terminated program", "terminated with signal 9 [Killed]"}) {
    const std::size_t at = r.output.find(words);
    if (at == std::string::npos) continue;
    const std::size_t from = r.output.rfind('\n', at);
    const std::size_t start = from == std::string::npos ? 0 : from + 1;
    return r.output.substr(start, r.output.find('\n', at) - start);
  }
  return std::nullopt;
}

bool runner_killed_from_outside(const RunOutcome& r, std::uint64_t oom_kills) {
  return oom_kills > 0 && r.ending == RunOutcome::Ending::Signaled && r.signal == SIGKILL;
}

}  // namespace grader
