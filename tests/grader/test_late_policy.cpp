// Late work (grader/src/late_policy.hpp): ISO 8601 times with their zone, the policy's days,
// grace, per-day percent and cap, Canvas's flag, Gradescope's metadata.
#include "src/late_policy.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
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
  const auto l = grader::lateness_from(policy(R"({"per_day": 5})"), "", path);
  std::remove(path.c_str());
  REQUIRE(l);
  CHECK(l->source == "gradescope");
  CHECK(l->days_late == 2);  // 26 hours after Gradescope's due date, not the policy's
  CHECK(l->penalty_percent == doctest::Approx(10));
  CHECK_FALSE(grader::lateness_from(policy("{}"), "", ""));
  CHECK_THROWS_AS(grader::lateness_from(policy("{}"), "", "no-such-file.json"),
                  grader::LatePolicyError);
}

TEST_CASE("late: a policy the file gets wrong is refused") {
  for (const char* bad :
       {R"({"per_day": -1})", R"({"per_day": 120})", R"({"daily": 10})", R"("some")", "3"})
    CHECK_THROWS_AS(grader::parse_late_policy(nullptr, nlohmann::json::parse(bad)),
                    grader::LatePolicyError);
  CHECK_THROWS_AS(grader::parse_late_policy("tomorrow", nullptr), grader::LatePolicyError);
}
