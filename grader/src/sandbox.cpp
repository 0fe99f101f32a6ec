// run_sandboxed: one program under kernel-enforced limits, with every process it starts
// accounted for and killed when it ends.
//
// The shape of one run (three processes):
//
//   judge thread ──fork──▶ supervisor S ──fork──▶ program P (exec'd, own process group, rlimits)
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
// S is a fork of a multi-threaded process that never execs, so from fork() on it may use only
// async-signal-safe calls: raw system calls, no allocation, no locks, no stdio. Everything it
// needs (argv as char*, the working directory) is prepared before the fork.
#include "sandbox.hpp"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <poll.h>
#include <signal.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace grader {

namespace {

// Records S sends to the judge on the status pipe; each is written with one write() of less
// than PIPE_BUF bytes, so it arrives whole.
struct StatusRecord {
  enum Kind : std::int32_t { Started = 1, Finished = 2, SupervisorFailed = 3 };
  std::int32_t kind = 0;
  std::int32_t pid = 0;         // P, in Started
  std::int32_t wait_status = 0; // P's status from waitpid, in Finished
  std::int32_t timed_out = 0;   // 1 if S killed P at the deadline
  std::int32_t exec_errno = 0;  // non-zero if P could not exec
};

// Everything the forked processes need, prepared while allocating is still allowed.
struct Plan {
  std::vector<std::string> args;  // args[0] resolved to a path
  std::vector<char*> argv;        // pointers into args, null-terminated
  std::vector<std::string> env;   // limits.environment
  std::vector<char*> envp;        // pointers into env, null-terminated; empty: ours
  std::string cwd;
  Limits limits;
  pid_t judge_pid = 0;
  // Descriptors the program gets, as {ours, its number}: limits.pass_fds plus the reply pipe.
  std::vector<std::pair<int, int>> pass;
};

// The program's path: argv[0] as given if it names a path, else looked up in PATH now, in the
// parent, because execvp in the forked child is not on the async-signal-safe list.
std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;  // exec will fail with ENOENT and say so
}

// --- async-signal-safe helpers for S and P -----------------------------------------------

void write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void send(int fd, StatusRecord record) { write_all(fd, &record, sizeof record); }

// Closes every descriptor >= 3 except those listed (-1 entries are ignored). `keep` is sorted
// in place; no allocation, so S and P may call it.
void close_all_except(int* keep, int count) {
  std::sort(keep, keep + count);
  unsigned next = 3;
  for (int i = 0; i < count; ++i) {
    const int fd = keep[i];
    if (fd < static_cast<int>(next)) continue;
    if (static_cast<unsigned>(fd) > next) ::close_range(next, static_cast<unsigned>(fd) - 1, 0);
    next = static_cast<unsigned>(fd) + 1;
  }
  ::close_range(next, ~0U, 0);
}

constexpr int kMaxPass = 8;

void set_limit(int resource, std::uint64_t value) {
  rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  ::setrlimit(resource, &limit);
}

double monotonic_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// P: becomes the program. Never returns.
[[noreturn]] void become_program(const Plan& plan, int out_w, int err_w, pid_t supervisor) {
  // Its own process group, so that one kill(-pgid) reaches it and everything it forks.
  ::setpgid(0, 0);
  // If S dies (killed from below, or the judge with it), P must not live on.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != supervisor) ::_exit(127);

  // Start from default signal handling: the judge may ignore SIGPIPE, and S blocks SIGCHLD;
  // both would be inherited across exec otherwise.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);

  set_limit(RLIMIT_AS, plan.limits.address_space_bytes);
  set_limit(RLIMIT_FSIZE, plan.limits.file_size_bytes);
  set_limit(RLIMIT_CORE, 0);

  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(out_w, 1);
  ::dup2(out_w, 2);
  // Every descriptor that must survive moves up out of the way first (so that no target
  // number overwrites a source), then down to its number. The exec-error pipe stays up there,
  // close-on-exec; everything else above 2 goes.
  err_w = ::fcntl(err_w, F_DUPFD_CLOEXEC, 200);
  int high[kMaxPass];
  const int n_pass = static_cast<int>(std::min<std::size_t>(plan.pass.size(), kMaxPass));
  for (int i = 0; i < n_pass; ++i) high[i] = ::fcntl(plan.pass[i].first, F_DUPFD_CLOEXEC, 200);
  int keep[kMaxPass + 1];
  for (int i = 0; i < n_pass; ++i) {
    ::dup2(high[i], plan.pass[i].second);  // dup2 clears close-on-exec on the copy
    keep[i] = plan.pass[i].second;
  }
  keep[n_pass] = err_w;
  close_all_except(keep, n_pass + 1);
  auto fail = [&]() {
    int e = errno;
    write_all(err_w, &e, sizeof e);
    ::_exit(127);
  };

  // The chroot layer: the program's own folder becomes its root. Before dropping root, which
  // chroot needs.
  if (!plan.limits.chroot_dir.empty()) {
    if (::chdir(plan.limits.chroot_dir.c_str()) != 0 || ::chroot(".") != 0) fail();
  }

  if (plan.limits.run_as_uid != 0 && ::geteuid() == 0) {
    // Groups first, then the group id, then the user id: after setuid nothing else may change.
    const unsigned id = plan.limits.run_as_uid;
    set_limit(RLIMIT_NPROC, 256);
    if (::setgroups(0, nullptr) != 0 || ::setgid(id) != 0 || ::setuid(id) != 0) fail();
  }

  if (!plan.cwd.empty() && ::chdir(plan.cwd.c_str()) != 0) fail();
  if (plan.limits.landlock_ruleset >= 0) {
    // Which files the program may touch at all; lasts across exec, like the filter below.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::syscall(SYS_landlock_restrict_self, kLandlockFd, 0) != 0)
      fail();
    ::close(kLandlockFd);
  }
  if (!plan.limits.seccomp_program.empty()) {
    // The filter lasts across exec and cannot be lifted by anything the program does.
    sock_fprog prog{};
    prog.len = static_cast<unsigned short>(plan.limits.seccomp_program.size() / sizeof(sock_filter));
    prog.filter = reinterpret_cast<sock_filter*>(const_cast<std::uint8_t*>(plan.limits.seccomp_program.data()));
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
      fail();
  }
  if (!plan.envp.empty()) ::execve(plan.argv[0], plan.argv.data(), plan.envp.data());
  else ::execv(plan.argv[0], plan.argv.data());
  fail();
  ::_exit(127);  // not reached: fail() ends the process
}

// Sends SIGKILL to every child of S (and to the group each leads, if any). A child's pid is
// not reused while it is unreaped, so neither signal can reach a stranger.
void kill_children() {
  int fd = ::open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  long pid = -1;  // the number being parsed across reads; -1 for none
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        pid = (pid < 0 ? 0 : pid * 10) + (buf[i] - '0');
      } else if (pid > 0) {
        ::kill(static_cast<pid_t>(-pid), SIGKILL);
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        pid = -1;
      }
    }
  }
  if (pid > 0) {
    ::kill(static_cast<pid_t>(-pid), SIGKILL);
    ::kill(static_cast<pid_t>(pid), SIGKILL);
  }
  ::close(fd);
}

// S: starts P, waits for it or the deadline, cleans up every descendant, reports. Never
// returns.
[[noreturn]] void supervise(const Plan& plan, int out_w, int status_w) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the judge thread gone: nobody to report to
  if (::getppid() != plan.judge_pid) ::_exit(1);
  // Other judge threads' pipes were inherited by this fork; holding them would keep their
  // readers from ever seeing end-of-file. S never execs, so close-on-exec does not help.
  {
    int keep[kMaxPass + 2];
    int n = 0;
    keep[n++] = out_w;
    keep[n++] = status_w;
    for (std::size_t i = 0; i < plan.pass.size() && i < kMaxPass; ++i) keep[n++] = plan.pass[i].first;
    close_all_except(keep, n);
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);

  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &sa, nullptr);  // SIG_IGN would make children reap themselves
  sa.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &sa, nullptr);  // a closed status pipe is an error code, not death
  sigset_t chld;
  ::sigemptyset(&chld);
  ::sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, nullptr);  // collected by sigtimedwait below

  const double deadline = monotonic_now() + plan.limits.wall_seconds;
  int err[2];
  if (::pipe2(err, O_CLOEXEC) != 0) {
    StatusRecord r;
    r.kind = StatusRecord::SupervisorFailed;
    r.exec_errno = errno;
    send(status_w, r);
    ::_exit(1);
  }
  const pid_t self = ::getpid();
  const pid_t p = ::fork();
  if (p == 0) {
    ::close(status_w);
    ::close(err[0]);
    become_program(plan, out_w, err[1], self);
  }
  ::close(out_w);  // from here only P and its descendants hold the write end
  for (const auto& fd : plan.pass) ::close(fd.first);  // the reply pipe's end-of-file likewise
  ::close(err[1]);
  if (p < 0) {
    StatusRecord r;
    r.kind = StatusRecord::SupervisorFailed;
    r.exec_errno = errno;
    send(status_w, r);
    ::_exit(1);
  }
  ::setpgid(p, p);  // also done in P; whichever runs first wins, and the group exists
  {
    StatusRecord r;
    r.kind = StatusRecord::Started;
    r.pid = p;
    send(status_w, r);
  }

  int status = 0;
  bool timed_out = false;
  for (bool done = false; !done;) {
    // Reap what has ended. P is only looked at (WNOWAIT) until its group has been killed:
    // an unreaped P keeps its pid, and so the group id, from being reused.
    for (;;) {
      siginfo_t info{};
      if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) break;
      if (info.si_pid == p) {
        ::kill(-p, SIGKILL);
        while (::waitpid(p, &status, 0) < 0 && errno == EINTR) {
        }
        done = true;
        break;
      }
      ::waitpid(info.si_pid, nullptr, 0);  // an orphan that ended by itself
    }
    if (done) break;
    const double left = deadline - monotonic_now();
    if (left <= 0) {
      timed_out = true;
      ::kill(-p, SIGKILL);
      ::kill(p, SIGKILL);
      while (::waitpid(p, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    timespec wait{};
    wait.tv_sec = static_cast<time_t>(left);
    wait.tv_nsec = static_cast<long>((left - static_cast<double>(wait.tv_sec)) * 1e9);
    ::sigtimedwait(&chld, nullptr, &wait);  // woken by any child's end, or the deadline
  }

  // Whatever P left behind: its group, then anything re-parented to S, round after round
  // (killing a process re-parents its own children to S), until S has no child at all.
  ::kill(-p, SIGKILL);
  for (int round = 0; round < 100000; ++round) {
    kill_children();
    pid_t w = ::waitpid(-1, nullptr, 0);
    if (w < 0 && errno == ECHILD) break;
  }

  StatusRecord r;
  r.kind = StatusRecord::Finished;
  r.wait_status = status;
  r.timed_out = timed_out ? 1 : 0;
  int e = 0;
  ssize_t n;
  do n = ::read(err[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  r.exec_errno = (n == static_cast<ssize_t>(sizeof e)) ? e : 0;
  send(status_w, r);
  ::_exit(0);
}

// Closes a descriptor once, whatever happens on the way out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

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
  plan.args[0] = resolve_program(argv[0]);
  for (auto& a : plan.args) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  plan.cwd = cwd.string();
  plan.limits = limits;
  plan.judge_pid = ::getpid();
  plan.pass = limits.pass_fds;
  if (limits.landlock_ruleset >= 0) plan.pass.emplace_back(limits.landlock_ruleset, kLandlockFd);
  plan.env = limits.environment;
  for (auto& e : plan.env) plan.envp.push_back(e.data());
  if (!plan.envp.empty()) plan.envp.push_back(nullptr);
  if (plan.pass.size() + (limits.reply_pipe ? 1 : 0) > static_cast<std::size_t>(kMaxPass)) {
    outcome.launch_error = "too many descriptors to pass";
    return outcome;
  }

  int out_fds[2], status_fds[2];
  if (::pipe2(out_fds, O_CLOEXEC) != 0) {
    outcome.launch_error = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  Fd out_r{out_fds[0]}, out_w{out_fds[1]};
  if (::pipe2(status_fds, O_CLOEXEC) != 0) {
    outcome.launch_error = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  Fd status_r{status_fds[0]}, status_w{status_fds[1]};
  Fd reply_r, reply_w;
  if (limits.reply_pipe) {
    int reply_fds[2];
    if (::pipe2(reply_fds, O_CLOEXEC) != 0) {
      outcome.launch_error = std::string("pipe: ") + std::strerror(errno);
      return outcome;
    }
    reply_r.fd = reply_fds[0];
    reply_w.fd = reply_fds[1];
    plan.pass.emplace_back(reply_w.fd, kReplyFd);
  }

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const pid_t supervisor = ::fork();
  if (supervisor == 0) supervise(plan, out_w.fd, status_w.fd);
  if (supervisor < 0) {
    outcome.launch_error = std::string("fork: ") + std::strerror(errno);
    return outcome;
  }
  out_w.reset();
  status_w.reset();
  reply_w.reset();

  OutputSink sink{outcome.output, outcome.output_bytes, limits.output_bytes_kept};
  std::uint64_t reply_bytes = 0;
  OutputSink reply_sink{outcome.reply, reply_bytes, limits.reply_bytes_kept};
  bool reply_open = reply_r.fd >= 0;
  StatusRecord finished;
  bool have_finished = false;
  pid_t program = 0;
  char status_buf[sizeof(StatusRecord) * 4];
  std::size_t status_len = 0;
  bool out_open = true;
  // S enforces the deadline; this later one only covers S itself failing to.
  const double backstop = limits.wall_seconds + 5.0;

  while (!have_finished) {
    pollfd fds[3] = {{status_r.fd, POLLIN, 0}, {out_open ? out_r.fd : -1, POLLIN, 0},
                     {reply_open ? reply_r.fd : -1, POLLIN, 0}};
    const double left = backstop - elapsed();
    if (left <= 0) break;
    int ready = ::poll(fds, 3, static_cast<int>(std::min(left * 1000.0 + 1.0, 1e6)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) out_open = sink.read_from(out_r.fd);
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) reply_open = reply_sink.read_from(reply_r.fd);
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = ::read(status_r.fd, status_buf + status_len, sizeof status_buf - status_len);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // S is gone without a last word
      status_len += static_cast<std::size_t>(n);
      while (status_len >= sizeof(StatusRecord)) {
        StatusRecord r;
        std::memcpy(&r, status_buf, sizeof r);
        std::memmove(status_buf, status_buf + sizeof r, status_len - sizeof r);
        status_len -= sizeof r;
        if (r.kind == StatusRecord::Started) program = r.pid;
        if (r.kind == StatusRecord::Finished || r.kind == StatusRecord::SupervisorFailed) {
          finished = r;
          have_finished = true;
        }
      }
    }
  }
  outcome.seconds = elapsed();

  if (!have_finished) {
    // S died early (killed from below) or hung. P dies with S (its parent-death signal);
    // the group kill is for the rest of P's group.
    ::kill(supervisor, SIGKILL);
    if (program > 0) ::kill(-program, SIGKILL);
  }
  // Whatever is still in the pipe. Every writer is dead by now, so end-of-file normally comes
  // at once; the short cap is for a writer that somehow escaped, which must not hold us.
  const double drain_until = elapsed() + 0.25;
  while (out_open || reply_open) {
    const double left = drain_until - elapsed();
    if (left <= 0) break;
    pollfd fds[2] = {{out_open ? out_r.fd : -1, POLLIN, 0}, {reply_open ? reply_r.fd : -1, POLLIN, 0}};
    int ready = ::poll(fds, 2, static_cast<int>(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) out_open = sink.read_from(out_r.fd);
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) reply_open = reply_sink.read_from(reply_r.fd);
  }
  if (reply_bytes > outcome.reply.size()) {
    outcome.reply_over_cap = true;
    outcome.reply.clear();
  }
  while (::waitpid(supervisor, nullptr, 0) < 0 && errno == EINTR) {
  }

  if (!have_finished) {
    outcome.ending = RunOutcome::Ending::Signaled;
    outcome.signal = SIGKILL;
    outcome.launch_error = "the supervising process ended early (killed from inside the run?)";
    return outcome;
  }
  if (finished.kind == StatusRecord::SupervisorFailed) {
    outcome.ending = RunOutcome::Ending::LaunchFailed;
    outcome.launch_error = std::string("could not start: ") + std::strerror(finished.exec_errno);
    return outcome;
  }
  if (finished.exec_errno != 0) {
    outcome.ending = RunOutcome::Ending::LaunchFailed;
    outcome.launch_error = "cannot run " + plan.args[0] + ": " + std::strerror(finished.exec_errno);
    return outcome;
  }
  if (finished.timed_out) {
    outcome.ending = RunOutcome::Ending::TimedOut;
  } else if (WIFSIGNALED(finished.wait_status)) {
    outcome.ending = RunOutcome::Ending::Signaled;
    outcome.signal = WTERMSIG(finished.wait_status);
  } else {
    outcome.ending = RunOutcome::Ending::Exited;
    outcome.exit_code = WEXITSTATUS(finished.wait_status);
  }
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
