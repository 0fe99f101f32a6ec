// How a person names one check on the command line (`--only EXERCISE/CHECK`), and the rerun line
// the reports print for it. A check's own name starts with its group, which for a one-function
// exercise is the exercise's name again ("chunkwise/hand-example" in chunkwise): a student types
// what the report shows under the exercise, so both `chunkwise/hand-example` and the full
// `chunkwise/chunkwise/hand-example` select it (issue 34).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grader {

// Whether `typed` (what followed EXERCISE/ in --only) names the check called `check_name` of
// `exercise`: its full name, or its name without a leading "EXERCISE/".
bool names_check(const std::string& exercise, const std::string& typed,
                 const std::string& check_name);

// The shortest argument of --only that selects the check: "chunkwise/hand-example",
// "causal/recurrent/hand-example". Error messages and rerun lines print this form.
std::string typed_check_id(const std::string& exercise, const std::string& check_name);

// The usage error for --only EXERCISE/TYPED when no check of the exercise (`check_names`, their
// own names) matches: it lists them as --only takes them, so any line can be pasted back.
std::string unknown_check_message(const std::string& exercise, const std::string& typed,
                                  const std::vector<std::string>& check_names);

// The command that grades one check again, with its seed, and with --assignment as it was given
// unless it was the kit's default (without it, a check of "advanced" would be graded for the
// default's points, or not found at all). Words a shell would split or expand are quoted.
std::string rerun_line(const std::string& submission, const std::string& assignment,
                       const std::string& exercise, const std::string& check_name,
                       std::uint64_t seed);

// The same for a student's own kit, as the course's reports (Gradescope, PrairieLearn) print it:
// the kit's exercises/ folder and each check's own seed, so neither is named; nor is the
// course's assignment, whose file the student's kit may not have (--only grades any exercise
// of the kit, in an assignment or not, so the line works without it).
std::string kit_rerun_line(const std::string& exercise, const std::string& check_name);

}  // namespace grader
