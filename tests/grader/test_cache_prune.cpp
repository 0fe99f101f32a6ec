// The build cache's pruning (build_cache.hpp, prune): a folder keeps its `keep` most recently
// used files, and of the rest removes only those unused for three hours, so that a build in
// progress, or one a grader running beside this one has just used, is never taken away.
#include "builder/build_cache.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// A file in `dir` last used `minutes` ago.
void file_used(const fs::path& dir, const std::string& name, int minutes) {
  std::ofstream(dir / name) << name;
  fs::last_write_time(dir / name, fs::file_time_type::clock::now() - std::chrono::minutes(minutes));
}

}  // namespace

TEST_CASE("cache prune: beyond the newest files, only those unused for three hours go") {
  const fs::path dir = fs::temp_directory_path() / ("cache-prune-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  file_used(dir, "new-a", 1);
  file_used(dir, "new-b", 2);
  file_used(dir, "two-and-a-half-hours", 150);
  file_used(dir, "three-and-a-half-hours", 210);
  file_used(dir, "a-day", 24 * 60);
  grader::build::prune(dir, 2);
  CHECK(fs::exists(dir / "new-a"));
  CHECK(fs::exists(dir / "new-b"));
  CHECK(fs::exists(dir / "two-and-a-half-hours"));  // beyond the two kept, but recent
  CHECK_FALSE(fs::exists(dir / "three-and-a-half-hours"));
  CHECK_FALSE(fs::exists(dir / "a-day"));
  // With room for every file, nothing goes, however old.
  file_used(dir, "a-week", 7 * 24 * 60);
  grader::build::prune(dir, 96);
  CHECK(fs::exists(dir / "a-week"));
  fs::remove_all(dir);
}
