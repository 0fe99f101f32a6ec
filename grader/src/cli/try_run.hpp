// ./kit try EXERCISE: the student's file and the exercise's scratch program (try.cpp, which
// the student may edit and which is never graded) built together in the sandbox, with the
// grader's flags and headers, and run there under a check's limits. What it prints is shown
// as it is (control characters escaped).
#pragma once

#include <filesystem>
#include <string>

namespace grader {

// Exit status: that of the program (0 when it ran to the end), 1 when it did not build or
// crashed, 2 for bad usage or a fault of the grader.
int run_try(const std::string& exercise, const std::filesystem::path& submission_dir);

}  // namespace grader
