// A content hash for caches and stamps: 64-bit FNV-1a over bytes, shown as 16 hex digits.
// Not cryptographic; it only has to tell apart the files one kit sees.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace grader {

class ContentHash {
 public:
  ContentHash& add(const std::string& bytes) {
    for (unsigned char c : bytes) {
      state_ ^= c;
      state_ *= 0x100000001b3ULL;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    state_ ^= 0xff;
    state_ *= 0x100000001b3ULL;
    return *this;
  }
  // The file's bytes, or a marker that it is missing.
  ContentHash& add_file(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return add("<missing>");
    return add(std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(state_));
    return buf;
  }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

}  // namespace grader
