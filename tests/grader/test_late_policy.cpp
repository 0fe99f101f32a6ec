// Late work (grader/src/report/late_policy.hpp): ISO 8601 times with their zone, the policy's days,
// grace, per-day percent and cap, Canvas's flag, Gradescope's metadata.
#include "src/report/late_policy.hpp"
#include "src/report/submission_metadata.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

namespace {

grader::LatePolicy policy(const char* late) {
  return grader::parse_late_policy("2026-03-06T23:59:00-05:00", nlohmann::json::parse(late));
}

}  // namespace

TEST_CASE("late: ISO 8601 times with their zone") {
  using grader::parse_iso8601;
  CHECK(parse_iso8601("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_iso8601("2026-03-07T04:59:00Z") == parse_iso8601("2026-03-06T23:59:00-05:00"));
  CHECK(parse_iso8601("2026-03-07T04:59:00+0000") == parse_iso8601("2026-03-06T23:59:00-0500"));
  // Zones with minutes (India, Nepal): the minutes are part of the offset (a survivor of issue
  // 36 read them as seconds).
  CHECK(parse_iso8601("2026-03-07T05:30:00+05:30") == parse_iso8601("2026-03-07T00:00:00Z"));
  CHECK(parse_iso8601("2026-03-07T05:45:00+0545") == 1772841600);  // 2026-03-07T00:00:00Z
  CHECK(parse_iso8601("2026-03-06T20:30:00-03:30") == parse_iso8601("2026-03-07T00:00:00Z"));
  // Gradescope's created_at: microseconds, dropped.
  CHECK(parse_iso8601("2018-07-01T14:22:32.365935-07:00") == parse_iso8601("2018-07-01T21:22:32Z"));
  for (const char* bad : {"2026-03-06T23:59:00", "2026-03-06", "yesterday", "2026-13-06T23:59:00Z",
                          "2026-03-06T23:59:00Zjunk", "2026-03-06T23:59:00+5"})
    CHECK_THROWS_AS(parse_iso8601(bad), grader::LatePolicyError);
}

TEST_CASE("late: days late, grace, per-day percent and cap") {
  const auto p = policy(R"({"per_day": 10, "cap": 25, "grace_minutes": 15})");
  const auto due = *p.due;
  auto at = [&](long long seconds) { return grader::lateness_at(p, due + seconds, "roster", "t"); };
  CHECK_FALSE(at(-3600).late);
  CHECK_FALSE(at(0).late);
  CHECK_FALSE(at(15 * 60).late);  // within the grace
  CHECK(at(15 * 60 + 1).late);
  CHECK(at(15 * 60 + 1).days_late == 1);
  CHECK(at(15 * 60 + 1).penalty_percent == doctest::Approx(10));
  CHECK(at(86400).days_late == 1);
  CHECK(at(86401).days_late == 2);
  CHECK(at(86401).penalty_percent == doctest::Approx(20));
  CHECK(at(5 * 86400).penalty_percent == doctest::Approx(25));  // the cap
  CHECK(grader::after_penalty(40, at(86401)) == doctest::Approx(32));
  // "none": late is recorded, nothing taken.
  const auto none = grader::parse_late_policy("2026-03-06T23:59:00Z", "none");
  const auto l = grader::lateness_at(none, *none.due + 3 * 86400, "roster", "t");
  CHECK(l.late);
  CHECK(l.days_late == 3);
  CHECK(l.penalty_percent == 0);
  // No due time: nothing is late by a time.
  CHECK_FALSE(
      grader::lateness_at(grader::parse_late_policy(nullptr, nullptr), 1e9, "roster", "t").late);
}

TEST_CASE("late: Canvas's _LATE_ flag has no time and counts as one day") {
  const auto l = grader::lateness_flagged(policy(R"({"per_day": 10})"), "canvas _LATE_");
  CHECK(l.late);
  CHECK(l.days_late == 1);
  CHECK(l.penalty_percent == doctest::Approx(10));
}

TEST_CASE("late: Gradescope's submission_metadata.json, created_at against its due_date") {
  const std::string path = "late-policy-metadata.json";
  std::ofstream(path) << R"({"id": 1, "created_at": "2018-08-02T01:00:00.123456-07:00",
      "assignment": {"due_date": "2018-07-31T23:00:00.000000-07:00", "late_due_date": null},
      "users": [{"email": "s@example.com", "id": 1, "name": "S"}]})";
  const auto l = grader::lateness_from(policy(R"({"per_day": 5})"), "",
                                       grader::read_submission_metadata(path));
  std::remove(path.c_str());
  REQUIRE(l);
  CHECK(l->source == "gradescope");
  CHECK(l->days_late == 2);  // 26 hours after Gradescope's due date, not the policy's
  CHECK(l->penalty_percent == doctest::Approx(10));
  CHECK_FALSE(grader::lateness_from(policy("{}"), "", std::nullopt));
  CHECK_THROWS_AS(grader::read_submission_metadata("no-such-file.json"),
                  grader::SubmissionMetadataError);
  // Metadata without created_at says which file it came from.
  grader::SubmissionMetadata undated;
  undated.path = "undated.json";
  CHECK_THROWS_WITH_AS(grader::lateness_from(policy("{}"), "", undated),
                       "the submission metadata undated.json has no created_at",
                       grader::LatePolicyError);
}

TEST_CASE("late: a policy the file gets wrong is refused") {
  for (const char* bad :
       {R"({"per_day": -1})", R"({"per_day": 120})", R"({"daily": 10})", R"("some")", "3"})
    CHECK_THROWS_AS(grader::parse_late_policy(nullptr, nlohmann::json::parse(bad)),
                    grader::LatePolicyError);
  CHECK_THROWS_AS(grader::parse_late_policy("tomorrow", nullptr), grader::LatePolicyError);
}

namespace {

// A submission_metadata.json shaped like the one Gradescope writes: its documented example
// (created_at, assignment.due_date / late_due_date / release_date, users[]), with each user's
// sid and own assignment dates, as Gradescope adds them; `user_due` is the student's own due
// date (an extension when it differs from the assignment's).
std::string gradescope_metadata(const std::string& created_at, const std::string& user_due,
                                const std::string& second_user_due = "") {
  auto user = [](const std::string& sid, const std::string& email, int id, const std::string& due) {
    return R"({"email": ")" + email + R"(", "id": )" + std::to_string(id) +
           R"(, "name": "Student User", "sid": ")" + sid + R"(", "assignment": {"due_date": ")" +
           due +
           R"(", "late_due_date": null, "release_date": "2018-07-02T00:00:00.000000-07:00"}, "sections": []})";
  };
  std::string users = user("s2002", "student@example.com", 1234, user_due);
  if (!second_user_due.empty())
    users += ", " + user("s1001", "partner@example.com", 1235, second_user_due);
  return R"({"id": 123456, "created_at": ")" + created_at + R"(",
    "assignment": {"due_date": "2018-07-31T23:00:00.000000-07:00", "group_size": 4, "group_submission": true,
                   "id": 25828, "course_id": 1234, "late_due_date": null,
                   "release_date": "2018-07-02T00:00:00.000000-07:00", "title": "Programming Assignment 1",
                   "total_points": "20.0"},
    "submission_method": "upload", "users": [)" +
         users + R"(], "previous_submissions": []})";
}

std::optional<grader::Lateness> late_with(const std::string& metadata) {
  const std::string path = "late-policy-extension.json";
  std::ofstream(path) << metadata;
  auto l = grader::lateness_from(policy(R"({"per_day": 10})"), "",
                                 grader::read_submission_metadata(path));
  std::remove(path.c_str());
  return l;
}

}  // namespace

TEST_CASE("late: Gradescope's extensions, the student's own due date") {
  const std::string assignment_due = "2018-07-31T23:00:00.000000-07:00";
  const std::string extended = "2018-08-03T23:00:00.000000-07:00";
  // Two days after the assignment's due date, within the student's extension: on time, and
  // the report says which due time it used.
  auto l = late_with(gradescope_metadata("2018-08-02T12:00:00.000000-07:00", extended));
  REQUIRE(l);
  CHECK_FALSE(l->late);
  CHECK(l->penalty_percent == 0);
  CHECK(l->due == extended);
  CHECK(l->due_from == "gradescope extension");
  CHECK(grader::describe_due(*l) ==
        "due " + extended + ", your own due date on Gradescope (an extension)");
  CHECK(grader::lateness_json(*l, 10).at("due_from") == "gradescope extension");
  // After the extension: late by the days after it, not after the assignment's due date.
  l = late_with(gradescope_metadata("2018-08-04T01:00:00.000000-07:00", extended));
  REQUIRE(l);
  CHECK(l->days_late == 1);
  CHECK(l->penalty_percent == doctest::Approx(10));
  // No extension: the user's dates are the assignment's, and that is what the report says.
  l = late_with(gradescope_metadata("2018-08-02T12:00:00.000000-07:00", assignment_due));
  REQUIRE(l);
  CHECK(l->days_late == 2);
  CHECK(l->due_from == "gradescope");
  CHECK(grader::describe_due(*l) == "due " + assignment_due + " (Gradescope's due date)");
  // A group is due when the latest of its members is.
  l = late_with(gradescope_metadata("2018-08-02T12:00:00.000000-07:00", assignment_due, extended));
  REQUIRE(l);
  CHECK_FALSE(l->late);
  CHECK(l->due == extended);
  // A user's due date that is not a time is refused, not ignored.
  CHECK_THROWS_AS(late_with(gradescope_metadata("2018-08-02T12:00:00Z", "next week")),
                  grader::LatePolicyError);
}

TEST_CASE("late: whose submission it is, from Gradescope's users (per-student seeds)") {
  const std::string path = "late-policy-users.json";
  auto identity = [&](const std::string& text) {
    std::ofstream(path) << text;
    const auto id = grader::student_identity(grader::read_submission_metadata(path));
    std::remove(path.c_str());
    return id;
  };
  CHECK(identity(gradescope_metadata("2018-08-02T12:00:00Z", "2018-08-03T23:00:00Z")) == "s2002");
  // A group: every member's id, sorted, so that the order Gradescope lists them in does not matter.
  CHECK(identity(gradescope_metadata("2018-08-02T12:00:00Z", "2018-08-03T23:00:00Z",
                                     "2018-08-03T23:00:00Z")) == "s1001+s2002");
  // No sid: the email, else Gradescope's own id (a number in the file).
  CHECK(
      identity(
          R"({"created_at": "2018-08-02T12:00:00Z", "users": [{"email": "e@x.org", "id": 7}]})") ==
      "e@x.org");
  CHECK(identity(R"({"created_at": "2018-08-02T12:00:00Z", "users": [{"id": 7, "sid": null}]})") ==
        "7");
  CHECK(identity(R"({"created_at": "2018-08-02T12:00:00Z"})").empty());
  std::ofstream(path) << R"({"users": {"id": 7}})";
  CHECK_THROWS_AS(grader::read_submission_metadata(path), grader::SubmissionMetadataError);
  std::remove(path.c_str());
}
