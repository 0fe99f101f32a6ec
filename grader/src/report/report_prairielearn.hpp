// PrairieLearn's external-grading results.json (`grade --prairielearn FILE`).
//
// PrairieLearn reads /grade/results/results.json after its grading container stops: `gradable`
// (false: the submission could not be graded, and counts as no attempt), `score` as a fraction
// in [0, 1], a `message` and an `output` shown above the tests, and `tests`, each with `name`,
// `description`, `points`, `max_points`, `message` and `output`. PrairieLearn shows every test
// to the student and has no per-test visibility, so checks the assignment does not show yet
// are folded into one test per exercise: their points count, their names and details stay out.
#pragma once

#include "report.hpp"

#include <nlohmann/json.hpp>

namespace grader {

nlohmann::json to_prairielearn_json(const Report& report);

}  // namespace grader
