// A stand-in for the runner: answers a check's request by calling a C++ function on each
// call's arguments, so that a judge can be tested without building or running anything.
#pragma once

#include "common/wire.hpp"
#include "judge/check.hpp"

#include <linref/linref.hpp>

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fake {

using json = nlohmann::json;
using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// One call's arguments -> that call's result object ({"O": ...}, {"value": ...}, ...).
using Impl = std::function<json(const json& call)>;

const grader::ExerciseChecks& exercise(const std::string& name);

// The exercises that the tests going over every exercise take: all of them, or only those named
// in the environment variable LINATTN_CHECKS_ONLY (names separated by spaces).
// kit/add-exercise sets it to the exercise it adds, whose code is the only new code there: the
// rules every exercise must follow are then checked on it in seconds, not on all of them again.
// Assertions about exercise_checks() as a whole (its exercises are those with a manifest,
// the assignments' points) always see every exercise.
std::vector<std::reference_wrapper<const grader::ExerciseChecks>> exercises_under_test();
bool every_exercise_under_test();  // LINATTN_CHECKS_ONLY is not set
const grader::Check& check(const std::string& exercise, const std::string& name);

// The feature map of a request's "phi" spec, built here from linref's maps (not with the
// grader's own helper, so a fault there cannot hide).
linref::FeatureMap phi_of(const json& spec);

// The reference library's answer to one call of `function`.
json reference_result(const std::string& function, const json& call);
Impl reference(const std::string& function);

// {"outcome": "returned", "results": [...]} from impl, one result per call.
json reply_from(const json& request, const Impl& impl);
grader::Verdict judge_with(const grader::Check& c, const Impl& impl, std::uint64_t seed);

// Every check of `exercise` that names `function`, judged with impl at its own seed.
std::map<std::string, grader::Verdict> judge_all(const std::string& exercise,
                                                 const std::string& function, const Impl& impl);

bool contains(const std::string& text, const std::string& part);

// Asserts that `check` failed and that its message names the likely mistake with `words`.
inline void expect_named(const std::map<std::string, grader::Verdict>& v, const std::string& check,
                         const std::string& words) {
  INFO(check << ": " << v.at(check).message);
  REQUIRE_FALSE(v.at(check).passed);
  CHECK(contains(v.at(check).message, "Likely mistake: " + words));
}

}  // namespace fake
