// Seeds of course grading (grader/src/engine/course_seeds.hpp): per-student seeds differ between
// students and between checks, never change for one student, and are not the course's.
#include "src/engine/course_seeds.hpp"

#include <doctest/doctest.h>

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
