// A whole file's bytes, for the judge's own small reads (its cache, a tool's output in a stage
// folder, the kit's headers). Never for a submission's file: that goes through find_files.hpp's
// read_submission_file, which follows no link and reads at most kMaxSourceBytes.
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
