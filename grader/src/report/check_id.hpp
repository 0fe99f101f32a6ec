// How a person names one check on the command line (`--only EXERCISE/CHECK`), and the rerun
// lines the reports print for it. A check's own name starts with its group, which for a
// one-function exercise is the exercise's name again ("chunkwise/hand-example" in chunkwise).
// The hand-outs teach the full form, the exercise in front of the check's own name
// (`chunkwise/chunkwise/hand-example`), and every line the grader prints uses it; a student who
// types what the report shows under the exercise (`chunkwise/hand-example`) means the same
// check, so that selects it too (issue 34).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grader {

// Whether `typed` (what followed EXERCISE/ in --only) names the check called `check_name` of
// `exercise`: its full name, or its name without a leading "EXERCISE/".
bool names_check(const std::string& exercise, const std::string& typed,
                 const std::string& check_name);

// The argument of --only that selects the check, in the full form: "EXERCISE/CHECK".
std::string only_argument(const std::string& exercise, const std::string& check_name);

// The usage error for --only EXERCISE/TYPED when no check of the exercise (`check_names`, their
// own names) matches: it lists whole --only arguments, so that any line can be pasted back as
// it stands (a list of bare check names was typed after the exercise and failed again).
std::string unknown_check_message(const std::string& exercise, const std::string& typed,
                                  const std::vector<std::string>& check_names);

// The command that grades one check again, with its seed, and with --assignment as it was given
// unless it was the kit's default: without it, a check of "advanced" is graded for its own
// points and the default's visibility, not the assignment's. Words a shell would split or
// expand are quoted.
std::string rerun_line(const std::string& submission, const std::string& assignment,
                       const std::string& exercise, const std::string& check_name,
                       std::uint64_t seed);

// The same for a student's own kit, as the course's reports (Gradescope, PrairieLearn) print it:
// the kit's exercises/ folder and each check's own seed, so neither is named; nor is the
// course's assignment, whose file the student's kit may not have (--only grades any exercise
// of the kit, in an assignment or not, so the line works without it).
std::string kit_rerun_line(const std::string& exercise, const std::string& check_name);

}  // namespace grader
