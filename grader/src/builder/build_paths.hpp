// Paths as the builder compares them. What the compiler prints and what the kit holds are
// matched after resolving links and dots; "under a folder" means strictly below it, never a
// sibling that happens to share its prefix (/x/include2 is not under /x/include).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace grader::build {

inline std::filesystem::path normal(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

inline bool is_under(const std::filesystem::path& file, const std::filesystem::path& dir) {
  const std::string f = file.string(), d = dir.string();
  return f.size() > d.size() && f.compare(0, d.size(), d) == 0 &&
         (d.back() == '/' || f[d.size()] == '/');
}

}  // namespace grader::build
