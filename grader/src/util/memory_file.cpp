#include "memory_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace grader {

namespace {

[[noreturn]] void failed(const char* name, const char* step) {
  throw std::runtime_error(std::string("cannot ") + step + " the memory file " + name + ": " +
                           std::strerror(errno));
}

}  // namespace

UniqueFd sealed_memory_file(const char* name, const std::vector<std::uint8_t>& bytes) {
  UniqueFd fd(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd.valid()) failed(name, "make");
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failed(name, "write");
    done += static_cast<std::size_t>(n);
  }
  // Unsealed, the program that reads it could rewrite it for the next reader; not rewound, it
  // would read nothing at all.
  if (::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    failed(name, "seal");
  if (::lseek(fd.get(), 0, SEEK_SET) != 0) failed(name, "rewind");
  return fd;
}

}  // namespace grader
