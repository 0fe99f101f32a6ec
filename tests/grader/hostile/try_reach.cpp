// Tries one way out of the sandbox and exits with the errno it got (0: it got through).
//   try_reach open PATH     open a file for reading
//   try_reach socket        make an IPv4 socket
//   try_reach fork          fork a child
//   try_reach unshare       unshare(0): a no-op the kernel allows, unless a filter refuses the call
//   try_reach setns         setns(-1, 0): EBADF from the kernel, EPERM when a filter refuses it
//   try_reach env NAME      exits 1 when the variable NAME is set in its environment, 0 when not
//   try_reach shmget|msgget|semget   make a private System V object (removed again if made)
//   try_reach mq_open       make a POSIX message queue (removed again if made)
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 2) return 100;
  const char* what = argv[1];
  if (std::strcmp(what, "open") == 0 && argc > 2) {
    const int fd = ::open(argv[2], O_RDONLY);
    return fd >= 0 ? 0 : errno;
  }
  if (std::strcmp(what, "socket") == 0) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    return fd >= 0 ? 0 : errno;
  }
  if (std::strcmp(what, "fork") == 0) {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    if (pid > 0) ::waitpid(pid, nullptr, 0);
    return pid >= 0 ? 0 : errno;
  }
  if (std::strcmp(what, "unshare") == 0) return ::unshare(0) == 0 ? 0 : errno;
  if (std::strcmp(what, "setns") == 0) return ::setns(-1, 0) == 0 ? 0 : errno;
  if (std::strcmp(what, "env") == 0 && argc > 2) return std::getenv(argv[2]) ? 1 : 0;
  if (std::strcmp(what, "shmget") == 0) {
    const int id = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    if (id < 0) return errno;
    ::shmctl(id, IPC_RMID, nullptr);
    return 0;
  }
  if (std::strcmp(what, "msgget") == 0) {
    const int id = ::msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    if (id < 0) return errno;
    ::msgctl(id, IPC_RMID, nullptr);
    return 0;
  }
  if (std::strcmp(what, "semget") == 0) {
    const int id = ::semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
    if (id < 0) return errno;
    ::semctl(id, 0, IPC_RMID);
    return 0;
  }
  if (std::strcmp(what, "mq_open") == 0) {
    const mqd_t q = ::mq_open("/linattn-try-reach", O_RDWR | O_CREAT, 0600, nullptr);
    if (q == static_cast<mqd_t>(-1)) return errno;
    ::mq_close(q);
    ::mq_unlink("/linattn-try-reach");
    return 0;
  }
  return 100;
}
