// The one owner of a descriptor (unique_fd.hpp) and the sealed memory file built on it
// (memory_file.hpp): a descriptor is closed exactly once, and a memory file handed to another
// program holds what was written, from its start, and cannot be changed. And the judge's reads of
// whole files of its own: read_file.hpp, which sizes its buffer by the file's size, and
// mapped_file.hpp.
#include "src/util/mapped_file.hpp"
#include "src/util/memory_file.hpp"
#include "src/util/read_file.hpp"
#include "src/util/unique_fd.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <type_traits>
#include <utility>

using grader::UniqueFd;

static_assert(!std::is_copy_constructible<UniqueFd>::value, "two owners would close it twice");
static_assert(!std::is_copy_assignable<UniqueFd>::value, "two owners would close it twice");
static_assert(std::is_nothrow_move_constructible<UniqueFd>::value, "moved, never copied");
static_assert(std::is_nothrow_move_assignable<UniqueFd>::value, "moved, never copied");

namespace {

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

// A descriptor of our own to watch (a pipe's read end; the write end is closed here).
int fresh_fd() {
  int ends[2];
  REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  ::close(ends[1]);
  return ends[0];
}

}  // namespace

TEST_CASE("unique fd: closes once, on scope exit, and not after a move") {
  const int raw = fresh_fd();
  {
    UniqueFd first(raw);
    CHECK(first.get() == raw);
    UniqueFd second(std::move(first));
    CHECK_FALSE(first.valid());
    CHECK(second.get() == raw);
    UniqueFd third;
    third = std::move(second);
    CHECK_FALSE(second.valid());
    CHECK(is_open(raw));  // nothing was closed by the moves
    // first and second, empty now, must not close anything on their way out: a number reused
    // in between would be someone else's descriptor. Take that number back at once and see.
  }
  CHECK_FALSE(is_open(raw));  // closed by third
  const int reused = fresh_fd();
  {
    UniqueFd empty;
    UniqueFd moved_from(reused);
    UniqueFd keeper(std::move(moved_from));
    keeper.release();  // given up: its owner is the caller now
  }
  CHECK(is_open(reused));  // neither the empty, the moved-from nor the released one closed it
  ::close(reused);
}

TEST_CASE("unique fd: reset closes the old descriptor, not the one it is given") {
  const int a = fresh_fd();
  const int b = fresh_fd();
  UniqueFd fd(a);
  fd.reset(b);
  CHECK_FALSE(is_open(a));
  CHECK(fd.get() == b);
  fd.reset(b);  // the same descriptor again is not closed
  CHECK(is_open(b));
  fd.reset();
  CHECK_FALSE(is_open(b));
}

TEST_CASE("memory file: sealed, rewound, holding exactly the bytes") {
  const std::vector<std::uint8_t> bytes = {'r', 'e', 'q', 0, 0xff, 'x'};
  const UniqueFd fd = grader::sealed_memory_file("linattn-test", bytes);
  REQUIRE(fd.valid());
  const int seals = ::fcntl(fd.get(), F_GET_SEALS);
  CHECK((seals & F_SEAL_WRITE) != 0);
  CHECK((seals & F_SEAL_SHRINK) != 0);
  CHECK((seals & F_SEAL_GROW) != 0);
  CHECK((seals & F_SEAL_SEAL) != 0);
  CHECK((::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC) != 0);
  std::vector<std::uint8_t> back(bytes.size() + 4);
  CHECK(::read(fd.get(), back.data(), back.size()) == static_cast<ssize_t>(bytes.size()));
  back.resize(bytes.size());
  CHECK(back == bytes);
  // What a runner would try: writing over it, or cutting it short.
  CHECK(::pwrite(fd.get(), "X", 1, 0) == -1);
  CHECK(::ftruncate(fd.get(), 0) == -1);
}

TEST_CASE("memory file: written piece by piece, it holds the pieces in order, sealed") {
  grader::MemoryFile file("linattn-test-pieces");
  file.write("head|", 5);
  const std::vector<std::uint8_t> big(200000, 0xab);  // more than one write of a pipe's size
  file.write(big.data(), big.size());
  file.write("", 0);
  file.write("|tail", 5);
  const UniqueFd fd = std::move(file).sealed();
  REQUIRE(fd.valid());
  CHECK((::fcntl(fd.get(), F_GET_SEALS) & F_SEAL_WRITE) != 0);
  std::string back(5 + big.size() + 5 + 1, '\0');
  std::size_t got = 0;
  for (ssize_t n; (n = ::read(fd.get(), &back[got], back.size() - got)) > 0;)
    got += static_cast<std::size_t>(n);
  CHECK(got == 5 + big.size() + 5);
  back.resize(got);
  CHECK(back.substr(0, 5) == "head|");
  CHECK(back.substr(5, big.size()) == std::string(big.size(), static_cast<char>(0xab)));
  CHECK(back.substr(5 + big.size()) == "|tail");
  CHECK(::pwrite(fd.get(), "X", 1, 0) == -1);
}

TEST_CASE("read file: every byte of a file over one chunk, and of one that states no size") {
  char name[] = "/tmp/linattn-read-file-XXXXXX";
  const int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::string bytes;
  for (unsigned i = 0; i < 300000; ++i) bytes.push_back(static_cast<char>(i % 251));
  bytes[1000] = '\0';
  std::ofstream(name, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
  std::string back = "left over";
  CHECK(grader::read_file(name, back));
  CHECK(back.size() == bytes.size());
  CHECK(back == bytes);
  std::remove(name);
  // Gone: false, and what `back` held stays.
  CHECK_FALSE(grader::read_file(name, back));
  CHECK(back == bytes);
  // /proc's files say their size is 0 and still have bytes.
  std::string status;
  CHECK(grader::read_file("/proc/self/status", status));
  CHECK(status.find("Pid:") != std::string::npos);
}

TEST_CASE("mapped file: a file's every byte, and nothing for a missing, empty or odd file") {
  char name[] = "/tmp/linattn-mapped-file-XXXXXX";
  const int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  ::close(fd);
  CHECK_FALSE(grader::MappedFile(name).valid());  // empty
  std::string bytes(70000, 'x');
  bytes[0] = '\0';
  bytes.back() = 'z';
  std::ofstream(name, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
  {
    const grader::MappedFile mapped(name);
    REQUIRE(mapped.valid());
    CHECK(mapped.size() == bytes.size());
    CHECK(std::string(reinterpret_cast<const char*>(mapped.data()), mapped.size()) == bytes);
  }
  std::remove(name);
  CHECK_FALSE(grader::MappedFile(name).valid());
  CHECK_FALSE(grader::MappedFile("/tmp").valid());
}
