// Grading submissions: choose the checks, build each exercise's runner, run the checks in
// parallel, add up the scores. Nothing here runs student code in this process.
#pragma once

#include "../report/report.hpp"
#include "../util/find_files.hpp"
#include "options.hpp"

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

// Bad usage the user can fix (an unknown exercise or check, a missing folder): exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Called now and then from the worker threads: phase ("building", "checking"), done, total.
using Progress = std::function<void(const char* phase, std::size_t done, std::size_t total)>;

// Grades the submissions (one, or many for batch grading): every build of every submission in
// one pool, then every check in another, so both cores stay busy. options.submission is ignored.
// `found`, when given (one map per submission, by exercise, or null), holds the files the finder
// already took and read (grade-all reads each once, for its stamps and its similarity pass
// too); it must outlive the call. An exercise not in it is found here.
// `students` (one per submission, or empty) names whose seeds each submission gets when course
// grading an assignment with per-student seeds; a submission without one takes
// options.student, else the student of options.submission_metadata (Gradescope's users).
using FoundSources = std::map<std::string, FoundSource>;
std::vector<Report> grade_many(const std::vector<std::string>& submissions, const Options& options,
                               const Progress& progress = {},
                               const std::vector<const FoundSources*>& found = {},
                               const std::vector<std::string>& students = {});

}  // namespace grader
