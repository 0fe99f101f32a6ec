#include "scratch_watch.hpp"

#include "../sandbox/program_copy.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace grader {

namespace {

// How often the folder is summed: at disk speed a runner writes some tens of MiB between looks.
constexpr auto kLookEvery = std::chrono::milliseconds(20);

// Kills every process of `uid`: a child takes that id and signals all it may (kill(-1, ...)),
// which are exactly the processes running under it.
void kill_all_of(unsigned uid) {
  auto forks_apart = hold_forks_apart();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(uid) == 0 && ::setuid(uid) == 0) ::kill(-1, SIGKILL);
    ::_exit(0);
  }
  if (pid > 0) {
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
}

// The names in a folder (of /proc), without "." and "..".
template <typename Each>
void each_entry(int dir_fd, Each each) {
  DIR* dir = ::fdopendir(dir_fd);  // takes the descriptor
  if (!dir) {
    ::close(dir_fd);
    return;
  }
  while (const dirent* e = ::readdir(dir))
    if (e->d_name[0] != '.') each(::dirfd(dir), e->d_name);
  ::closedir(dir);
}

// The files on `dev` that the link `name` in `links` (a /proc/<pid>/fd or map_files folder)
// points to, if deleted, added to `held` once each. A map_files link the judge may not follow
// (that takes CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE, which a container may lack) is read
// instead: one into the scratch folder marked deleted counts as `unmeasured` bytes.
void add_if_deleted(int links, const char* name, dev_t dev, const std::string& scratch,
                    std::uint64_t unmeasured, HeldFiles& held) {
  struct stat st {};
  if (::fstatat(links, name, &st, 0) == 0) {
    if (st.st_dev == dev && st.st_nlink == 0 && held.seen.insert(st.st_ino).second)
      held.bytes += static_cast<std::uint64_t>(st.st_blocks) * 512;
    return;
  }
  if (errno != EPERM) return;
  char target[4096];
  const ssize_t n = ::readlinkat(links, name, target, sizeof target - 1);
  if (n <= 0) return;
  const std::string path(target, static_cast<std::size_t>(n));
  const std::string mark = " (deleted)";
  if (path.rfind(scratch + "/", 0) == 0 && path.size() > mark.size() &&
      path.compare(path.size() - mark.size(), mark.size(), mark) == 0 &&
      held.unmeasured.insert(path).second)
    held.bytes += unmeasured;
}

// Switches the calling thread's file-system ids (never the process's: glibc's setfsuid is the
// bare call) to `uid` and back. Under them the judge reads /proc/<pid>/fd of that id's
// processes as their owner, which takes no CAP_SYS_PTRACE (Docker drops it); a runner cannot
// make itself undumpable to refuse that (seccomp_filter.cpp).
struct FsIds {
  explicit FsIds(unsigned id) {
    ::syscall(SYS_setfsgid, id);
    ::syscall(SYS_setfsuid, id);
  }
  ~FsIds() {
    ::syscall(SYS_setfsuid, 0);
    ::syscall(SYS_setfsgid, 0);
  }
  FsIds(const FsIds&) = delete;
  FsIds& operator=(const FsIds&) = delete;
};

}  // namespace

HeldFiles held_deleted_files(unsigned uid, const std::filesystem::path& scratch,
                             std::uint64_t unmeasured, std::vector<std::string>* known) {
  HeldFiles held;
  struct stat folder {};
  if (::stat(scratch.c_str(), &folder) != 0) return held;
  const FsIds as_owner(uid);
  const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) return held;
  std::vector<std::string> found;
  std::vector<std::string>& pids = known ? *known : found;
  if (pids.empty()) {
    each_entry(::dup(proc), [&](int, const char* pid) {
      struct stat st {};
      // /proc/<pid> belongs to the process's user id (it stays dumpable, see FsIds).
      if (pid[0] >= '0' && pid[0] <= '9' && ::fstatat(proc, pid, &st, 0) == 0 && st.st_uid == uid)
        pids.emplace_back(pid);
    });
  }
  // A pid of another id by now (reused) shows nothing: its folders are closed to `uid`.
  for (const std::string& pid : pids) {
    for (const char* kind : {"/fd", "/map_files"}) {
      const int links = ::openat(proc, (pid + kind).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (links < 0) continue;
      each_entry(links, [&](int dir, const char* name) {
        add_if_deleted(dir, name, folder.st_dev, scratch.string(), unmeasured, held);
      });
    }
  }
  ::close(proc);
  return held;
}

std::uint64_t bytes_under(const std::filesystem::path& dir) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0)
      total += static_cast<std::uint64_t>(st.st_blocks) * 512;
  }
  return total;
}

ScratchWatch::ScratchWatch(std::filesystem::path scratch, std::uint64_t quota_bytes, unsigned uid,
                           std::uint64_t largest_file_bytes)
    : scratch_(std::move(scratch)),
      quota_(quota_bytes),
      uid_(uid),
      largest_file_(largest_file_bytes) {
  struct stat folder {
  }, parent{};
  if (uid_ == 0 || ::stat(scratch_.c_str(), &folder) != 0 ||
      ::stat(scratch_.parent_path().c_str(), &parent) != 0 || folder.st_dev != parent.st_dev)
    return;  // nobody to stop, or a mount of its own that the kernel caps
  thread_ = std::thread([this] { watch(); });
}

ScratchWatch::~ScratchWatch() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void ScratchWatch::watch() {
  std::vector<std::string> pids;
  for (unsigned look = 0; !stop_.load(); ++look) {
    // A runner cannot fork (seccomp): its process, once found, is looked at again without a
    // walk of all of /proc (a few hundred entries), which is done again every tenth look.
    if (look % 10 == 0) pids.clear();
    // What the folder shows, and what the runner holds open or mapped after deleting it: both
    // are on the host's disk until the runner ends (16 such files held 960 MiB unseen).
    const std::uint64_t held = held_deleted_files(uid_, scratch_, largest_file_, &pids).bytes;
    if (bytes_under(scratch_) + held > quota_) {
      tripped_.store(true);
      kill_all_of(uid_);
      return;
    }
    std::this_thread::sleep_for(kLookEvery);
  }
}

}  // namespace grader
