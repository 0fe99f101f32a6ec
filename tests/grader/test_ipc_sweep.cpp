// The second wall against System V IPC (ipc_sweep.hpp): after a run outside bubblewrap, every
// object the worker's user id owns or made is removed, and nobody else's. The objects are made
// here in a child under that id, without the seccomp filter that would refuse them to a runner.
#include "sandbox/ipc_sweep.hpp"
#include "sandbox/isolation.hpp"

#include "../skip.hpp"

#include <doctest/doctest.h>

#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

using namespace grader;

namespace {

// Rows of /proc/sysvipc/<kind> whose uid (column `uid_at`, counted from 0) is `uid`.
int objects_of(const char* kind, int uid_at, unsigned uid) {
  std::ifstream in(std::string("/proc/sysvipc/") + kind);
  std::string line;
  std::getline(in, line);  // the header
  int count = 0;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    for (int i = 0; i <= uid_at && row >> cell; ++i) {
    }
    count += cell == std::to_string(uid);
  }
  return count;
}

// All three kinds: the uid column is the 8th of shm, the 8th of msg, the 5th of sem.
int all_objects_of(unsigned uid) {
  return objects_of("shm", 7, uid) + objects_of("msg", 7, uid) + objects_of("sem", 4, uid);
}

}  // namespace

TEST_CASE("IPC sweep: every System V object of the worker's id goes, and only those") {
  if (::geteuid() != 0) return grader_test::skip_test("needs root (a user id of the runner's own)");
  const unsigned uid = worker_uid(0);
  REQUIRE(uid != 0);
  remove_ipc_objects_of(uid);  // a clean start, whatever an earlier run left
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(3);
    // Two segments (one attached when the child ends), a queue holding a message, a semaphore set.
    const int a = ::shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
    const int b = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    const int q = ::msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    struct {
      long type;
      char text[8];
    } message{1, "memo"};
    const int s = ::semget(IPC_PRIVATE, 2, IPC_CREAT | 0600);
    const bool all = a >= 0 && b >= 0 && q >= 0 && s >= 0 && ::shmat(a, nullptr, 0) != (void*)-1 &&
                     ::msgsnd(q, &message, sizeof message.text, 0) == 0;
    ::_exit(all ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  // Someone else's segment (the judge's own id here): left alone.
  const int others = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
  REQUIRE(others >= 0);
  CHECK(all_objects_of(uid) == 4);  // they outlived the process that made them

  CHECK(remove_ipc_objects_of(uid) == 4);
  CHECK(all_objects_of(uid) == 0);
  shmid_ds info{};
  CHECK(::shmctl(others, IPC_STAT, &info) == 0);  // still there
  ::shmctl(others, IPC_RMID, nullptr);
  CHECK(remove_ipc_objects_of(0) == 0);  // never root's
}
