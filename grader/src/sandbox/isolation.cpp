#include "isolation.hpp"

#include "../util/memory_file.hpp"
#include "../util/read_file.hpp"
#include "grader_config.hpp"
#include "landlock.hpp"
#include "program_copy.hpp"
#include "sandbox_settings.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

namespace fs = std::filesystem;

namespace grader {

namespace {

// Inside the namespaces layer, the build's stage is /work; a runner works in its /tmp.
constexpr const char* kWorkInside = "/work";
constexpr const char* kScratchInside = "/tmp";
// The unprivileged user inside bubblewrap: "nobody".
constexpr const char* kInsideId = "65534";

// The system part of a bubblewrap command line: namespaces, user, what is mounted from /usr.
std::vector<std::string> bwrap_base(bool toolchain) {
  std::vector<std::string> a = {find_on_path("bwrap"),
                                "--unshare-all",
                                "--unshare-user",
                                "--uid",
                                kInsideId,
                                "--gid",
                                kInsideId,
                                "--hostname",
                                "sandbox",
                                "--die-with-parent",
                                "--new-session",
                                "--clearenv"};
  if (toolchain) {
    a.insert(a.end(), {"--ro-bind", "/usr",          "/usr",     "--symlink", "usr/lib", "/lib",
                       "--symlink", "usr/lib64",     "/lib64",   "--symlink", "usr/bin", "/bin",
                       "--symlink", "usr/sbin",      "/sbin",    "--proc",    "/proc",   "--setenv",
                       "PATH",      "/usr/bin:/bin", "--setenv", "LC_ALL",    "C"});
  } else {
    for (const auto& [host, in] : runner_libraries())
      a.insert(a.end(), {"--ro-bind", host.string(), in});
  }
  a.insert(a.end(), {"--dev", "/dev"});
  return a;
}

unsigned allocate_uid(unsigned worker);

bool probe_bwrap(std::string& why) {
  if (find_on_path("bwrap").empty()) {
    why = "bubblewrap (bwrap) is not installed";
    return false;
  }
  // The options every real run uses, not only the base: bubblewrap before 0.7.0 (Ubuntu 22.04
  // has 0.6.1) has no --size, and would pass a bare probe, then fail every compile.
  std::vector<std::string> argv = bwrap_base(true);
  argv.insert(argv.end(), {"--size", std::to_string(1u << 20), "--tmpfs", "/tmp", "--chdir", "/tmp",
                           "/usr/bin/true"});
  Limits limits;
  limits.wall_seconds = 20;
  // As the programs will run: under a user id of their own when we are root.
  limits.run_as_uid = ::geteuid() == 0 ? allocate_uid(0) : 0;
  const RunOutcome r = run_sandboxed(argv, "/", limits);
  if (r.ending == RunOutcome::Ending::Exited && r.exit_code == 0) return true;
  std::string said = r.output.substr(0, r.output.find('\n'));
  why = "bubblewrap cannot set up the sandbox here" +
        (said.empty() ? std::string() : " (" + said + ")");
  return false;
}

// Whether this process may chroot (CAP_SYS_CHROOT) and switch user ids: tried in a child.
bool probe_chroot(std::string& why) {
  if (::geteuid() != 0) {
    why += "; not root, so no chroot and no user id of its own for student code";
    return false;
  }
  auto forks_apart = hold_forks_apart();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chroot("/") != 0) ::_exit(1);
    if (::setgid(settings::kFirstRunnerUid) != 0 || ::setuid(settings::kFirstRunnerUid) != 0)
      ::_exit(2);
    ::_exit(0);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    why += "; chroot or a change of user id is not allowed here";
    return false;
  }
  return true;
}

IsolationInfo detect() {
  const char* forced_env = std::getenv("LINATTN_ISOLATION");
  const std::string forced = forced_env ? forced_env : "";
  if (!forced.empty() && forced != "namespaces" && forced != "chroot" && forced != "none")
    throw std::runtime_error("LINATTN_ISOLATION=" + forced + ": use namespaces, chroot or none");
  IsolationInfo info;
  if (forced == "none") {
    info.why = "LINATTN_ISOLATION=none asked for no sandbox";
    return info;
  }
  if (forced.empty() || forced == "namespaces") {
    if (probe_bwrap(info.why)) {
      info.layer = Layer::Namespaces;
      return info;
    }
    if (forced == "namespaces")
      throw std::runtime_error("LINATTN_ISOLATION=namespaces: " + info.why);
  }
  if (probe_chroot(info.why)) {
    info.layer = Layer::Chroot;
    info.why.clear();
    return info;
  }
  if (forced == "chroot")
    throw std::runtime_error("LINATTN_ISOLATION=chroot:" + info.why.substr(1));
  return info;
}

// Makes the parent folders of `inside` under `root` and puts `host` there: a hard link for a
// system library (readable by everyone already; its mode is never touched, since a hard link
// shares it with the host's file), a copy made readable for anything else (the runner, which
// lives in the judge's private cache).
void place_copy(const fs::path& root, const fs::path& host, const std::string& in,
                bool system_file) {
  const fs::path target = root / fs::path(in).relative_path();
  fs::create_directories(target.parent_path());
  std::error_code ec;
  if (system_file) {
    fs::create_hard_link(host, target, ec);
    if (!ec) return;
  }
  copy_program(host, target, 0555, ec);
  if (ec)
    throw std::runtime_error("cannot copy " + host.string() + " into the sandbox: " + ec.message());
}

// The chroot layer's scratch folder becomes a tmpfs of the quota's size where the judge may
// mount one (root with CAP_SYS_ADMIN): the kernel then refuses the write past the quota, and
// at most kScratchFiles files, during the run, instead of the judge finding gigabytes on the
// host's disk afterwards. Where it may not (a container without that capability), the folder
// stays on the host's disk and run_check watches it during the run (scratch_watch.hpp).
constexpr unsigned kScratchFiles = 4096;

void mount_scratch(const fs::path& scratch, std::uint64_t bytes, unsigned uid) {
  const std::string options = "size=" + std::to_string(bytes) +
                              ",nr_inodes=" + std::to_string(kScratchFiles) + ",mode=0700" +
                              ",uid=" + std::to_string(uid) + ",gid=" + std::to_string(uid);
  ::mount("linattn-scratch", scratch.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
          options.c_str());
}

}  // namespace

const IsolationInfo& isolation() {
  static const IsolationInfo info = detect();
  return info;
}

const char* layer_name(Layer layer) {
  switch (layer) {
    case Layer::Namespaces: return "namespaces";
    case Layer::Chroot: return "chroot";
    case Layer::None: return "none";
  }
  return "none";
}

std::string userns_restriction_hint(const fs::path& setting) {
  std::string value;
  if (!read_file(setting, value) || value.substr(0, 1) != "1") return "";
  return "This machine keeps user namespaces from programs without an AppArmor profile "
         "(kernel.apparmor_restrict_unprivileged_userns = 1, the default since Ubuntu 23.10), "
         "which is likely why bubblewrap cannot start (unless bwrap already has a profile): "
         "allow them with sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (a file "
         "in /etc/sysctl.d/ keeps it), or give /usr/bin/bwrap an AppArmor profile with the "
         "userns rule. ";
}

std::string how_to_enable_sandbox() {
  return userns_restriction_hint("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") +
         "To grade inside a sandbox, install bubblewrap (apt-get install bubblewrap) on a machine "
         "that allows user namespaces (sysctl kernel.unprivileged_userns_clone=1 where that "
         "setting exists; in Docker, run the container with --security-opt seccomp=unconfined "
         "or --cap-add SYS_ADMIN), or run the grader as root, which allows the chroot layer.";
}

const std::vector<std::pair<fs::path, std::string>>& runner_libraries() {
  static const std::vector<std::pair<fs::path, std::string>> libs = [] {
    std::vector<std::pair<fs::path, std::string>> found;
    // The loader, at the path every x86_64 program names, and the runtimes a runner links.
    found.emplace_back(fs::canonical(settings::kLoaderPath), settings::kLoaderPath);
    for (const char* name : {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6"}) {
      Limits limits;
      limits.wall_seconds = 30;
      const RunOutcome r =
          run_sandboxed({LINATTN_CXX, std::string("-print-file-name=") + name}, "/", limits);
      std::string path = r.output.substr(0, r.output.find('\n'));
      std::error_code ec;
      const fs::path real = fs::canonical(path, ec);
      if (ec || path.find('/') == std::string::npos)
        throw std::runtime_error(std::string("cannot find the runner library ") + name);
      found.emplace_back(real, std::string("/usr/lib/") + name);
    }
    return found;
  }();
  return libs;
}

std::string inside(const Jail& jail, const fs::path& host) {
  for (const auto& [file, in] : jail.read_only)
    if (file == host) return isolation().layer == Layer::None ? host.string() : in;
  if (isolation().layer != Layer::Namespaces) return host.string();
  const fs::path rel = host.lexically_relative(jail.work);
  if (rel.empty() || rel.native().rfind("..", 0) == 0) return host.string();
  return (fs::path(jail.toolchain ? kWorkInside : kScratchInside) / rel)
      .lexically_normal()
      .string();
}

Confinement confine(const Jail& jail, const std::vector<std::string>& argv, Limits& limits) {
  Confinement c;
  const Layer layer = isolation().layer;
  const std::vector<std::uint8_t>& program = seccomp_program(jail.purpose);
  if (layer != Layer::Namespaces) {
    // The sandbox's own child applies the filter just before it starts the program.
    limits.seccomp_program = program;
    limits.run_as_uid = worker_uid(jail.worker);
    if (layer == Layer::Chroot && !jail.toolchain) {
      limits.chroot_dir = jail.work.string();
      c.cwd = kScratchInside;
      limits.environment = {"LC_ALL=C"};
    } else {
      // No chroot here: Landlock keeps the program to /usr and its own folder, where the
      // kernel has it (a compiler under the chroot layer; anything under none).
      c.cwd = jail.work.string();
      c.landlock_fd = landlock_ruleset({"/usr"}, {jail.work.string()}, {"/dev/null"});
      limits.landlock_ruleset = c.landlock_fd.get();
      limits.environment = {"PATH=/usr/bin:/bin", "LC_ALL=C", "TMPDIR=" + jail.work.string()};
    }
    c.argv = argv;
    return c;
  }

  // bubblewrap reads the filter from a descriptor it is given.
  c.seccomp_fd = sealed_memory_file("linattn-seccomp", program);
  constexpr int kSeccompFdInChild = 9;
  limits.pass_fds.emplace_back(c.seccomp_fd.get(), kSeccompFdInChild);
  constexpr const char* kStartedFdInChild = "8";  // one digit: dash takes no more
  if (jail.toolchain) {
    c.started_fd = UniqueFd(::memfd_create("linattn-started", MFD_CLOEXEC));
    if (!c.started_fd)
      throw std::runtime_error("memfd_create: " + std::string(std::strerror(errno)));
    limits.pass_fds.emplace_back(c.started_fd.get(), std::atoi(kStartedFdInChild));
  }
  // bubblewrap itself starts under the worker's own id (a user namespace makes it "nobody"
  // inside): the id's process limit then holds inside too, which it would not for root.
  limits.run_as_uid = worker_uid(jail.worker);

  c.argv = bwrap_base(jail.toolchain);
  for (const auto& [host, in] : jail.read_only)
    c.argv.insert(c.argv.end(), {"--ro-bind", host.string(), in});
  if (jail.toolchain) {
    c.argv.insert(c.argv.end(), {"--bind", jail.work.string(), kWorkInside});
    c.argv.insert(c.argv.end(), {"--size", std::to_string(256ull << 20), "--tmpfs", "/tmp"});
    c.cwd = kWorkInside;
  } else {
    // A runner's scratch space: a tmpfs of its own, capped, gone with the namespace.
    c.argv.insert(c.argv.end(),
                  {"--size", std::to_string(jail.scratch_bytes), "--tmpfs", kScratchInside});
    c.cwd = kScratchInside;
  }
  c.argv.insert(c.argv.end(), {"--remount-ro", "/", "--chdir", c.cwd, "--seccomp",
                               std::to_string(kSeccompFdInChild), "--"});
  // The mark, then the tool without the mark's descriptor; a tool that is not there is the
  // machine's fault too, so the mark waits until the shell has found it.
  if (jail.toolchain)
    c.argv.insert(c.argv.end(),
                  {"/bin/sh", "-c",
                   std::string("command -v \"$1\" >/dev/null && printf started >&") +
                       kStartedFdInChild + " && exec \"$@\" " + kStartedFdInChild + ">&-",
                   "sh"});
  c.argv.insert(c.argv.end(), argv.begin(), argv.end());
  // That folder is the program's, inside; bubblewrap itself starts from the host's root, where
  // an inside path such as /work need not exist (Ubuntu's images have none).
  c.cwd = "/";
  return c;
}

bool tool_started(const Confinement& c) {
  if (!c.started_fd) return true;
  char mark[8];
  return ::pread(c.started_fd.get(), mark, sizeof mark, 0) > 0;
}

void unwrap_signal(RunOutcome& outcome) {
  if (isolation().layer != Layer::Namespaces || outcome.ending != RunOutcome::Ending::Exited)
    return;
  if (outcome.exit_code > 128 && outcome.exit_code < 128 + 65) {
    outcome.ending = RunOutcome::Ending::Signaled;
    outcome.signal = outcome.exit_code - 128;
  }
}

fs::path make_jail_folder(const Jail& jail) {
  std::string pattern = (fs::temp_directory_path() / "linattn-jail-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot make a private folder for a check");
  const fs::path folder = pattern;
  const unsigned uid = worker_uid(jail.worker);
  if (isolation().layer == Layer::Chroot && !jail.toolchain) {
    // The chroot's root belongs to root and is read-only to the runner; only /tmp is its own.
    if (::chmod(folder.c_str(), 0755) != 0)
      throw std::runtime_error("cannot open the runner's folder to its user id: " +
                               std::string(std::strerror(errno)));
    for (const auto& [host, in] : runner_libraries()) place_copy(folder, host, in, true);
    for (const auto& [host, in] : jail.read_only) place_copy(folder, host, in, false);
    const fs::path scratch = folder / "tmp";
    fs::create_directories(scratch);
    if (::chown(scratch.c_str(), uid, uid) != 0 || ::chmod(scratch.c_str(), 0700) != 0)
      throw std::runtime_error("cannot hand the scratch folder to the runner's user id");
    mount_scratch(scratch, jail.scratch_bytes, uid);
  } else if (uid != 0) {
    if (::chown(folder.c_str(), uid, uid) != 0)
      throw std::runtime_error("cannot hand the private folder to the sandbox's user id");
  }
  return folder;
}

void remove_jail_folder(const fs::path& folder) {
  // A runner's scratch in the chroot layer, if it was mounted (isolation.cpp, mount_scratch).
  ::umount2((folder / "tmp").c_str(), MNT_DETACH | UMOUNT_NOFOLLOW);
  std::error_code ec;
  fs::remove_all(folder, ec);
}

bool readable_by_sandbox(const fs::path& path) {
  if (isolation().layer != Layer::Chroot) return false;
  const unsigned uid = worker_uid(0);
  const std::string p = path.string();
  auto forks_apart = hold_forks_apart();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(2);
    ::_exit(::access(p.c_str(), R_OK) == 0 ? 0 : 1);
  }
  int status = 0;
  return pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

unsigned worker_uid(unsigned worker) { return ::geteuid() == 0 ? allocate_uid(worker) : 0; }

fs::path readable_copy(const Jail& jail, const fs::path& file) {
  // The chroot layer copies it into the chroot; bubblewrap can bind what our own id can read.
  // Otherwise (another id, or Landlock keeping the program to its folder) it goes in there.
  if (isolation().layer == Layer::Chroot ||
      (isolation().layer == Layer::Namespaces && worker_uid(jail.worker) == 0))
    return file;
  const fs::path copy = jail.work / ("bin-" + file.filename().string());
  std::error_code ec;
  copy_program(file, copy, 0555, ec);
  if (ec)
    throw std::runtime_error("cannot copy " + file.string() + " for the sandbox: " + ec.message());
  return copy;
}

namespace {

unsigned allocate_uid(unsigned worker) {
  static std::mutex mutex;
  static std::map<unsigned, unsigned> taken;  // worker -> id, held until the process ends
  std::lock_guard<std::mutex> lock(mutex);
  auto it = taken.find(worker);
  if (it != taken.end()) return it->second;
  // Each id is claimed by an exclusive lock on a file of its own; the lock lasts as long as
  // this process (the descriptor is never closed), and the kernel drops it when we end.
  const fs::path locks = settings::kUidLockFolder;
  fs::create_directories(locks);
  // Private to root: anyone else who could make files there could hold every id's lock.
  if (::chmod(locks.c_str(), 0700) != 0)
    throw std::runtime_error("cannot make " + locks.string() + " private: " + std::strerror(errno));
  const unsigned first = settings::kFirstRunnerUid, end = first + settings::kRunnerUidCount;
  for (unsigned id = first; id < end; ++id) {
    const fs::path file = locks / std::to_string(id);
    UniqueFd lock(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock.valid()) continue;
    if (::flock(lock.get(), LOCK_EX | LOCK_NB) == 0) {
      lock.release();  // held, never closed, for the life of the process
      taken[worker] = id;
      return id;
    }
  }
  throw std::runtime_error("no free user id for the sandbox in " + std::to_string(first) + ".." +
                           std::to_string(end - 1) + " (see sandbox_settings.hpp)");
}

}  // namespace

}  // namespace grader
