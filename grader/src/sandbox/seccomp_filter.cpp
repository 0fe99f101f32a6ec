#include "seccomp_filter.hpp"

#include "../util/unique_fd.hpp"

#include <seccomp.h>

#include <fcntl.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace grader {

namespace {

// Calls that reach outside the process's own memory and files: the network, other processes,
// the kernel's own configuration, new namespaces (a way back to privileges), and interfaces
// that have carried many kernel bugs. Each fails with EPERM.
// clang-format off
const char* const kRefused[] = {
    // network (the reply travels over an inherited pipe; nothing needs a socket)
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    // other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
    // namespaces, mounts, privileges
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
    "fsopen", "fsmount", "fspick", "mount_setattr",
    // the kernel itself
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "syslog", "iopl", "ioperm", "settimeofday",
    "clock_settime", "adjtimex", "clock_adjtime", "sethostname", "setdomainname",
    // interfaces with a history of holes, that no student code needs
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "fanotify_init", "lookup_dcookie", "personality",
    // execveat is never needed: bubblewrap and the sandbox start programs with execve
    "execveat",
    // System V IPC and POSIX message queues: outside bubblewrap there is no IPC namespace, so
    // an object made here outlives the run on the host (1 GiB of segments from one check) and
    // carries answers from one run to the next (a memo across a regrade, a hidden check's
    // inputs). Nothing in student code needs them. ("ipc" is i386's multiplexer for them.)
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl",
    "semget", "semop", "semtimedop", "semctl", "ipc",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
};
// clang-format on

void add(scmp_filter_ctx ctx, std::uint32_t action, const char* name, unsigned count = 0,
         const scmp_arg_cmp* args = nullptr) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return;  // not a call on this architecture
  const int rc = seccomp_rule_add_array(ctx, action, nr, count, args);
  if (rc != 0 && rc != -EEXIST)
    throw std::runtime_error(std::string("seccomp rule for ") + name + ": " + std::strerror(-rc));
}

std::vector<std::uint8_t> build(FilterPurpose purpose) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) throw std::runtime_error("seccomp_init failed");
  struct Release {
    scmp_filter_ctx c;
    ~Release() { seccomp_release(c); }
  } release{ctx};
  // A foreign architecture's calls (x32, i386 through int 0x80) would slip past rules written
  // for x86_64 numbers: libseccomp's default is to kill on a foreign architecture.
  for (const char* name : kRefused) add(ctx, SCMP_ACT_ERRNO(EPERM), name);

  const std::uint64_t ns_flags_each[] = {CLONE_NEWNS,   CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                         CLONE_NEWUSER, CLONE_NEWPID,    CLONE_NEWNET};
  // clone3 passes its flags in memory, where a filter cannot read them: say it does not
  // exist, and the C library falls back to clone, whose flags the rules below can see.
  add(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3");
  if (purpose == FilterPurpose::Runner) {
    // A runner is one process: threads are allowed (clone with CLONE_THREAD), forks are not.
    const scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    add(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &not_thread);
    add(ctx, SCMP_ACT_ERRNO(EPERM), "fork");
    add(ctx, SCMP_ACT_ERRNO(EPERM), "vfork");
    // The scratch watcher (scratch_watch.hpp) finds the files a runner holds in
    // /proc/<pid>/fd: a thread with a descriptor table of its own (no CLONE_FILES) would hide
    // its files there, and a process that made itself not dumpable would close that folder to
    // a judge without CAP_SYS_PTRACE (Docker's default). pthread_create shares the table and
    // never touches the flag.
    const scmp_arg_cmp own_files = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_FILES, 0);
    add(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &own_files);
    const scmp_arg_cmp set_dumpable = SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE);
    add(ctx, SCMP_ACT_ERRNO(EPERM), "prctl", 1, &set_dumpable);
  }
  // A compiler forks; it never asks for a namespace. (For a runner, every non-thread clone is
  // refused above already, and a namespace cannot be made with CLONE_THREAD.)
  if (purpose == FilterPurpose::Build) {
    for (std::uint64_t flag : ns_flags_each) {
      const scmp_arg_cmp has_flag = SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag);
      add(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &has_flag);
    }
  }

  const UniqueFd file(::memfd_create("linattn-seccomp", MFD_CLOEXEC));
  const int fd = file.get();
  if (!file.valid()) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  std::vector<std::uint8_t> program;
  const int rc = seccomp_export_bpf(ctx, fd);
  if (rc == 0) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    // Not rewound, the read below would give an empty program (and every sandbox a refusal).
    if (size < 0 || ::lseek(fd, 0, SEEK_SET) != 0)
      throw std::runtime_error(std::string("cannot read back the seccomp program: ") +
                               std::strerror(errno));
    program.resize(static_cast<std::size_t>(size));
    std::size_t got = 0;
    while (got < program.size()) {
      const ssize_t n = ::read(fd, program.data() + got, program.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    program.resize(got);
  }
  if (rc != 0 || program.empty())
    throw std::runtime_error(std::string("seccomp_export_bpf: ") + std::strerror(-rc));
  return program;
}

}  // namespace

const std::vector<std::uint8_t>& seccomp_program(FilterPurpose purpose) {
  static std::mutex mutex;
  // std::array and at(): an index out of range throws instead of writing past the end (a C
  // array's overrun once hung a test instead of stopping it).
  static std::array<std::vector<std::uint8_t>, 2> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& program = programs.at(purpose == FilterPurpose::Build ? 0 : 1);
  if (program.empty()) program = build(purpose);
  return program;
}

std::string seccomp_summary() {
  return "no sockets, no ptrace or access to other processes, no new namespaces or mounts, no "
         "System V IPC or POSIX message queues, no new processes from a runner (threads only), "
         "no execve once the runner's harness starts";
}

}  // namespace grader
