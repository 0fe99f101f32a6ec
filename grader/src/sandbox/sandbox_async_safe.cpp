// The helpers the supervisor S and the program P share (sandbox_processes.hpp): raw system
// calls only, no allocation, no locks, so a fork of the multi-threaded judge may call them.
#include "sandbox_processes.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace grader::sandbox {

void write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void close_all_except(int* keep, int count) {
  std::sort(keep, keep + count);
  unsigned next = 3;
  for (int i = 0; i < count; ++i) {
    const int fd = keep[i];
    if (fd < static_cast<int>(next)) continue;
    if (static_cast<unsigned>(fd) > next) ::close_range(next, static_cast<unsigned>(fd) - 1, 0);
    next = static_cast<unsigned>(fd) + 1;
  }
  ::close_range(next, ~0U, 0);
}

}  // namespace grader::sandbox
