// An assignment: the exercises of one hand-out, their points, and when students see each
// check on Gradescope. Read from assignments/<name>.json in the kit:
//
//   { "title": "optional words for people",
//     "exercises": [
//       { "name": "flops", "points": 10 },
//       { "name": "causal", "points": 35,
//         "visibility": [ { "checks": "recurrent/*", "visibility": "after_published" },
//                         { "checks": "step/random-hidden", "visibility": "hidden" } ] } ] }
//
// An exercise may be worth any points (a multiple of 0.01): its checks share them in
// proportion to their tables' points, or to the points that "check_points" rules give them
//   "check_points": [{"checks": "recurrent/*", "points": 4}, {"checks": "step/*", "points": 1}]
// (globs as below, the last match winning; a check no rule names keeps its table's points as its
// weight). Each check's share is rounded to 0.01 by the largest remainder, so that the shares add
// up to exactly the exercise's points; when the weights already add up to them, they are used
// as they are. Every report shows the checks with these points.
// Optional "due" and "late" (or "late_policy", the same) give a due time and a late policy
// (late_policy.hpp).
// Optional "seeds": "course" (the default: course grading draws every check's seed from the
// course key, the same for the whole class) or "per-student" (course grading draws them from the
// course key and each student's id, so no two students share a check's inputs; course_seeds.hpp).
// A student's own `./kit grade` is not course grading: it keeps each check's own seed.
// Visibility rules are globs over the exercise's check names (fnmatch), applied in order, the
// last match winning; a check no rule names keeps its table's visibility, except that
// `hidden` in a table becomes `after_due_date` (students see it once the deadline passes).
#pragma once

#include "../judge/check.hpp"
#include "../report/late_policy.hpp"

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

// A problem with an assignment file (unknown exercise, wrong points, bad JSON): bad usage.
struct AssignmentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct VisibilityRule {
  std::string checks;  // a glob over the exercise's check names
  Visibility visibility = Visibility::Visible;
};

struct PointsRule {
  std::string checks;  // a glob over the exercise's check names
  double points = 0;   // each matching check's weight
};

struct AssignedExercise {
  std::string name;
  double points = 0;
  std::vector<VisibilityRule> rules;
  std::vector<PointsRule> point_rules;
  std::map<std::string, double> check_points;  // each check's share of `points`
};

// `total` shared in proportion to `weights`, each share rounded to 0.01 by the largest
// remainder (ties to the earlier), so that the shares add up to exactly `total` (a multiple of
// 0.01). Throws AssignmentError when the weights are all zero and the total is not.
std::vector<double> shares_of(const std::vector<double>& weights, double total);

// Whose seeds course grading uses (see "seeds" above).
enum class Seeds { Course, PerStudent };

struct Assignment {
  std::string name;  // the file's name without .json: "default"
  std::string path;  // the file read
  std::string text;  // its bytes, for the batch tool's reuse stamp
  std::vector<AssignedExercise> exercises;
  LatePolicy late;
  Seeds seeds = Seeds::Course;
  // What a person should know before releasing it (printed at load, and by grade-all).
  std::vector<std::string> warnings;

  const AssignedExercise* find(const std::string& exercise) const;
  std::vector<std::string> exercise_names() const;
  // The visibility of one check of one of this assignment's exercises.
  Visibility visibility_of(const std::string& exercise, const Check& check) const;
  // The points one check is worth in this assignment (its table's outside it).
  double points_of(const std::string& exercise, const Check& check) const;
};

// Parses and checks an assignment against the kit's exercises (their checks and points).
// Throws AssignmentError saying what is wrong.
Assignment parse_assignment(const std::string& name, const std::string& text,
                            const std::vector<ExerciseChecks>& kit);

// The file of `name_or_path`: a path when it has a '/' or ends in .json, otherwise
// KIT/assignments/NAME.json. Empty means the kit's default: `default`, or the only assignment
// there is (a student kit ships the one it was made for).
std::filesystem::path assignment_path(const std::filesystem::path& kit,
                                      const std::string& name_or_path);

// Reads, parses and checks it; prints its warnings to stderr. Throws AssignmentError.
Assignment load_assignment(const std::filesystem::path& kit, const std::string& name_or_path,
                           const std::vector<ExerciseChecks>& exercises);

// The assignment as the grader reads it, for a person: each exercise with its points, each
// check with its points and visibility.
std::string describe(const Assignment& assignment, const std::vector<ExerciseChecks>& kit);

// "visible", "hidden", "after_due_date", "after_published" (Gradescope's words). Throws
// AssignmentError for anything else.
Visibility parse_visibility(const std::string& word);

}  // namespace grader
