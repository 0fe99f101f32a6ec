// The compiler the kit fixes at configure time (grader_config.hpp), as the builder runs it:
// its path inside the sandbox, what identifies it in a cache key, the flags and the Eigen
// folders every submission is compiled with, and the compiler's own include folders.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace grader::build {

// The compiler as a path that exists inside the sandbox.
const std::string& compiler();

// The compiler binary with size and time, for the object's key: an upgrade changes the key.
std::string compiler_identity();

std::vector<std::string> submission_flags();  // LINATTN_SUBMISSION_FLAGS, one per entry
std::vector<std::string> eigen_dirs();        // LINATTN_EIGEN_INCLUDE, one per entry

// The compiler's flags for a submission: the kit's standard and flags, Eigen as a system library.
std::vector<std::string> compile_flags();

// The compiler's own include directories (libstdc++, libc, ...), asked once per process.
const std::vector<std::filesystem::path>& system_include_dirs();

}  // namespace grader::build
