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

MemoryFile::MemoryFile(const char* name)
    : name_(name), fd_(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING)) {
  if (!fd_.valid()) failed(name_, "make");
}

void MemoryFile::write(const void* bytes, std::size_t size) {
  const auto* at = static_cast<const char*>(bytes);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd_.get(), at + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failed(name_, "write");
    done += static_cast<std::size_t>(n);
  }
}

UniqueFd MemoryFile::sealed() && {
  // Unsealed, the program that reads it could rewrite it for the next reader; not rewound, it
  // would read nothing at all.
  if (::fcntl(fd_.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) !=
      0)
    failed(name_, "seal");
  if (::lseek(fd_.get(), 0, SEEK_SET) != 0) failed(name_, "rewind");
  return std::move(fd_);
}

UniqueFd sealed_memory_file(const char* name, const std::vector<std::uint8_t>& bytes) {
  MemoryFile file(name);
  file.write(bytes.data(), bytes.size());
  return std::move(file).sealed();
}

}  // namespace grader
