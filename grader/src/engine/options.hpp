// What the command line asks for (command_line.hpp parses it).
#pragma once

#include "../report/submission_metadata.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grader {

// `grade` (and the checks part of `grade-all`).
struct Options {
  std::string submission;     // the folder to grade, as the user wrote it
  std::string only_exercise;  // --only EXERCISE[/CHECK]
  std::string only_check;
  std::optional<std::uint64_t> seed;  // --seed N
  std::string json_path, gradescope_path, junit_path;
  std::string html_path;  // --html FILE: the report as a static page (report_html.hpp)
  // --github-summary: Markdown appended to $GITHUB_STEP_SUMMARY, failing checks as workflow
  // commands (report_github_summary.hpp)
  bool github_summary = false;
  int jobs = 0;               // --jobs N; 0 = what the process may use (util/job_count.hpp)
  bool visible_only = false;  // --visible-only: skip the checks students do not see yet
  bool quiet = false;         // --quiet: no terminal report
  bool verbose = false;       // --verbose: no folding in the terminal report
  bool strict = false;        // --strict: refuse to grade without a sandbox (course grading)
  bool course = false;      // --course: the course's own seeds (course_seeds.hpp); implies --strict
  std::string replay_path;  // --replay FILE: expected values recorded by record-oracle
  std::string assignment;   // --assignment NAME (assignment.hpp); empty: the kit's default
  std::string submitted_at;  // --submitted-at TIME: when it was handed in (late_policy.hpp)
  // Gradescope's submission_metadata.json, read by the command line (--submission-metadata
  // FILE): the engine reads no file of the platform's itself.
  std::optional<SubmissionMetadata> submission_metadata;
  std::string
      student;  // --student ID: whose seeds, for a "per-student" assignment (implies --course)
};

// --shard K/N of grade-all (grade_shards.hpp): the K-th of N parts of the class, K from 1.
struct Shard {
  unsigned index = 1, count = 1;
};

// `grade-all`: what is not about the checks.
struct BatchOptions {
  std::string dir;                      // the folder of submissions
  std::string out;                      // --out OUT; empty: DIR-grades beside DIR
  std::string roster_path;              // --roster FILE
  std::string lms_column;               // --lms-column NAME; empty: the assignment's (batch.cpp)
  bool bom = false;                     // --bom
  bool missing_as_zero = false;         // --missing-as-zero: the exports write 0 for no submission
  Shard shard;                          // --shard K/N; 1/1: the whole class
  std::vector<std::string> merge_dirs;  // merge-grades OUT DIR...: the shards' --out folders
};

}  // namespace grader
