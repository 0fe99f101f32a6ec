// Shared by the builder and runner tests: fresh copies of fixture submissions.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace grader_test {

namespace fs = std::filesystem;

inline const fs::path fixtures{GRADER_FIXTURES_DIR};

// A new submission folder holding a copy of fixtures/<fixture>, with a unique comment added
// to every .cpp so that the builder's cache has never seen it: each test starts cold.
inline fs::path fresh_submission(const std::string& fixture) {
  static std::mt19937_64 rng(
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      static_cast<std::uint64_t>(::getpid()));
  const std::string nonce = std::to_string(rng());
  const fs::path dir = fs::temp_directory_path() / ("grader-test-" + fixture + "-" + nonce);
  fs::create_directories(dir);
  fs::copy(fixtures / fixture, dir, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".cpp")
      std::ofstream(entry.path(), std::ios::app) << "\n// nonce " << nonce << "\n";
  return dir;
}

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace grader_test
