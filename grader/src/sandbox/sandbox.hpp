// Running a program under limits that the kernel enforces. Used for compiling submissions
// and for every check's runner. The judge never runs student code in its own process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grader {

struct Limits {
  double wall_seconds = 10.0;  // then the whole process group is killed
  // CPU time the program may spend (RLIMIT_CPU, whole seconds rounded up, set before exec);
  // 0 for none. The kernel ends it with SIGXCPU there (Signaled, or under bubblewrap the exit
  // status that isolation's unwrap_signal reads as it), and with SIGKILL a second later if it
  // ignores that: on a loaded machine a program's wall time grows with the load, its CPU time
  // does not.
  double cpu_seconds = 0.0;
  std::uint64_t address_space_bytes = 2ull << 30;  // RLIMIT_AS
  std::uint64_t file_size_bytes = 64ull << 20;     // RLIMIT_FSIZE
  std::uint64_t output_bytes_kept = 64ull << 10;   // stdout+stderr beyond this is dropped
  // When the judge runs as root and this is not 0: run the program as this user and group
  // id, with at most 256 processes, so that hostile code can neither signal nor change what
  // root owns, nor the programs of other checks running at the same time under other ids.
  // Its working directory and program must then be reachable by that id.
  unsigned run_as_uid = 0;

  // Set by confine() (isolation.hpp); empty or zero when the program runs unconfined.
  // A seccomp program (struct sock_filter array) the child loads just before exec.
  std::vector<std::uint8_t> seccomp_program;
  // chroot here (a folder prepared by make_jail_folder) before dropping root; cwd and the
  // program's path are then seen from inside it.
  std::string chroot_dir;
  // Descriptors of ours the program gets: {our descriptor, its number in the program}.
  std::vector<std::pair<int, int>> pass_fds;
  // A Landlock ruleset (landlock.hpp) the child applies to itself before exec; -1 for none.
  int landlock_ruleset = -1;
  // The program's whole environment, when not empty ("NAME=value" each); else ours.
  std::vector<std::string> environment;
  // A reply channel: when set, the program gets the write end of a pipe as descriptor 4, and
  // what it writes there (at most reply_bytes_kept, else the reply is dropped) comes back in
  // RunOutcome::reply. The judge owns the pipe: no file, nothing to replace or block on.
  bool reply_pipe = false;
  std::uint64_t reply_bytes_kept = 64ull << 20;
};

// The reply pipe's number in the program.
inline constexpr int kReplyFd = 4;
// Where a runner's harness writes its mark that it started (grader/runner/started_mark.cpp).
inline constexpr int kStartedFd = 5;
// Where the Landlock ruleset travels to the child (closed before exec).
inline constexpr int kLandlockFd = 8;

struct RunOutcome {
  enum class Ending { Exited, Signaled, TimedOut, LaunchFailed };
  Ending ending = Ending::LaunchFailed;
  int exit_code = 0;     // if Exited
  int signal = 0;        // if Signaled
  double seconds = 0.0;  // wall time
  // CPU time of the program and everything it started (every thread, user + system), measured
  // by the supervisor after all of them ended: a figure the program cannot forge (time rule).
  double cpu_seconds = 0.0;
  std::string output;              // stdout and stderr, interleaved, first output_bytes_kept
  std::uint64_t output_bytes = 0;  // how much was written in all
  bool output_truncated() const { return output_bytes > output.size(); }
  std::string launch_error;     // if LaunchFailed
  std::string reply;            // what came through the reply pipe, if Limits::reply_pipe
  bool reply_over_cap = false;  // more than Limits::reply_bytes_kept arrived: reply dropped
};

// Runs argv[0] with arguments argv[1..] in working directory `cwd`, stdin from /dev/null,
// stdout and stderr captured together, in a new process group, under `limits`. Every process
// the program starts (forks, threads) is killed when it ends or at the deadline.
RunOutcome run_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                         const Limits& limits);

// The program `name` names: itself if it holds a '/', else the first executable file of that
// name in PATH's folders and then /usr/bin and /bin; empty if there is none. The one PATH
// search of the grader (the sandbox's programs, bubblewrap itself).
std::string find_on_path(const std::string& name);

// "SIGSEGV" for 11, and so on.
std::string signal_name(int signal);

}  // namespace grader
