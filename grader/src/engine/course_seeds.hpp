// The course grader's own seeds. The student kit ships every visible check's inputs and
// expected values (recorded at the check's own seed), so a submission could carry a table of
// them. Course grading (grade-all, the Gradescope bundle, --course) therefore draws every
// check's seed from a secret key of the course instead: a check with random inputs gets inputs
// no student kit has seen, while a worked example (inputs fixed, whatever the seed) stays the
// seed text's own.
//
// The key lives in the kit's folder as `course-key` (never committed: .gitignore; never in a
// student kit: the release refuses). It is made on first use, and the Gradescope bundle
// carries it, so one release grades every submission with the same seeds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace grader {

// The key of the kit at `kit_dir`, made (128 random bits, hex) if it does not exist yet.
// Throws std::runtime_error if it can be neither read nor made.
std::string course_key(const std::filesystem::path& kit_dir);

// The seed the course grader uses for a check: a hash of the key, the check's full name and
// its own seed, in 1 .. 2^31 - 1.
std::uint64_t course_seed(const std::string& key, const std::string& exercise,
                          const std::string& check, std::uint64_t own_seed);

// Per-student seeds (an assignment's "seeds": "per-student"): the same hash with the student's
// id in it as well, so that no two students share a check's inputs, and one student gets the
// same inputs at every submission. The id is taken as given, blanks at its ends dropped.
std::uint64_t student_seed(const std::string& key, const std::string& student,
                           const std::string& exercise, const std::string& check,
                           std::uint64_t own_seed);

}  // namespace grader
