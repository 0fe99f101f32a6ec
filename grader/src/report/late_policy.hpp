// Late work: the assignment's due time and late policy, and how late one submission is.
//
// In an assignment file (assignment.hpp), both optional:
//   "due":  "2026-03-06T23:59:00-05:00"   ISO 8601 with its zone (Z, +hh:mm or +hhmm)
//   "late": "none"                        late work is recorded, never penalised (the default)
//   "late": { "per_day": 10, "cap": 50, "grace_minutes": 15 }
//           per_day: percent of the score taken for each day or part of a day late;
//           cap: at most this percent in all (default 100);
//           grace_minutes: a submission this close after the due time is on time.
// A submission's lateness comes from, in this order: a time it was submitted (the roster's
// `submitted` column, or Gradescope's submission_metadata.json created_at), compared with the
// due time; else Canvas's _LATE_ flag, which carries no time and counts as one day late.
// On Gradescope the due time is the student's own when the metadata gives one (an extension
// shows there as the user's own assignment.due_date; of a group, the latest), else Gradescope's
// assignment due_date, else the assignment file's "due"; the report says which it was.
// The raw score is never changed: the penalty gives a second score beside it.
#pragma once

#include "submission_metadata.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace grader {

struct LatePolicyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LatePolicy {
  std::optional<std::int64_t> due;  // seconds since 1970, UTC
  std::string due_text;             // as the file wrote it
  bool penalises = false;           // false: "none"
  double per_day = 0, cap = 100, grace_minutes = 0;
};

struct Lateness {
  bool late = false;
  int days_late = 0;
  double penalty_percent = 0;
  std::string source;        // "roster", "gradescope", "canvas _LATE_"; empty: on time, no evidence
  std::string submitted_at;  // as the source wrote it; empty for Canvas's flag
  std::string due;  // the due time it was measured against, as written; empty: the policy's
  // Where `due` came from when not the assignment file: "gradescope" (the assignment's due
  // date there), "gradescope extension" (the student's own, which differs from it) or
  // "roster extension" (the roster's `due` column, in grade-all).
  std::string due_from;
};

// Seconds since 1970 (UTC) of an ISO 8601 time with its zone: 2026-03-06T23:59:00-05:00,
// ...T23:59:00Z, fractional seconds dropped. Throws LatePolicyError for anything else.
std::int64_t parse_iso8601(const std::string& text);

// From an assignment's "due" and "late" (either may be null). Throws LatePolicyError.
LatePolicy parse_late_policy(const nlohmann::json& due, const nlohmann::json& late);

// A submission made at `submitted` (seconds since 1970), against `due` (the policy's own when
// not given). No due time at all: on time.
Lateness lateness_at(const LatePolicy& policy, std::int64_t submitted, const std::string& source,
                     const std::string& submitted_text,
                     std::optional<std::int64_t> due = std::nullopt);
// Canvas's _LATE_ flag: late, time unknown, counted as one day.
Lateness lateness_flagged(const LatePolicy& policy, const std::string& source);

// The score after the penalty: score * (1 - penalty/100), to 1e-6.
double after_penalty(double score, const Lateness& lateness);

// "due 2026-03-06T23:59:00-05:00; 10% a day, at most 50%, 15 minutes' grace", for people.
std::string describe_late_policy(const LatePolicy& policy);

nlohmann::json lateness_json(const Lateness& lateness, double score);

// "due 2026-03-08T23:59:00-05:00, your own due date on Gradescope (an extension)", or "" when
// the due time is the assignment file's: what a report says of the due time it used.
std::string describe_due(const Lateness& lateness);

// `./kit grade`'s evidence: --submitted-at TIME (against the policy's due time), else
// Gradescope's submission_metadata.json (--submission-metadata FILE, read by the command line):
// its created_at against the students' own due_date (an extension), else its assignment's
// due_date, else the policy's due time. Nothing asked: nothing. Throws LatePolicyError for a
// time it cannot read, or metadata without created_at.
std::optional<Lateness> lateness_from(const LatePolicy& policy, const std::string& submitted_at,
                                      const std::optional<SubmissionMetadata>& metadata);

}  // namespace grader
