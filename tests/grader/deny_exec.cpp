// deny-exec: makes the kernel refuse to start COUNT programs whose names start with NAME on
// FOLDER's file system (the first COUNT, or those after the first ALLOW that it lets start), and
// starts everything else, so that a test can make a runner fail to start at a chosen moment (CI
// lost a correct check to "cannot run /runner: Text file busy", which no test could provoke on
// purpose). It asks fanotify to hold every start of a program file on that file system
// (FAN_OPEN_EXEC_PERM) until it answers; the refused start fails with EPERM.
//
// usage: deny-exec FOLDER NAME COUNT READY_FILE [ALLOW]
//   Writes READY_FILE once it holds the file system; runs until SIGTERM, then prints
//   "refused N" and "allowed M" (how many it refused, and let through first) and exits 0.
//   Root only (CAP_SYS_ADMIN); exits 77 where the kernel has no fanotify permission events.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace {

volatile sig_atomic_t stop = 0;

void on_term(int) { stop = 1; }

// The path of an event's descriptor, as this process sees it.
std::string path_of(int fd) {
  char link[64], path[4096];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = ::readlink(link, path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

// Whether the file's own name (the path's last part) starts with `name`.
bool named(const std::string& path, const std::string& name) {
  const std::size_t slash = path.rfind('/');
  return slash != std::string::npos && path.compare(slash + 1, name.size(), name) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: deny-exec FOLDER NAME COUNT READY_FILE [ALLOW]\n");
    return 2;
  }
  const std::string folder = argv[1], name = argv[2];
  const long count = std::atol(argv[3]);
  const long allow = argc == 6 ? std::atol(argv[5]) : 0;  // starts let through before refusing
  struct sigaction term {};
  term.sa_handler = on_term;
  ::sigaction(SIGTERM, &term, nullptr);

  const int fan = ::fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC);
  if (fan < 0 || ::fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_OPEN_EXEC_PERM,
                                 AT_FDCWD, folder.c_str()) != 0) {
    std::printf("SKIPPED: no fanotify permission events here (%s)\n", std::strerror(errno));
    return 77;
  }
  std::ofstream(argv[4]) << "ready\n";

  long refused = 0, allowed = 0;
  alignas(fanotify_event_metadata) char buffer[4096];
  while (!stop) {
    // Looks at `stop` at least every 200 ms: a SIGTERM that lands just before a blocking read
    // would otherwise wait for the next start of a program.
    pollfd ready{fan, POLLIN, 0};
    const int polled = ::poll(&ready, 1, 200);
    if (polled < 0 && errno != EINTR) break;
    if (polled <= 0) continue;
    const ssize_t n = ::read(fan, buffer, sizeof buffer);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      break;
    }
    auto* event = reinterpret_cast<fanotify_event_metadata*>(buffer);
    for (ssize_t left = n; FAN_EVENT_OK(event, left); event = FAN_EVENT_NEXT(event, left)) {
      if (event->fd < 0) continue;
      fanotify_response answer{event->fd, FAN_ALLOW};
      const std::string path = path_of(event->fd);
      if (named(path, name) && allowed < allow) {
        ++allowed;
      } else if (refused < count && named(path, name)) {
        answer.response = FAN_DENY;
        ++refused;
        std::printf("refused to start %s\n", path.c_str());
        std::fflush(stdout);
      }
      if (::write(fan, &answer, sizeof answer) != sizeof answer) std::perror("deny-exec: answer");
      ::close(event->fd);
    }
  }
  std::printf("refused %ld\nallowed %ld\n", refused, allowed);
  return 0;
}
