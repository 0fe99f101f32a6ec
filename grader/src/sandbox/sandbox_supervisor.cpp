// S, the supervisor of a sandboxed run (see sandbox.cpp for the shape of one run): it starts
// the program P, waits for it or the deadline, then kills whatever P left behind (S is a child
// subreaper, so every orphan comes back to it) and reports on the status pipe. Runs in
// linattn-sandbox-supervisor (supervisor_main.cpp); only async-signal-safe calls from here on.
#include "sandbox_processes.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

namespace grader::sandbox {

namespace {

void send(int fd, StatusRecord record) { write_all(fd, &record, sizeof record); }

double monotonic_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
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

}  // namespace

// S: starts P, waits for it or the deadline, cleans up every descendant, reports. Never
// returns.
[[noreturn]] void supervise(const Plan& plan, int out_w, int status_w) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the judge thread gone: nobody to report to
  if (::getppid() != plan.judge_pid) ::_exit(1);
  // When the machine runs out of memory, the kernel's killer takes S and what runs under it
  // (a compiler, a runner: oom_score_adj is inherited) before the judge. The judge then says
  // the run was killed from outside, the machine's fault, and builds or runs it again alone;
  // killed itself, it took every exercise's report with it (Gradescope's 768 MiB with five
  // jobs: one grade in five). Raising the score needs no privilege.
  if (const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC); fd >= 0) {
    write_all(fd, "1000", 4);
    ::close(fd);
  }
  // Other judge threads' pipes were inherited by this fork; holding them would keep their
  // readers from ever seeing end-of-file. S never execs, so close-on-exec does not help.
  {
    int keep[kMaxPass + 2];
    int n = 0;
    keep[n++] = out_w;
    keep[n++] = status_w;
    for (std::size_t i = 0; i < plan.pass.size() && i < kMaxPass; ++i)
      keep[n++] = plan.pass[i].first;
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
  // The group is P's own doing (setsid, sandbox_program.cpp): a setpgid from here could come
  // first and make P a group leader, which setsid refuses. Until P has run it, P has started
  // nothing, and the kill(p) and kill_children() below reach it without its group.
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

  // The CPU time of the whole run, taken here, outside the program: every process under S has
  // been reaped by now (by S or by a process S reaped), and a reaped child's CPU time, with
  // that of the children it reaped, adds to its reaper's. S, a fresh program, starts with none.
  // Nothing the program does changes this figure except using CPU (the time rule's clock).
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  StatusRecord r;
  r.kind = StatusRecord::Finished;
  r.wait_status = status;
  r.cpu_microseconds =
      (static_cast<std::int64_t>(usage.ru_utime.tv_sec) + usage.ru_stime.tv_sec) * 1000000 +
      usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  r.timed_out = timed_out ? 1 : 0;
  int e = 0;
  ssize_t n;
  do n = ::read(err[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  r.exec_errno = (n == static_cast<ssize_t>(sizeof e)) ? e : 0;
  send(status_w, r);
  ::_exit(0);
}

}  // namespace grader::sandbox
