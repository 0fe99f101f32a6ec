// Assignments (grader/src/engine/assignment.hpp) on a small made-up kit: which exercises, what they
// are worth, when students see each check, and the clear errors for a file that is wrong.
#include "src/engine/assignment.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

grader::Check check(const std::string& name, double points, grader::Visibility v) {
  grader::Check c;
  c.name = name;
  c.function = "f";
  c.points = points;
  c.visibility = v;
  return c;
}

// flops: 3 points (one hidden check); causal: 6 points (one hidden check).
std::vector<grader::ExerciseChecks> kit() {
  using grader::Visibility;
  grader::ExerciseChecks flops;
  flops.exercise = "flops";
  flops.checks = {check("flops/by-hand", 2, Visibility::Visible),
                  check("flops/random", 1, Visibility::Hidden)};
  grader::ExerciseChecks causal;
  causal.exercise = "causal";
  causal.checks = {check("recurrent/hand", 1.5, Visibility::Visible),
                   check("recurrent/eps", 2, Visibility::Visible),
                   check("parallel/hand", 2, Visibility::Visible),
                   check("step/random", 0.5, Visibility::Hidden)};
  return {flops, causal};
}

std::string error_of(const std::string& text) {
  try {
    grader::parse_assignment("a", text, kit());
  } catch (const grader::AssignmentError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const grader::Check& find_check(const std::string& exercise, const std::string& name) {
  static const auto k = kit();
  for (const auto& ex : k)
    for (const auto& c : ex.checks)
      if (ex.exercise == exercise && c.name == name) return c;
  throw std::logic_error("no check " + name);
}

}  // namespace

TEST_CASE("assignment: the exercises it names, in its order, with their points") {
  const auto a = grader::parse_assignment(
      "two",
      R"({"title": "t", "exercises": [{"name": "causal", "points": 6}, {"name": "flops", "points": 3}]})",
      kit());
  CHECK(a.name == "two");
  CHECK(a.exercise_names() == std::vector<std::string>{"causal", "flops"});
  REQUIRE(a.find("flops") != nullptr);
  CHECK(a.find("flops")->points == 3);
  const auto one =
      grader::parse_assignment("one", R"({"exercises": [{"name": "flops", "points": 3}]})", kit());
  CHECK(one.exercise_names() == std::vector<std::string>{"flops"});
  CHECK(one.find("causal") == nullptr);
}

TEST_CASE(
    "assignment: any points for an exercise, shared by its checks in proportion, adding up "
    "exactly") {
  auto points = [](const grader::Assignment& a, const std::string& ex, const std::string& name) {
    return a.points_of(ex, find_check(ex, name));
  };
  // flops' checks are 2 and 1: 10 points share as 6.67 and 3.33 (largest remainder, to 0.01).
  const auto a =
      grader::parse_assignment("a", R"({"exercises": [{"name": "flops", "points": 10}]})", kit());
  CHECK(points(a, "flops", "flops/by-hand") == doctest::Approx(6.67));
  CHECK(points(a, "flops", "flops/random") == doctest::Approx(3.33));
  // causal's 1.5, 2, 2, 0.5 in 50 points: 12.5, 16.67, 16.67, 4.17 would be 50.01 when each is
  // rounded on its own; the shares add up to 50.00.
  const auto c =
      grader::parse_assignment("c", R"({"exercises": [{"name": "causal", "points": 50}]})", kit());
  double cents = 0;
  for (const auto& ch : kit()[1].checks) cents += std::round(points(c, "causal", ch.name) * 100);
  CHECK(cents == 5000);
  CHECK(points(c, "causal", "recurrent/hand") == doctest::Approx(12.5));
  // Weights per check or glob (the last match winning); a check no rule names keeps its table's.
  const auto w = grader::parse_assignment("w", R"({"exercises": [{"name": "causal", "points": 6,
      "check_points": [{"checks": "*", "points": 1}, {"checks": "step/*", "points": 0}]}]})",
                                          kit());
  CHECK(points(w, "causal", "recurrent/hand") == doctest::Approx(2));
  CHECK(points(w, "causal", "parallel/hand") == doctest::Approx(2));
  CHECK(points(w, "causal", "step/random") == 0);
  // Points that already add up are used as they are (no rounding of the tables' own points).
  const auto same =
      grader::parse_assignment("s", R"({"exercises": [{"name": "causal", "points": 6}]})", kit());
  CHECK(points(same, "causal", "step/random") == 0.5);
  // Errors: no points, thousandths, a rule naming nothing, nothing to share among.
  CHECK(has(error_of(R"({"exercises": [{"name": "flops"}]})"), "needs its \"points\""));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "points": 1.005}]})"), "in hundredths"));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "points": 3,
      "check_points": [{"checks": "x*", "points": 1}]}]})"),
            "names none of its checks"));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "points": 3,
      "check_points": [{"checks": "*", "points": 0}]}]})"),
            "cannot share"));
  CHECK(grader::shares_of({1, 1, 1}, 1) == std::vector<double>{0.34, 0.33, 0.33});
  // A total whose cents are not exact in binary (0.29 * 100 is 28.999...): rounded to its cents,
  // never cut to 0.28 (a survivor of issue 36).
  CHECK(grader::shares_of({1, 1}, 0.29) == std::vector<double>{0.15, 0.14});
  CHECK(grader::shares_of({2, 1}, 2.01) == std::vector<double>{1.34, 0.67});
}

TEST_CASE("assignment: hidden checks with points beside after_published ones are warned about") {
  // Once grades are published, the total minus the shown checks is the hidden checks' result.
  const auto a = grader::parse_assignment(
      "a", R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "after_published"},
      {"checks": "step/random", "visibility": "hidden"}]}]})",
      kit());
  REQUIRE(a.warnings.size() == 1);
  CHECK(has(a.warnings[0], "causal/step/random"));
  CHECK(has(a.warnings[0], "after_published"));
  // With 0 points, or held back by the due date only, there is nothing to warn about.
  CHECK(grader::parse_assignment("b", R"({"exercises": [{"name": "causal", "points": 6,
      "check_points": [{"checks": "step/random", "points": 0}], "visibility": [
      {"checks": "recurrent/*", "visibility": "after_published"},
      {"checks": "step/random", "visibility": "hidden"}]}]})",
                                 kit())
            .warnings.empty());
  CHECK(grader::parse_assignment("c",
                                 R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "after_due_date"},
      {"checks": "step/random", "visibility": "hidden"}]}]})",
                                 kit())
            .warnings.empty());
}

TEST_CASE("assignment: a due time and a late policy") {
  const auto a =
      grader::parse_assignment("a", R"({"due": "2026-03-06T23:59:00Z", "late": {"per_day": 10},
      "exercises": [{"name": "flops", "points": 3}]})",
                               kit());
  REQUIRE(a.late.due);
  CHECK(*a.late.due == grader::parse_iso8601("2026-03-06T23:59:00Z"));
  CHECK(a.late.penalises);
  CHECK(
      has(error_of(R"({"due": "2026-03-06 23:59", "exercises": [{"name": "flops", "points": 3}]})"),
          "ISO 8601"));
  CHECK(has(error_of(R"({"late": {"weekly": 1}, "exercises": [{"name": "flops", "points": 3}]})"),
            "weekly"));
  // "late_policy", the contract's word, is the same field.
  const auto b = grader::parse_assignment("b", R"({"late_policy": {"per_day": 10, "cap": 30},
      "exercises": [{"name": "flops", "points": 3}]})",
                                          kit());
  CHECK(b.late.penalises);
  CHECK(b.late.cap == 30);
  CHECK(has(
      error_of(
          R"({"late": "none", "late_policy": "none", "exercises": [{"name": "flops", "points": 3}]})"),
      "keep one"));
}

TEST_CASE("assignment: seeds, the course's (the default) or each student's own") {
  const char* flops = R"("exercises": [{"name": "flops", "points": 3}])";
  CHECK(grader::parse_assignment("a", std::string("{") + flops + "}", kit()).seeds ==
        grader::Seeds::Course);
  CHECK(grader::parse_assignment("a", std::string(R"({"seeds": "course", )") + flops + "}", kit())
            .seeds == grader::Seeds::Course);
  const auto a = grader::parse_assignment(
      "a", std::string(R"({"seeds": "per-student", )") + flops + "}", kit());
  CHECK(a.seeds == grader::Seeds::PerStudent);
  CHECK(has(grader::describe(a, kit()), "seeds: per-student"));
  CHECK(
      has(error_of(std::string(R"({"seeds": "per_student", )") + flops + "}"), "\"per-student\""));
  CHECK(has(error_of(std::string(R"({"seeds": 1, )") + flops + "}"), "\"seeds\" must be"));
}

TEST_CASE("assignment: an unknown exercise, a typo, a repeat and an empty list are errors") {
  const std::string e = error_of(
      R"({"exercises": [{"name": "flops", "points": 3}, {"name": "chunky", "points": 1}]})");
  CHECK(has(e, "no exercise named 'chunky'"));
  CHECK(has(e, "flops, causal"));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "point": 3}]})"),
            "unknown field \"point\""));
  CHECK(has(error_of(R"({"exercise": []})"), "unknown field \"exercise\""));
  CHECK(has(error_of(R"({"exercises": []})"), "needs \"exercises\""));
  CHECK(
      has(error_of(
              R"({"exercises": [{"name": "flops", "points": 3}, {"name": "flops", "points": 3}]})"),
          "listed twice"));
  CHECK(has(error_of("{\"exercises\": [}"), "not valid JSON"));
}

TEST_CASE("assignment: a table's hidden check is after_due_date unless a rule says otherwise") {
  const auto a =
      grader::parse_assignment("d", R"({"exercises": [{"name": "flops", "points": 3}]})", kit());
  CHECK(a.visibility_of("flops", find_check("flops", "flops/by-hand")) ==
        grader::Visibility::Visible);
  CHECK(a.visibility_of("flops", find_check("flops", "flops/random")) ==
        grader::Visibility::AfterDueDate);
}

TEST_CASE("assignment: visibility rules are globs over check names, the last match winning") {
  const auto a = grader::parse_assignment(
      "v", R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "after_published"},
      {"checks": "recurrent/eps", "visibility": "hidden"},
      {"checks": "step/random", "visibility": "visible"}]}]})",
      kit());
  using grader::Visibility;
  CHECK(a.visibility_of("causal", find_check("causal", "recurrent/hand")) ==
        Visibility::AfterPublished);
  CHECK(a.visibility_of("causal", find_check("causal", "recurrent/eps")) == Visibility::Hidden);
  CHECK(a.visibility_of("causal", find_check("causal", "parallel/hand")) == Visibility::Visible);
  CHECK(a.visibility_of("causal", find_check("causal", "step/random")) == Visibility::Visible);
  CHECK(std::string(grader::visibility_name(Visibility::AfterPublished)) == "after_published");
}

TEST_CASE("assignment: a rule that names no check, or an unknown visibility, is an error") {
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "reccurent/*", "visibility": "hidden"}]}]})"),
            "\"reccurent/*\" names none of its checks"));
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "later"}]}]})"),
            "unknown visibility 'later'"));
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*"}]}]})"),
            "needs \"checks\""));
}

TEST_CASE("assignment: hidden checks with points need a check that holds the total back") {
  // Gradescope shows the total while no test waits for the due date or for publishing, and
  // counts hidden tests in it: with every other check visible, this would give them away.
  const std::string e = error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "step/random", "visibility": "hidden"}]}]})");
  CHECK(has(e, "causal/step/random"));
  CHECK(has(e, "after_due_date"));
  // One after_due_date check elsewhere in the assignment hides the total until the deadline.
  CHECK(
      error_of(
          R"({"exercises": [{"name": "flops", "points": 3}, {"name": "causal", "points": 6, "visibility": [
      {"checks": "step/random", "visibility": "hidden"}]}]})") == "");
}

TEST_CASE("assignment: a name is a file of the kit's assignments/, a path is a path") {
  const fs::path kit_dir =
      fs::temp_directory_path() / ("assignment-test-" + std::to_string(::getpid()));
  fs::create_directories(kit_dir / "assignments");
  CHECK(grader::assignment_path(kit_dir, "week2") == kit_dir / "assignments" / "week2.json");
  CHECK(grader::assignment_path(kit_dir, "/tmp/x.json") == fs::path("/tmp/x.json"));
  CHECK(grader::assignment_path(kit_dir, "mine.json") == fs::path("mine.json"));
  // No name: default.json, or else the only file there (a student kit ships just its own).
  CHECK_THROWS_AS(grader::assignment_path(kit_dir, ""), grader::AssignmentError);
  std::ofstream(kit_dir / "assignments" / "part2.json")
      << R"({"exercises": [{"name": "flops", "points": 3}]})";
  CHECK(grader::assignment_path(kit_dir, "") == kit_dir / "assignments" / "part2.json");
  std::ofstream(kit_dir / "assignments" / "part3.json") << "{}";
  CHECK_THROWS_AS(grader::assignment_path(kit_dir, ""), grader::AssignmentError);
  std::ofstream(kit_dir / "assignments" / "default.json")
      << R"({"exercises": [{"name": "causal", "points": 6}]})";
  CHECK(grader::assignment_path(kit_dir, "") == kit_dir / "assignments" / "default.json");
  const auto loaded = grader::load_assignment(kit_dir, "part2", kit());
  CHECK(loaded.name == "part2");
  CHECK(loaded.exercise_names() == std::vector<std::string>{"flops"});
  CHECK(has(loaded.text, "\"flops\""));
  try {
    grader::load_assignment(kit_dir, "nosuch", kit());
    FAIL("a missing assignment loaded");
  } catch (const grader::AssignmentError& e) {
    CHECK(has(e.what(), "nosuch.json"));
    CHECK(has(e.what(), "default, part2, part3"));
  }
  fs::remove_all(kit_dir);
}
