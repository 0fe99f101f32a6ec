// The one way the judge owns a file descriptor. A UniqueFd closes what it holds exactly once:
// when it goes out of scope, when it is given another descriptor, never after its descriptor
// has been moved to another UniqueFd or released. It cannot be copied, since two owners of
// one number would close it twice, and the second close could hit a descriptor that another
// thread opened under the same number in between.
//
// Not for the code between fork and exec (sandbox_supervisor.cpp, sandbox_program.cpp): there
// descriptors are plain ints on purpose, closed by hand, with nothing run on the way out.
#pragma once

#include <unistd.h>

#include <cerrno>

namespace grader {

class UniqueFd {
 public:
  UniqueFd() noexcept = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd < 0 ? -1 : fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  // Gives the descriptor up without closing it: the caller owns it now (a lock held for the
  // life of the process, say).
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

  // Closes what is held (keeping errno: a failed call's reason is often read after the
  // cleanup) and holds `fd` instead.
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0 && fd_ != fd) {
      const int saved = errno;
      ::close(fd_);
      errno = saved;
    }
    fd_ = fd < 0 ? -1 : fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace grader
