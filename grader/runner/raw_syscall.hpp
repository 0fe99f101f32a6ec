// A system call made directly, not through the C library: the harness's constructors run before
// anything else of the runner, and a submission may define functions named write, prctl or
// syscall of its own, to which the link would bind the harness's calls.
#pragma once

#if defined(__x86_64__)

namespace runner {

inline long raw_syscall(long nr, long a, long b, long c) {
  long ret;
  register long r10 asm("r10") = 0;
  register long r8 asm("r8") = 0;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
               : "rcx", "r11", "memory");
  return ret;
}

}  // namespace runner

#else
#error "the runner's direct system calls are written for x86_64"
#endif
