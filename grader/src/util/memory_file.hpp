// Bytes handed to another program through a descriptor, never through a path: an in-memory
// file (memfd), written, sealed and rewound. The request a runner reads on descriptor 3 and
// the seccomp filter bubblewrap reads are passed this way.
#pragma once

#include "unique_fd.hpp"

#include <cstdint>
#include <vector>

namespace grader {

// The file holds exactly `bytes`, read from offset 0; it is sealed against writing, growing,
// shrinking and further seals, so the program that reads it cannot change what it says, and
// it is close-on-exec (the sandbox passes it on by number). `name` shows in /proc. Throws
// std::runtime_error, saying which step failed, if any system call does.
UniqueFd sealed_memory_file(const char* name, const std::vector<std::uint8_t>& bytes);

}  // namespace grader
