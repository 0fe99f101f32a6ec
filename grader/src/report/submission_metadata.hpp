// Gradescope's /autograder/submission_metadata.json: the parts the grader uses. Its documented
// shape (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/):
//   { "id", "created_at": "2018-07-01T14:22:32.365935-07:00",
//     "assignment": { "due_date", "late_due_date" (or null), "release_date", "title", ... },
//     "users": [ { "email", "id", "name" }, ... ]   (several for a group submission),
//     "previous_submissions": [ ... ] }
// In the files Gradescope writes, each user also carries "sid" (the student id the course's
// other systems know) and "assignment": { "release_date", "due_date", "late_due_date" }, that
// student's own dates: the assignment's, unless the student was given an extension.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

struct SubmissionMetadataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct GradescopeUser {
  std::string sid, email, id, name;     // as text ("" when absent); id is Gradescope's own
  std::optional<std::string> due_date;  // the student's own (extended) dates, when given
  std::optional<std::string> late_due_date;
};

struct SubmissionMetadata {
  std::string path;                     // the file it was read from, for messages
  std::string created_at;               // when it was submitted
  std::optional<std::string> due_date;  // the assignment's
  std::optional<std::string> late_due_date;
  std::vector<GradescopeUser> users;
};

// Reads the file. Throws SubmissionMetadataError when it cannot be read, is not JSON, or a
// field has the wrong kind (a due date that is not text, users that are not a list).
SubmissionMetadata read_submission_metadata(const std::string& path);

// The id that per-student seeds use for this submission: each user's sid, else their email,
// else their Gradescope id; a group's ids sorted and joined with "+". Empty when no user has
// any of them.
std::string student_identity(const SubmissionMetadata& metadata);

}  // namespace grader
