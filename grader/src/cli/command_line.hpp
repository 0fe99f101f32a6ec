// The judge's one command line, parsed by CLI11 (Debian libcli11-dev), with one usage text
// that CLI11 writes from the options themselves (`linattn-grade --help`, shown by ./kit):
//
//   linattn-grade [--kit DIR] [grade] [DIR] [options]   grade one submission (the default)
//   linattn-grade [--kit DIR] grade-all DIR [options]   grade a class folder
//   linattn-grade [--kit DIR] try EXERCISE [DIR]        ./kit try
//   linattn-grade assignment [NAME]                     what an assignment grades, who sees it when
//   linattn-grade record-oracle FILE [options]          the student release's recording
//   linattn-grade [--kit DIR] make-course-key           the Gradescope release's course key
//
// The older spellings --batch, --try, --record-oracle and --make-course-key still name the
// last four. Bad usage prints why and exits 2; --help prints the usage and exits 0.
#pragma once

#include "../engine/options.hpp"

#include <string>
#include <variant>

namespace grader {

struct Command {
  enum class Mode {
    Grade,
    Batch,
    Merge,
    Try,
    ShowAssignment,
    DescribeApi,
    RecordOracle,
    MakeCourseKey
  };
  Mode mode = Mode::Grade;
  Options options;           // grade, grade-all (the checks part), record-oracle (its few)
  BatchOptions batch;        // grade-all
  std::string try_exercise;  // try
  std::string try_dir;
  std::string record_path;               // record-oracle
  std::string prairielearn_path;         // grade --prairielearn: PrairieLearn's results.json
  std::string submission_metadata_path;  // grade --submission-metadata FILE (read into options)
};

// The command, or the exit status when there is nothing more to do (0 after --help, 2 after
// a usage error; either way the text is printed).
std::variant<Command, int> parse_command_line(int argc, char** argv);

// The usage text: every command and option.
std::string usage_text();

}  // namespace grader
