// What one grading run (grade_many, engine.cpp) settles before it builds anything: the
// exercises and checks to run, where expected values come from, which sandbox layer stands,
// whose seeds each submission gets. Each throws UsageError for a request it cannot honour.
#pragma once

#include "../judge/check.hpp"
#include "../sandbox/isolation.hpp"
#include "assignment.hpp"
#include "engine.hpp"
#include "oracle_source.hpp"

#include <string>
#include <vector>

namespace grader {

// The exercises and checks that the assignment, --only and --visible-only select, in the
// assignment's order.
struct GradingPlan {
  Assignment assignment;
  std::vector<const ExerciseChecks*> exercises;
  std::vector<std::vector<const Check*>> checks;       // per exercise
  std::vector<std::vector<const Check*>> course_only;  // left for the course's grader, per exercise
};

GradingPlan make_plan(const Options& o, const OracleSource& oracle);

// Live from the checks' oracle halves, unless a recording is to be replayed.
OracleSource open_oracle(const Options& o);

// The sandbox layer that stands here; refuses what course grading must not accept.
Layer required_isolation(const Options& o);

// Whose seeds each submission gets under per-student seeds.
std::vector<std::string> students_of(const std::vector<std::string>& submissions, const Options& o,
                                     const std::vector<std::string>& given,
                                     const Assignment& assignment);

// The course's key when the course's seeds are asked for, else empty.
std::string course_key_for(const Options& o, const OracleSource& oracle,
                           const Assignment& assignment);

}  // namespace grader
