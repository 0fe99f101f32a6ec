// The chroot layer's scratch quota holds during the run, not only when the judge looks after
// it: the folder is a tmpfs of the quota's size where the judge may mount one, and a watcher
// stops the runner's user id at the quota where it may not (issue 23: 3.75 GiB of the host's
// /tmp, 60 times the quota, in one check). Both need root: the ids and the mount are root's.
#include "sandbox/isolation.hpp"
#include "src/engine/scratch_watch.hpp"

#include "../skip.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace grader;

namespace {

constexpr std::uint64_t MiB = 1u << 20;

// In a child under `uid`, in `dir`: writes up to `limit_mib` files of 1 MiB (pausing a
// moment after each, so that the whole run takes a second or more), stopping at the first
// write that fails. Returns the child's wait status.
int flood_as(unsigned uid, const fs::path& dir, int limit_mib) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0 || ::chdir(dir.c_str()) != 0) ::_exit(3);
    static char block[1 << 20];
    for (int i = 0; i < limit_mib; ++i) {
      const std::string name = "f" + std::to_string(i);
      const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd < 0) ::_exit(1);
      const bool whole = ::write(fd, block, sizeof block) == static_cast<ssize_t>(sizeof block);
      ::close(fd);
      if (!whole) ::_exit(1);
      ::usleep(2000);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

// Whether this process may mount a tmpfs at all (root with CAP_SYS_ADMIN).
bool can_mount_tmpfs() {
  char pattern[] = "/tmp/linattn-mount-probe-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return false;
  const bool mounted = ::mount("probe", pattern, "tmpfs", 0, "size=1m") == 0;
  if (mounted) ::umount2(pattern, MNT_DETACH);
  ::rmdir(pattern);
  return mounted;
}

}  // namespace

TEST_CASE("scratch quota: the chroot layer's scratch folder is a tmpfs of the quota's size") {
  if (::geteuid() != 0) return grader_test::skip_test("needs root (the chroot layer)");
  ::setenv("LINATTN_ISOLATION", "chroot", 1);
  REQUIRE(isolation().layer == Layer::Chroot);
  Jail jail;
  jail.purpose = FilterPurpose::Runner;
  jail.scratch_bytes = 8 * MiB;
  const fs::path folder = make_jail_folder(jail);
  const fs::path scratch = folder / "tmp";
  struct stat inner {
  }, outer{};
  REQUIRE(::stat(scratch.c_str(), &inner) == 0);
  REQUIRE(::stat(folder.c_str(), &outer) == 0);
  if (inner.st_dev == outer.st_dev && !can_mount_tmpfs()) {
    remove_jail_folder(folder);
    return grader_test::skip_test(
        "no tmpfs can be mounted here (no CAP_SYS_ADMIN): the ScratchWatch holds the quota");
  }
  REQUIRE(inner.st_dev != outer.st_dev);  // a mount of its own
  const int status = flood_as(worker_uid(0), scratch, 64);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);  // a write failed: the folder was full
  CHECK(bytes_under(scratch) <= 8 * MiB);
  remove_jail_folder(folder);
  CHECK(!fs::exists(folder));
}

TEST_CASE(
    "scratch quota: where nothing caps the folder, the watcher stops the runner's id at the "
    "quota") {
  if (::geteuid() != 0) return grader_test::skip_test("needs root (a user id of the runner's own)");
  char pattern[] = "/tmp/linattn-scratch-watch-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const fs::path dir = pattern;
  const unsigned uid = worker_uid(0);
  REQUIRE(::chown(dir.c_str(), uid, uid) == 0);
  int status = 0;
  bool tripped = false;
  {
    ScratchWatch watch(dir, 16 * MiB, uid, 64 * MiB);
    status = flood_as(uid, dir, 512);  // unbounded, 512 MiB would go in
    tripped = watch.tripped();
  }
  const std::uint64_t left = bytes_under(dir);
  fs::remove_all(dir);
  CHECK(tripped);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  INFO("the folder held " << left / MiB << " MiB when the writer stopped");
  CHECK(left < 512 * MiB);
}

namespace {

// In a child under `uid`, in `dir`: makes `files` files of `mib` MiB each and deletes every
// one at once, keeping it open (or, with `mapped`, mapping its first page and closing it), so
// that the folder shows nothing while the disk holds it all; then waits to be killed (at most
// 20 s). Returns the child's wait status. Dumpable, as a runner is once exec'd under its id (a
// change of id from root clears the flag; an exec of a program the id may read sets it again).
int hold_deleted_as(unsigned uid, const fs::path& dir, int files, int mib, bool mapped) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0 || ::chdir(dir.c_str()) != 0 ||
        ::prctl(PR_SET_DUMPABLE, 1) != 0)
      ::_exit(3);
    static char block[1 << 20];
    for (int f = 0; f < files; ++f) {
      const std::string name = "held" + std::to_string(f);
      const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
      if (fd < 0 || ::unlink(name.c_str()) != 0) ::_exit(1);
      for (int i = 0; i < mib; ++i)
        if (::write(fd, block, sizeof block) != static_cast<ssize_t>(sizeof block)) ::_exit(1);
      if (mapped) {
        if (::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED) ::_exit(1);
        ::close(fd);
      }
    }
    ::sleep(20);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace

// Without a tmpfs, files deleted while open or mapped are on the host's disk but not in the
// folder: 16 of them held 960 MiB against a 64 MiB quota, unseen (issue 31). The watcher
// counts what the runner's processes hold, so it stops them as it stops a visible flood.
TEST_CASE("scratch quota: files deleted while open or mapped count, and the watcher stops them") {
  if (::geteuid() != 0) return grader_test::skip_test("needs root (a user id of the runner's own)");
  for (const bool mapped : {false, true}) {
    CAPTURE(mapped);
    char pattern[] = "/tmp/linattn-scratch-held-XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    const fs::path dir = pattern;
    const unsigned uid = worker_uid(0);
    REQUIRE(::chown(dir.c_str(), uid, uid) == 0);
    int status = 0;
    bool tripped = false;
    {
      ScratchWatch watch(dir, 16 * MiB, uid, 64 * MiB);
      status = hold_deleted_as(uid, dir, 4, 8, mapped);  // 32 MiB held, none of it shown
      tripped = watch.tripped();
    }
    fs::remove_all(dir);
    CHECK(tripped);
    CHECK(WIFSIGNALED(status));  // killed, not left to sleep out its 20 s
  }
}

TEST_CASE("scratch quota: what a process holds deleted is measured once per file") {
  if (::geteuid() != 0) return grader_test::skip_test("needs root (a user id of the runner's own)");
  char pattern[] = "/tmp/linattn-scratch-held-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const fs::path dir = pattern;
  const unsigned uid = worker_uid(0);
  REQUIRE(::chown(dir.c_str(), uid, uid) == 0);
  // No watcher: the child holds its 3 x 2 MiB until killed, and the count is taken meanwhile.
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(hold_deleted_as(uid, dir, 3, 2, false) == 0 ? 0 : 1);
  HeldFiles held;
  for (int tries = 0; tries < 200 && held.bytes < 6 * MiB; ++tries) {
    ::usleep(20000);
    held = held_deleted_files(uid, dir, 64 * MiB);
  }
  CHECK(held.bytes >= 6 * MiB);
  CHECK(held.bytes < 7 * MiB);    // three files, each once
  CHECK(bytes_under(dir) < MiB);  // the folder itself shows none of it
  // Not the holder's id: nothing.
  CHECK(held_deleted_files(65533, dir, 64 * MiB).bytes == 0);
  // The grandchild holds them under `uid`: end it (and its parent) the way the watcher does.
  const pid_t killer = ::fork();
  if (killer == 0) {
    if (::setgid(uid) == 0 && ::setuid(uid) == 0) ::kill(-1, SIGKILL);
    ::_exit(0);
  }
  ::waitpid(killer, nullptr, 0);
  ::waitpid(pid, nullptr, 0);
  fs::remove_all(dir);
}
