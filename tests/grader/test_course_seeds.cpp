// Seeds of course grading (grader/src/engine/course_seeds.hpp): per-student seeds differ between
// students and between checks, never change for one student, and are not the course's.
#include "src/engine/course_seeds.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

TEST_CASE("seeds: per-student seeds are each student's own, and the same at every submission") {
  const std::string key = "0123456789abcdef0123456789abcdef";
  using grader::student_seed;
  const auto alice = student_seed(key, "alice", "memory", "read/square-state", 1);
  CHECK(alice == student_seed(key, "alice", "memory", "read/square-state", 1));
  CHECK(alice ==
        student_seed(key, "  alice\n", "memory", "read/square-state", 1));  // blanks at the ends
  CHECK(alice != student_seed(key, "bob", "memory", "read/square-state", 1));
  CHECK(alice != student_seed(key, "alice", "memory", "read/orientation", 1));
  CHECK(alice != student_seed(key, "alice", "memory", "read/square-state", 2));
  CHECK(alice != student_seed("fedcba9876543210fedcba9876543210", "alice", "memory",
                              "read/square-state", 1));
  CHECK(alice != grader::course_seed(key, "memory", "read/square-state", 1));
  // A class's seeds for one check: all different (200 students), all in 1 .. 2^31 - 1.
  std::set<std::uint64_t> seen;
  for (int s = 0; s < 200; ++s) {
    const auto seed = student_seed(key, "s" + std::to_string(s), "causal", "recurrent/random", 7);
    CHECK(seed >= 1);
    CHECK(seed <= 0x7fffffffu);
    seen.insert(seed);
  }
  CHECK(seen.size() == 200);
}

TEST_CASE("seeds: the course key is made once, 128 bits in hex, readable by its owner only") {
  namespace fs = std::filesystem;
  const fs::path kit =
      fs::temp_directory_path() / ("course-key-test-" + std::to_string(::getpid()));
  fs::remove_all(kit);
  fs::create_directories(kit);
  const std::string key = grader::course_key(kit);  // made here: there is none yet
  CHECK(key.size() == 32);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  REQUIRE(fs::exists(kit / "course-key"));
  const fs::perms owner_only = fs::perms::owner_read | fs::perms::owner_write;
  CHECK((fs::status(kit / "course-key").permissions() & fs::perms::all) == owner_only);
  CHECK(grader::course_key(kit) == key);  // read back, not made again
  fs::remove_all(kit);
}
