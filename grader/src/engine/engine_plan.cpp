// What one grading run does before it builds anything: see engine_plan.hpp.
#include "engine_plan.hpp"

#include "../report/check_id.hpp"
#include "../report/submission_metadata.hpp"
#include "../sandbox/isolation.hpp"
#include "../sandbox/landlock.hpp"
#include "course_seeds.hpp"
#include "grader_config.hpp"

#include <iostream>

namespace grader {

namespace {

// The checks to run for one exercise, after --only and --visible-only. A replayed recording
// holds only the visible checks, at their own seeds: the others are left out, and asking for
// one of them, or for another seed, is a usage error.
std::vector<const Check*> selected_checks(const ExerciseChecks& ex, const Options& o,
                                          const Assignment& assignment, const OracleSource& oracle,
                                          std::vector<const Check*>& course_only) {
  std::vector<const Check*> out;
  for (const auto& c : ex.checks) {
    if (!o.only_check.empty() && !names_check(ex.exercise, o.only_check, c.name)) continue;
    const std::string key = ex.exercise + "/" + c.name;
    const Visibility visibility = assignment.visibility_of(ex.exercise, c);
    if (oracle.replaying()) {
      const auto recorded = oracle.recorded_seed(ex.exercise, c);
      if (!recorded) {
        if (visibility == Visibility::Visible)
          throw UsageError("the recorded expected values in " + oracle.path() +
                           " have no entry for " + key +
                           "; this copy of the kit is incomplete (make it again with "
                           "./kit release student)");
        if (!o.only_check.empty())
          throw UsageError("check " + key + " is " + visibility_name(visibility) +
                           ": only the course's grader runs it");
        course_only.push_back(&c);
        continue;
      }
      if (o.seed && *o.seed != *recorded)
        throw UsageError(
            "--seed " + std::to_string(*o.seed) +
            ": this kit grades with expected values "
            "recorded at each check's own seed, and " +
            key + " has seed " + std::to_string(*recorded) + ". Leave out --seed (or give --seed " +
            std::to_string(*recorded) +
            "). A seed the course's grader printed (Gradescope's "
            "course or per-student seeds) needs the course's reference to work out its expected "
            "values: the course staff can rerun it.");
    }
    if (o.visible_only && visibility != Visibility::Visible) {
      course_only.push_back(&c);
      continue;
    }
    out.push_back(&c);
  }
  return out;
}

}  // namespace

GradingPlan make_plan(const Options& o, const OracleSource& oracle) {
  GradingPlan plan;
  try {
    plan.assignment = load_assignment(LINATTN_SOURCE_DIR, o.assignment, exercise_checks());
  } catch (const AssignmentError& e) {
    throw UsageError(e.what());
  }
  // --only may name any exercise of the kit: one outside the assignment (a new one, not yet in
  // a hand-out) is graded on its own, for the points of its checks.
  if (!o.only_exercise.empty() && !plan.assignment.find(o.only_exercise))
    for (const auto& ex : exercise_checks())
      if (ex.exercise == o.only_exercise) {
        AssignedExercise own;
        own.name = ex.exercise;
        for (const Check& c : ex.checks) own.points += c.points;
        plan.assignment.exercises.push_back(own);
      }
  for (const std::string& name : plan.assignment.exercise_names()) {
    if (!o.only_exercise.empty() && name != o.only_exercise) continue;
    for (const auto& ex : exercise_checks())
      if (ex.exercise == name) plan.exercises.push_back(&ex);
  }
  if (plan.exercises.empty()) {
    std::string names;
    for (const auto& name : plan.assignment.exercise_names()) names += " " + name;
    throw UsageError("no exercise named '" + o.only_exercise + "' in the kit; the assignment '" +
                     plan.assignment.name + "' has:" + names);
  }
  for (const auto* ex : plan.exercises) {
    plan.course_only.emplace_back();
    plan.checks.push_back(
        selected_checks(*ex, o, plan.assignment, oracle, plan.course_only.back()));
  }
  if (!o.only_check.empty() && plan.checks.front().empty()) {
    std::vector<std::string> names;
    for (const auto& c : plan.exercises.front()->checks) names.push_back(c.name);
    throw UsageError(unknown_check_message(o.only_exercise, o.only_check, names));
  }
  return plan;
}

// Live from the checks' oracle halves, unless a recording is to be replayed: one named with
// --replay, or the kit's own when it was built without the reference (the student hand-out).
OracleSource open_oracle(const Options& o) {
  std::string path = o.replay_path;
#ifdef LINATTN_ORACLE_DATA
  if (path.empty()) path = LINATTN_ORACLE_DATA;
#endif
  if (path.empty()) return OracleSource::live();
  try {
    return OracleSource::replay(path);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

// Which walls stand around student code here: refuses (UsageError) what course grading must
// not accept, warns a student grading their own work.
Layer required_isolation(const Options& o) {
  Layer layer = Layer::None;
  try {
    layer = isolation().layer;
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (layer == Layer::None && o.strict)
    throw UsageError("refusing to grade without a sandbox (" + isolation().why + "). " +
                     how_to_enable_sandbox());
  // The chroot layer's compilers are not chrooted: Landlock keeps them to /usr and their own
  // folder where the kernel has it; elsewhere they see the host's files as their user id does,
  // and the kit must be closed to it. Course grading insists; a student grading their own
  // work is warned.
  const std::string kit_file = std::string(LINATTN_SOURCE_DIR) + "/README.md";
  if (layer == Layer::Chroot && !landlock_available() && readable_by_sandbox(kit_file)) {
    const std::string why =
        "under the chroot layer, compilers run as an unprivileged user id, and "
        "that id can read the kit (" +
        kit_file +
        "); close it with "
        "chmod 700 " +
        std::string(LINATTN_SOURCE_DIR);
    if (o.strict) throw UsageError("refusing to grade: " + why);
    std::cerr << "linattn-grade: warning: " << why << "\n";
  }
  return layer;
}

// Whose seeds each submission gets under per-student seeds (see grade_many in engine.hpp).
// Throws UsageError when one has no student: its seeds would be nobody's.
std::vector<std::string> students_of(const std::vector<std::string>& submissions, const Options& o,
                                     const std::vector<std::string>& given,
                                     const Assignment& assignment) {
  std::string fallback = o.student;
  if (fallback.empty() && o.submission_metadata)
    fallback = student_identity(*o.submission_metadata);
  std::vector<std::string> out(submissions.size());
  for (std::size_t s = 0; s < submissions.size(); ++s) {
    out[s] = s < given.size() && !given[s].empty() ? given[s] : fallback;
    if (out[s].find_first_not_of(" \t\r\n") == std::string::npos)
      throw UsageError(
          "the assignment '" + assignment.name +
          "' gives each student seeds of their own "
          "(\"seeds\": \"per-student\"), and nothing says whose submission " +
          submissions[s] +
          " is: name the student with --student ID (the Gradescope bundle reads it from "
          "submission_metadata.json; grade-all from the roster's id, else the folder's name)");
  }
  return out;
}

// The course's key, when its seeds are asked for (course grading, see course_seeds.hpp) and
// no one --seed is given (a rerun of one check with the seed its report printed); else empty.
// An assignment with per-student seeds draws them from the key and each submission's student:
// the oracle then works out each student's cases (a recording, which holds each check's own
// seed only, cannot; so per-student seeds need the reference).
std::string course_key_for(const Options& o, const OracleSource& oracle,
                           const Assignment& assignment) {
  std::string key;
  const bool per_student = assignment.seeds == Seeds::PerStudent;
  // A driver that always names the student (a course's own script) grades any assignment.
  if (!o.student.empty() && !o.seed && !per_student)
    std::cerr << "linattn-grade: note: --student " << o.student << " is not used: the assignment '"
              << assignment.name
              << "' has one set of seeds for the whole class (its \"seeds\" is not "
              << "\"per-student\")\n";
  if (o.course && !o.seed) {
    if (oracle.replaying())
      throw UsageError(std::string(per_student ? "the assignment '" + assignment.name +
                                                     "' gives each student seeds of their own, and "
                                               : "") +
                       "--course grades with the course's own seeds, which needs the reference; "
                       "this kit has only recorded values (each check's own seed)");
    try {
      key = course_key(LINATTN_SOURCE_DIR);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  return key;
}

}  // namespace grader
