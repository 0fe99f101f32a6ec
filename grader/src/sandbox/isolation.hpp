// Which walls stand around student code on this machine, and how to put a program behind them.
//
// Three layers, the first that can be made is used (LINATTN_ISOLATION=namespaces|chroot|none
// forces one, for tests and for instructors who want to know):
//   namespaces  bubblewrap: own mount, pid, network, IPC and UTS namespaces; a root folder
//               holding only what the program needs; an unprivileged user inside; seccomp.
//   chroot      no namespaces can be made (a container without CAP_SYS_ADMIN), but we are
//               root: runners run chrooted in a private folder of their own, under a user id
//               that no other grader process uses; compilers run under that id; seccomp.
//   none        neither: rlimits and seccomp only. Good enough for a student grading their own
//               work; course grading (--strict, implied by --course and grade-all) refuses
//               it (engine_plan.cpp: required_isolation).
#pragma once

#include "../util/unique_fd.hpp"
#include "sandbox.hpp"
#include "seccomp_filter.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace grader {

enum class Layer { Namespaces, Chroot, None };

struct IsolationInfo {
  Layer layer = Layer::None;
  std::string why;  // for `none`: why neither sandbox could be made
};

// Detected once per process. Throws std::runtime_error when LINATTN_ISOLATION forces a layer
// that cannot be made here.
const IsolationInfo& isolation();

// "namespaces", "chroot", "none": the report's "isolation" field.
const char* layer_name(Layer layer);

// A short paragraph for a user whose grade ran without a sandbox: what that means and how to
// get one (with userns_restriction_hint first where it applies).
std::string how_to_enable_sandbox();

// Where `setting` (the kernel's kernel.apparmor_restrict_unprivileged_userns; Ubuntu 23.10 and
// later set it) reads 1: what keeps bubblewrap from starting for a user other than root, and the
// two ways to lift it. Otherwise "".
std::string userns_restriction_hint(const std::filesystem::path& setting);

// What a confined program sees besides the layer's basics. `work` is a host folder that the
// program may write (the build's stage; a runner's scratch in the chroot layer): inside it is
// `inside(work)`.
struct Jail {
  FilterPurpose purpose = FilterPurpose::Runner;
  std::filesystem::path work;
  // Host files seen read-only inside, at the given absolute paths (namespaces and chroot
  // layers); the none layer uses the host paths as they are.
  std::vector<std::pair<std::filesystem::path, std::string>> read_only;
  bool toolchain = false;                     // /usr and the /lib links: needed to compile and link
  std::uint64_t scratch_bytes = 64ull << 20;  // a runner's private /tmp (its working folder)
  unsigned worker = 0;                        // which of the judge's workers: picks the user id
};

// Where a host path under jail.work (or a read_only file) appears inside the jail.
std::string inside(const Jail& jail, const std::filesystem::path& host);

// The command line that runs `argv` (paths as seen inside) in the jail, and the settings of
// `limits` that go with it (seccomp program, chroot folder, user id). The caller keeps the
// returned Confinement alive until the run has ended: it owns descriptors passed to it.
struct Confinement {
  std::vector<std::string> argv;
  std::string cwd;
  UniqueFd seccomp_fd;   // handed to bubblewrap
  UniqueFd landlock_fd;  // the Landlock ruleset (chroot layer's compilers, none layer)
  UniqueFd started_fd;   // a compiler's or linker's under bubblewrap: see tool_started
};
Confinement confine(const Jail& jail, const std::vector<std::string>& argv, Limits& limits);

// Whether the confined program was started, once its run is over. Under bubblewrap, a shell
// inside writes a mark to started_fd just before it becomes the tool: bubblewrap's own failure
// (no user namespaces, a mount refused) prints "bwrap: ..." and exits 1, which a tool's output
// can imitate (a source that says #line 1 "bwrap: ") but the mark cannot. Always true where no
// bubblewrap runs first.
bool tool_started(const Confinement& c);

// bubblewrap ends with status 128 + N when the program inside was killed by signal N (the
// shells' convention): turns that back into the signal, so that a crash reads as one.
void unwrap_signal(RunOutcome& outcome);

// Makes the jail's private folder for a runner under the chroot layer (copies of the runner
// and its libraries, a scratch /tmp owned by the runner's id), or just a folder otherwise.
// Removed by the caller with remove_jail_folder.
std::filesystem::path make_jail_folder(const Jail& jail);
void remove_jail_folder(const std::filesystem::path& folder);

// The libraries every runner needs (the C and C++ runtimes and the loader), as
// {host file, path inside}. Asked of the compiler once per process.
const std::vector<std::pair<std::filesystem::path, std::string>>& runner_libraries();

// The user id the given worker's confined programs run under when we are root (0 otherwise),
// in every layer: taken from a range under a lock, so that no two grader processes, and no two
// workers, ever share one. Under it, RLIMIT_NPROC bounds the processes and threads a program
// may start (bubblewrap's own user inside maps to this id), and the kit's private files stay
// out of reach.
unsigned worker_uid(unsigned worker);

// `file` as the jail's user id can read it: the file itself, or, when that id is not ours, a
// copy in jail.work (a runner lives in the judge's private cache). For Jail::read_only.
std::filesystem::path readable_copy(const Jail& jail, const std::filesystem::path& file);

// Under the chroot layer a compiler is not chrooted (it needs /usr): what keeps it from the
// kit is the kit's folder being closed to other users. True if the sandbox's user id can
// open `path` (tried in a child process under that id); always false under other layers.
bool readable_by_sandbox(const std::filesystem::path& path);

}  // namespace grader
