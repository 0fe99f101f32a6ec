// Bytes handed to another program through a descriptor, never through a path: an in-memory
// file (memfd), written, sealed and rewound. The request a runner reads on descriptor 3 and
// the seccomp filter bubblewrap reads are passed this way.
#pragma once

#include "unique_fd.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace grader {

// An in-memory file written piece by piece (a large request straight from its parts, never
// gathered into one buffer first), then sealed as sealed_memory_file says. Each step throws
// std::runtime_error, saying which step failed, if a system call does.
class MemoryFile {
 public:
  explicit MemoryFile(const char* name);
  void write(const void* bytes, std::size_t size);
  // Sealed and rewound; the file can no longer be written.
  UniqueFd sealed() &&;

 private:
  const char* name_;
  UniqueFd fd_;
};

// The file holds exactly `bytes`, read from offset 0; it is sealed against writing, growing,
// shrinking and further seals, so the program that reads it cannot change what it says, and
// it is close-on-exec (the sandbox passes it on by number). `name` shows in /proc. Throws
// std::runtime_error, saying which step failed, if any system call does.
UniqueFd sealed_memory_file(const char* name, const std::vector<std::uint8_t>& bytes);

}  // namespace grader
