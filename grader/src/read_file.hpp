// A whole file's bytes, for the judge's own small reads.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace grader {

// False if the file cannot be opened; `out` is then left as it was.
inline bool read_file(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

}  // namespace grader
