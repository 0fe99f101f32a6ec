// Runs a command as a kernel without Landlock would (Linux before 5.13, or one built without it,
// as on some graders' hosts): landlock_create_ruleset fails with ENOSYS, which is how the grader
// learns that Landlock is missing. Everything else is allowed. A seccomp filter, inherited by
// every process the command starts.
//
// usage: without-landlock COMMAND [ARG...]
#include <seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: without-landlock COMMAND [ARG...]\n");
    return 2;
  }
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (filter == nullptr ||
      seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), __NR_landlock_create_ruleset, 0) != 0 ||
      seccomp_load(filter) != 0) {
    std::fprintf(stderr, "without-landlock: cannot install the seccomp filter\n");
    return 2;
  }
  seccomp_release(filter);
  execvp(argv[1], argv + 1);
  std::perror("without-landlock: exec");
  return 127;
}
