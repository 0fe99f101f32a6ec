#include "program_copy.hpp"

#include <sys/stat.h>

namespace grader {
namespace {

std::shared_mutex& copies_and_forks() {
  static std::shared_mutex m;
  return m;
}

}  // namespace

std::unique_lock<std::shared_mutex> hold_forks_apart() {
  return std::unique_lock<std::shared_mutex>(copies_and_forks());
}

void copy_program(const std::filesystem::path& from, const std::filesystem::path& to, unsigned mode,
                  std::error_code& ec) {
  std::shared_lock<std::shared_mutex> copying(copies_and_forks());
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
  if (!ec && ::chmod(to.c_str(), mode) != 0) ec = std::error_code(errno, std::generic_category());
}

}  // namespace grader
