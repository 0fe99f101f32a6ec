// A whole file's bytes, for the judge's own small reads (its cache, a tool's output in a stage
// folder, the kit's headers). Never for a submission's file: that goes through find_files.hpp's
// read_submission_file, which follows no link and reads at most kMaxSourceBytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

namespace grader {

// False if the file cannot be opened; `out` is then left as it was. The file's size, when it
// has one, sizes the buffer once: a kept oracle case is tens of MB, and a buffer grown by
// doubling (then copied out of a string stream) touched three times as many new pages.
inline bool read_file(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string bytes;
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(static_cast<std::size_t>(size));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
    bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
  out = std::move(bytes);
  return true;
}

}  // namespace grader
