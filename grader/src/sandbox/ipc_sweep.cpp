#include "ipc_sweep.hpp"

#include "program_copy.hpp"

#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace grader {

namespace {

// The ids in /proc/sysvipc/<kind> of the objects `uid` owns or created. The columns are found
// by the names in the file's first line ("shmid"/"msqid"/"semid", "uid", "cuid"), not by
// position: the tables differ per kind and have grown columns over kernel versions.
std::vector<int> ids_of(const char* kind, const char* id_column, unsigned uid) {
  std::ifstream in(std::string("/proc/sysvipc/") + kind);
  std::string line;
  if (!std::getline(in, line)) return {};
  std::istringstream header(line);
  int at_id = -1, at_uid = -1, at_cuid = -1;
  std::string name;
  for (int i = 0; header >> name; ++i) {
    if (name == id_column) at_id = i;
    if (name == "uid") at_uid = i;
    if (name == "cuid") at_cuid = i;
  }
  std::vector<int> ids;
  if (at_id < 0 || at_uid < 0 || at_cuid < 0) return ids;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::vector<std::string> cells;
    for (std::string cell; row >> cell;) cells.push_back(cell);
    const auto cell = [&](int i) {
      return i < static_cast<int>(cells.size()) ? std::stoul(cells[i]) : 0ul;
    };
    try {
      if (cell(at_uid) == uid || cell(at_cuid) == uid) ids.push_back(static_cast<int>(cell(at_id)));
    } catch (const std::exception&) {  // a row we cannot read names nobody
    }
  }
  return ids;
}

std::size_t count_of(unsigned uid) {
  return ids_of("shm", "shmid", uid).size() + ids_of("msg", "msqid", uid).size() +
         ids_of("sem", "semid", uid).size();
}

// Removes each object of `uid` it may; how many of them are left.
std::size_t remove_those_of(unsigned uid) {
  // A segment still attached somewhere is only marked and goes with its last detach; the
  // runner's processes have all been reaped by the time this runs, so that is now.
  for (int id : ids_of("shm", "shmid", uid)) ::shmctl(id, IPC_RMID, nullptr);
  for (int id : ids_of("msg", "msqid", uid)) ::msgctl(id, IPC_RMID, nullptr);
  for (int id : ids_of("sem", "semid", uid)) ::semctl(id, 0, IPC_RMID);
  return count_of(uid);
}

}  // namespace

unsigned remove_ipc_objects_of(unsigned uid) {
  if (uid == 0) return 0;
  const std::size_t there = count_of(uid);
  if (there == 0) return 0;  // the usual case (seccomp refuses the calls): no fork
  // IPC_RMID takes CAP_SYS_ADMIN or being the object's owner or creator (CAP_IPC_OWNER is not
  // enough): without that capability (a container), a child under the id removes the rest.
  if (remove_those_of(uid) > 0) {
    auto forks_apart = hold_forks_apart();
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (::setgid(uid) == 0 && ::setuid(uid) == 0) remove_those_of(uid);
      ::_exit(0);
    }
    if (pid > 0) ::waitpid(pid, nullptr, 0);
  }
  return static_cast<unsigned>(there - count_of(uid));
}

}  // namespace grader
