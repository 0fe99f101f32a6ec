// Closes execve and execveat for the rest of the runner's life, from a constructor of the
// earliest priority on (the harness's two such constructors, this one and started_mark.cpp's,
// run before any of a submission's).
//
// Why here and not in the sandbox's filter: the sandbox starts the runner with an execve, so
// its filter has to allow that call. This second filter stacks on the first (seccomp filters
// only ever add restrictions) before the student's own static initialisers and long before any
// API function runs. Priority 101 is the earliest a program may use, and the
// .init_array.00101 section it lands in comes before every constructor without a priority.
//
// The system calls are made directly (raw_syscall.hpp).
#include "raw_syscall.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>

#if defined(__x86_64__)

namespace {

using runner::raw_syscall;

[[noreturn]] void die(const char* why, long length) {
  raw_syscall(SYS_write, 2, reinterpret_cast<long>(why), length);
  raw_syscall(SYS_exit_group, 125, 0, 0);
  __builtin_unreachable();
}

__attribute__((constructor(101))) void close_exec() {
  constexpr unsigned kX32Bit = 0x40000000;
  static sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),  // i386 calls: never ours
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, 2, 0),  // x32 calls: refused
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 1, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  static sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]),
                               filter};
  if (raw_syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0) != 0) {
    static const char why[] = "runner: cannot set no_new_privs\n";
    die(why, sizeof why - 1);
  }
  if (raw_syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, reinterpret_cast<long>(&program)) != 0) {
    static const char why[] = "runner: cannot install the filter that closes execve\n";
    die(why, sizeof why - 1);
  }
}

}  // namespace

#else
#error "the runner's execve filter is written for x86_64"
#endif
