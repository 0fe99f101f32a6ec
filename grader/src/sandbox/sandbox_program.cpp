// P, the program's side of a sandboxed run: between S's fork and exec it puts every limit on
// itself that the kernel will then enforce on the program (session and process group, resource
// limits, descriptors, chroot, user id, Landlock, seccomp), in that order, and execs. A fork of S
// (supervisor_main.cpp): only async-signal-safe calls from here on.
#include "sandbox_processes.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace grader::sandbox {

namespace {

// False if the kernel refused the limit: the program must then not run without it.
bool set_limit(int resource, std::uint64_t value) {
  rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  return ::setrlimit(resource, &limit) == 0;
}

}  // namespace

// P: becomes the program. Never returns.
[[noreturn]] void become_program(const Plan& plan, int out_w, int err_w, pid_t supervisor) {
  // Every step below that fails stops P before the exec, and S reports the errno as a launch
  // failure: a program never runs with a limit or a descriptor missing.
  auto fail = [&]() {
    int e = errno;
    write_all(err_w, &e, sizeof e);
    ::_exit(127);
  };
  // Its own session, and so its own process group (one kill(-pgid) reaches it and everything
  // it forks) and its own scheduling group: the kernel's autogroup shares the CPU between
  // sessions first, so 200 busy threads in one runner take one session's share, not 200 of
  // the neighbours' (the namespaces layer's bubblewrap --new-session did this for runners
  // there; the chroot layer slowed an honest neighbour 40 to 400 times without it).
  if (::setsid() < 0) fail();
  // If S dies (killed from below, or the judge with it), P must not live on.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail();
  if (::getppid() != supervisor) ::_exit(127);

  // Start from default signal handling: the judge may ignore SIGPIPE, and S blocks SIGCHLD;
  // both would be inherited across exec otherwise.
  // (SIGKILL and SIGSTOP refuse a handler, as they must: those two results are not errors.)
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) fail();

  if (!set_limit(RLIMIT_AS, plan.limits.address_space_bytes) ||
      !set_limit(RLIMIT_FSIZE, plan.limits.file_size_bytes) || !set_limit(RLIMIT_CORE, 0))
    fail();
  // SIGXCPU at the limit (the sign the judge reads), SIGKILL a second later for a program that
  // catches or ignores it.
  if (plan.limits.cpu_seconds > 0) {
    const auto seconds = static_cast<rlim_t>(std::ceil(plan.limits.cpu_seconds));
    const rlimit cpu{seconds, seconds + 1};
    if (::setrlimit(RLIMIT_CPU, &cpu) != 0) fail();
  }

  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0 || ::dup2(null_fd, 0) != 0 || ::dup2(out_w, 1) != 1 || ::dup2(out_w, 2) != 2)
    fail();
  // Every descriptor that must survive moves up out of the way first (so that no target
  // number overwrites a source), then down to its number. The exec-error pipe stays up there,
  // close-on-exec; everything else above 2 goes.
  const int err_high = ::fcntl(err_w, F_DUPFD_CLOEXEC, 200);
  if (err_high < 0) fail();
  err_w = err_high;
  int high[kMaxPass];
  const int n_pass = static_cast<int>(std::min<std::size_t>(plan.pass.size(), kMaxPass));
  for (int i = 0; i < n_pass; ++i) {
    high[i] = ::fcntl(plan.pass[i].first, F_DUPFD_CLOEXEC, 200);
    if (high[i] < 0) fail();
  }
  int keep[kMaxPass + 1];
  for (int i = 0; i < n_pass; ++i) {
    // dup2 clears close-on-exec on the copy
    if (::dup2(high[i], plan.pass[i].second) != plan.pass[i].second) fail();
    keep[i] = plan.pass[i].second;
  }
  keep[n_pass] = err_w;
  close_all_except(keep, n_pass + 1);

  // The chroot layer: the program's own folder becomes its root. Before dropping root, which
  // chroot needs.
  if (!plan.limits.chroot_dir.empty()) {
    if (::chdir(plan.limits.chroot_dir.c_str()) != 0 || ::chroot(".") != 0) fail();
  }

  if (plan.limits.run_as_uid != 0 && ::geteuid() == 0) {
    // Groups first, then the group id, then the user id: after setuid nothing else may change.
    const unsigned id = plan.limits.run_as_uid;
    if (!set_limit(RLIMIT_NPROC, 256) || ::setgroups(0, nullptr) != 0 || ::setgid(id) != 0 ||
        ::setuid(id) != 0)
      fail();
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
    prog.len =
        static_cast<unsigned short>(plan.limits.seccomp_program.size() / sizeof(sock_filter));
    prog.filter = reinterpret_cast<sock_filter*>(
        const_cast<std::uint8_t*>(plan.limits.seccomp_program.data()));
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
      fail();
  }
  if (!plan.envp.empty()) ::execve(plan.argv[0], plan.argv.data(), plan.envp.data());
  else ::execv(plan.argv[0], plan.argv.data());
  fail();
  ::_exit(127);  // not reached: fail() ends the process
}

}  // namespace grader::sandbox
