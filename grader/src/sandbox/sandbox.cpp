// run_sandboxed: one program under kernel-enforced limits, with every process it starts
// accounted for and killed when it ends.
//
// The shape of one run (three processes):
//
//   judge thread ──spawn──▶ supervisor S ──fork──▶ program P (exec'd, own process group, rlimits)
//        ▲   reads output pipe ◀──────────────────── P's stdout+stderr (and its children's)
//        └── reads status pipe ◀── S: "started P", later "P ended like this"
//
// S exists so that orphans can be attributed without guessing. S marks itself a child
// subreaper (PR_SET_CHILD_SUBREAPER): anything P forks that loses its parent, even after
// setsid() took it out of P's process group, is re-parented to S rather than to init or to the
// judge. When P ends (or the deadline passes), S kills P's group, then kills its own remaining
// children until it has none left. Because every run has its own S, concurrent runs from
// several judge threads never touch each other's processes, and the judge never has to call
// waitpid(-1), which would steal other threads' children.
//
// S is a program of its own (linattn-sandbox-supervisor), started with posix_spawn: a fork of
// the judge would copy the judge's page tables for every run, and the judge holds hundreds of
// MB during a time check (supervisor_args.hpp). S reads its plan from its command line, then
// forks P, a copy of that small process, which puts every limit on itself and execs.
//
// This file is the judge's side: it prepares S's plan, makes the pipes, starts S, and collects
// the program's output, its reply and S's report. S is in sandbox_supervisor.cpp, P in
// sandbox_program.cpp, what they share in sandbox_processes.hpp.
#include "sandbox.hpp"

#include "../util/unique_fd.hpp"
#include "grader_config.hpp"
#include "program_copy.hpp"
#include "sandbox_processes.hpp"
#include "supervisor_args.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace grader {

using sandbox::kMaxPass;
using sandbox::Plan;
using sandbox::StatusRecord;

namespace {

// Keeps the first `keep` bytes and counts them all.
struct OutputSink {
  std::string& kept;
  std::uint64_t& total;
  std::uint64_t keep;
  // Reads what is there; false at end-of-file or a hard error.
  bool read_from(int fd) {
    char buf[65536];
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    if (n == 0) return false;
    total += static_cast<std::uint64_t>(n);
    if (kept.size() < keep) {
      const std::size_t room = static_cast<std::size_t>(keep - kept.size());
      kept.append(buf, std::min(room, static_cast<std::size_t>(n)));
    }
    return true;
  }
};

// S's program, built beside the judge (grader/CMakeLists.txt).
constexpr const char* kSupervisorProgram = LINATTN_HARNESS_DIR "/linattn-sandbox-supervisor";

// Starts S (supervisor_args.hpp) with posix_spawn, which copies nothing of the judge's memory:
// `out_w` and `status_w` become its descriptors 3 and 4, plan.pass[i].first its
// kSupervisorFirstPassFd + i. Returns 0, or the errno of the failure.
int start_supervisor(const Plan& plan, int out_w, int status_w, pid_t& pid) {
  using namespace sandbox;
  // Each descriptor moves to its number in S. A source whose number is one of those targets is
  // first copied above them, so that no move overwrites a descriptor still to be moved.
  std::vector<std::pair<int, int>> moves = {{out_w, kSupervisorOutFd},
                                            {status_w, kSupervisorStatusFd}};
  for (std::size_t i = 0; i < plan.pass.size(); ++i)
    moves.emplace_back(plan.pass[i].first, kSupervisorFirstPassFd + static_cast<int>(i));
  std::vector<UniqueFd> high;
  for (auto& [from, to] : moves) {
    if (from >= kSupervisorFdsEnd) continue;
    high.emplace_back(::fcntl(from, F_DUPFD_CLOEXEC, kSupervisorFdsEnd));
    if (!high.back().valid()) return errno;
    from = high.back().get();
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  if (const int e = ::posix_spawn_file_actions_init(&actions); e != 0) return e;
  if (const int e = ::posix_spawnattr_init(&attributes); e != 0) {
    ::posix_spawn_file_actions_destroy(&actions);
    return e;
  }
  int e = 0;
  // dup2 leaves the copy without close-on-exec; everything else the judge holds is closed
  // at exec or by S itself (close_all_except).
  for (const auto& [from, to] : moves)
    if (e == 0) e = ::posix_spawn_file_actions_adddup2(&actions, from, to);
  // S starts with every signal at its default and none blocked, whatever this thread had.
  sigset_t all, none;
  ::sigfillset(&all);
  ::sigemptyset(&none);
  if (e == 0) e = ::posix_spawnattr_setsigdefault(&attributes, &all);
  if (e == 0) e = ::posix_spawnattr_setsigmask(&attributes, &none);
  if (e == 0)
    e = ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<std::string> args = plan_arguments(plan);
  args.insert(args.begin(), kSupervisorProgram);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (e == 0) {
    // A program copy open for writing must not be inherited even for the instant before exec.
    auto forks_apart = hold_forks_apart();
    e = ::posix_spawn(&pid, kSupervisorProgram, &actions, &attributes, argv.data(), environ);
  }
  ::posix_spawnattr_destroy(&attributes);
  ::posix_spawn_file_actions_destroy(&actions);
  return e;
}

}  // namespace

std::string find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr && *path != '\0' ? path : "/usr/local/bin:/usr/bin:/bin";
  dirs += ":/usr/bin:/bin";  // a PATH without them still finds the system's own tools
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    // An empty entry (the current folder) is skipped: the judge's working folder is nobody's
    // choice of program.
    if (!dir.empty()) {
      const std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    start = end + 1;
  }
  return "";
}

namespace {

// The judge's ends and S's ends of the three pipes: P's output (stdout and stderr), S's status
// records, and the reply (when the run has one). All close-on-exec; S's ends are moved to its
// descriptor numbers by start_supervisor.
struct RunPipes {
  UniqueFd out_r, out_w, status_r, status_w, reply_r, reply_w;
};

// Opens the pipes; the failure's text, or "".
std::string open_pipes(bool with_reply, RunPipes& p) {
  auto open = [](UniqueFd& r, UniqueFd& w) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    r.reset(fds[0]);
    w.reset(fds[1]);
    return true;
  };
  if (!open(p.out_r, p.out_w) || !open(p.status_r, p.status_w) ||
      (with_reply && !open(p.reply_r, p.reply_w)))
    return std::string("pipe: ") + std::strerror(errno);
  return "";
}

// What the judge learnt from S while the run lasted.
struct Watched {
  StatusRecord finished{};
  bool have_finished = false;
  pid_t program = 0;  // P, once S said it started
  bool out_open = true, reply_open = false;
};

// Reads P's output, the reply and S's status records until S reports the end, S is gone, or
// the backstop passes (S enforces the deadline; this later one only covers S itself failing).
Watched watch_supervisor(const RunPipes& p, OutputSink& sink, OutputSink& reply_sink,
                         double backstop, const std::function<double()>& elapsed) {
  Watched w;
  w.reply_open = p.reply_r.valid();
  char status_buf[sizeof(StatusRecord) * 4];
  std::size_t status_len = 0;
  while (!w.have_finished) {
    pollfd fds[3] = {{p.status_r.get(), POLLIN, 0},
                     {w.out_open ? p.out_r.get() : -1, POLLIN, 0},
                     {w.reply_open ? p.reply_r.get() : -1, POLLIN, 0}};
    const double left = backstop - elapsed();
    if (left <= 0) break;
    int ready = ::poll(fds, 3, static_cast<int>(std::min(left * 1000.0 + 1.0, 1e6)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) w.out_open = sink.read_from(p.out_r.get());
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR))
      w.reply_open = reply_sink.read_from(p.reply_r.get());
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = ::read(p.status_r.get(), status_buf + status_len, sizeof status_buf - status_len);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // S is gone without a last word
      status_len += static_cast<std::size_t>(n);
      while (status_len >= sizeof(StatusRecord)) {
        StatusRecord r;
        std::memcpy(&r, status_buf, sizeof r);
        std::memmove(status_buf, status_buf + sizeof r, status_len - sizeof r);
        status_len -= sizeof r;
        if (r.kind == StatusRecord::Started) w.program = r.pid;
        if (r.kind == StatusRecord::Finished || r.kind == StatusRecord::SupervisorFailed) {
          w.finished = r;
          w.have_finished = true;
        }
      }
    }
  }
  return w;
}

// Whatever is still in the pipes. Every writer is dead by now, so end-of-file normally comes
// at once; the short cap is for a writer that somehow escaped, which must not hold us.
void drain(const RunPipes& p, Watched& w, OutputSink& sink, OutputSink& reply_sink,
           const std::function<double()>& elapsed) {
  const double drain_until = elapsed() + 0.25;
  while (w.out_open || w.reply_open) {
    const double left = drain_until - elapsed();
    if (left <= 0) break;
    pollfd fds[2] = {{w.out_open ? p.out_r.get() : -1, POLLIN, 0},
                     {w.reply_open ? p.reply_r.get() : -1, POLLIN, 0}};
    int ready = ::poll(fds, 2, static_cast<int>(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) w.out_open = sink.read_from(p.out_r.get());
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
      w.reply_open = reply_sink.read_from(p.reply_r.get());
  }
}

// How the run ended, from S's last record.
void read_ending(const StatusRecord& finished, const Plan& plan, RunOutcome& outcome) {
  if (finished.kind == StatusRecord::SupervisorFailed) {
    outcome.ending = RunOutcome::Ending::LaunchFailed;
    outcome.launch_error = std::string("could not start: ") + std::strerror(finished.exec_errno);
    return;
  }
  if (finished.exec_errno != 0) {
    outcome.ending = RunOutcome::Ending::LaunchFailed;
    outcome.launch_error = "cannot run " + plan.args[0] + ": " + std::strerror(finished.exec_errno);
    return;
  }
  outcome.cpu_seconds = static_cast<double>(finished.cpu_microseconds) * 1e-6;
  if (finished.timed_out) {
    outcome.ending = RunOutcome::Ending::TimedOut;
  } else if (WIFSIGNALED(finished.wait_status)) {
    outcome.ending = RunOutcome::Ending::Signaled;
    outcome.signal = WTERMSIG(finished.wait_status);
  } else {
    outcome.ending = RunOutcome::Ending::Exited;
    outcome.exit_code = WEXITSTATUS(finished.wait_status);
  }
}

}  // namespace

RunOutcome run_sandboxed(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                         const Limits& limits) {
  RunOutcome outcome;
  if (argv.empty()) {
    outcome.launch_error = "no program given";
    return outcome;
  }
  Plan plan;
  plan.args = argv;
  // Looked up now, in the parent: execvp in the forked child is not async-signal-safe. Not
  // found, exec fails with ENOENT and says so.
  const std::string found = find_on_path(argv[0]);
  plan.args[0] = found.empty() ? argv[0] : found;
  plan.cwd = cwd.string();
  plan.limits = limits;
  plan.judge_pid = ::getpid();
  plan.pass = limits.pass_fds;
  if (limits.landlock_ruleset >= 0) plan.pass.emplace_back(limits.landlock_ruleset, kLandlockFd);
  plan.env = limits.environment;
  if (plan.pass.size() + (limits.reply_pipe ? 1 : 0) > static_cast<std::size_t>(kMaxPass)) {
    outcome.launch_error = "too many descriptors to pass";
    return outcome;
  }
  RunPipes pipes;
  if (const std::string error = open_pipes(limits.reply_pipe, pipes); !error.empty()) {
    outcome.launch_error = error;
    return outcome;
  }
  if (limits.reply_pipe) plan.pass.emplace_back(pipes.reply_w.get(), kReplyFd);

  const auto start = std::chrono::steady_clock::now();
  const std::function<double()> elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  pid_t supervisor = 0;
  if (const int e = start_supervisor(plan, pipes.out_w.get(), pipes.status_w.get(), supervisor);
      e != 0) {
    outcome.launch_error =
        std::string("cannot start ") + kSupervisorProgram + ": " + std::strerror(e);
    return outcome;
  }
  pipes.out_w.reset();
  pipes.status_w.reset();
  pipes.reply_w.reset();

  OutputSink sink{outcome.output, outcome.output_bytes, limits.output_bytes_kept};
  std::uint64_t reply_bytes = 0;
  OutputSink reply_sink{outcome.reply, reply_bytes, limits.reply_bytes_kept};
  Watched watched = watch_supervisor(pipes, sink, reply_sink, limits.wall_seconds + 5.0, elapsed);
  outcome.seconds = elapsed();
  if (!watched.have_finished) {
    // S died early (killed from below) or hung. P dies with S (its parent-death signal);
    // the group kill is for the rest of P's group.
    ::kill(supervisor, SIGKILL);
    if (watched.program > 0) ::kill(-watched.program, SIGKILL);
  }
  drain(pipes, watched, sink, reply_sink, elapsed);
  if (reply_bytes > outcome.reply.size()) {
    outcome.reply_over_cap = true;
    outcome.reply.clear();
  }
  while (::waitpid(supervisor, nullptr, 0) < 0 && errno == EINTR) {
  }
  if (!watched.have_finished) {
    outcome.ending = RunOutcome::Ending::Signaled;
    outcome.signal = SIGKILL;
    outcome.launch_error = "the supervising process ended early (killed from inside the run?)";
    return outcome;
  }
  read_ending(watched.finished, plan, outcome);
  return outcome;
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGCHLD: return "SIGCHLD";
    case SIGSTOP: return "SIGSTOP";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: break;
  }
  if (const char* abbrev = ::sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

}  // namespace grader
