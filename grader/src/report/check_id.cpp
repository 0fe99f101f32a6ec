// How checks are named on the command line: see check_id.hpp.
#include "check_id.hpp"

namespace grader {

namespace {

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+=:@") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

bool names_check(const std::string& exercise, const std::string& typed,
                 const std::string& check_name) {
  return typed == check_name || exercise + "/" + typed == check_name;
}

std::string only_argument(const std::string& exercise, const std::string& check_name) {
  return exercise + "/" + check_name;
}

std::string unknown_check_message(const std::string& exercise, const std::string& typed,
                                  const std::vector<std::string>& check_names) {
  std::string out =
      "no check '" + exercise + "/" + typed + "' in exercise '" + exercise + "'; --only takes:";
  for (const auto& name : check_names) out += "\n  " + only_argument(exercise, name);
  return out;
}

namespace {

// "./kit grade", the folder when one is named, --assignment unless it is the default, --only.
std::string grade_one(const std::string& submission, const std::string& assignment,
                      const std::string& exercise, const std::string& check_name) {
  std::string line = "./kit grade";
  if (!submission.empty()) line += " " + shell_quote(submission);
  if (!assignment.empty() && assignment != "default")
    line += " --assignment " + shell_quote(assignment);
  return line + " --only " + shell_quote(only_argument(exercise, check_name));
}

}  // namespace

std::string rerun_line(const std::string& submission, const std::string& assignment,
                       const std::string& exercise, const std::string& check_name,
                       std::uint64_t seed) {
  return grade_one(submission, assignment, exercise, check_name) + " --seed " +
         std::to_string(seed);
}

std::string kit_rerun_line(const std::string& exercise, const std::string& check_name) {
  return grade_one("", "", exercise, check_name);
}

}  // namespace grader
