// The command line of `./kit grade`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace grader {

struct Options {
  std::string submission;               // the folder to grade, as the user wrote it
  std::string only_exercise;            // --only EXERCISE[/CHECK]
  std::string only_check;
  std::optional<std::uint64_t> seed;    // --seed N
  std::string json_path, gradescope_path, junit_path;
  std::string classroom_path;           // --github-classroom FILE: GitHub Classroom's payload
  int jobs = 0;                         // --jobs N; 0 = one per core
  bool visible_only = false;            // --visible-only: skip hidden checks (student hand-out)
  bool quiet = false;                   // --quiet: no terminal report
  bool strict = false;                  // --strict: refuse to grade without a sandbox (course grading)
  bool course = false;                  // --course: the course's own seeds (course_seeds.hpp); implies --strict
  std::string replay_path;              // --replay FILE: expected values recorded by --record-oracle
};

// Parses argv (without the program name). On bad usage returns nullopt and fills `error`.
std::optional<Options> parse_options(int argc, char** argv, const std::string& default_submission,
                                     std::string& error);

extern const char* const kUsage;

}  // namespace grader
