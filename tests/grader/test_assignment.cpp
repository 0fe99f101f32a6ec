// Assignments (grader/src/assignment.hpp) on a small made-up kit: which exercises, what they
// are worth, when students see each check, and the clear errors for a file that is wrong.
#include "src/assignment.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

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
  flops.checks = {check("flops/by-hand", 2, Visibility::Visible), check("flops/random", 1, Visibility::Hidden)};
  grader::ExerciseChecks causal;
  causal.exercise = "causal";
  causal.checks = {check("recurrent/hand", 1.5, Visibility::Visible), check("recurrent/eps", 2, Visibility::Visible),
                   check("parallel/hand", 2, Visibility::Visible), check("step/random", 0.5, Visibility::Hidden)};
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

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

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
      "two", R"({"title": "t", "exercises": [{"name": "causal", "points": 6}, {"name": "flops", "points": 3}]})", kit());
  CHECK(a.name == "two");
  CHECK(a.exercise_names() == std::vector<std::string>{"causal", "flops"});
  REQUIRE(a.find("flops") != nullptr);
  CHECK(a.find("flops")->points == 3);
  const auto one = grader::parse_assignment("one", R"({"exercises": [{"name": "flops", "points": 3}]})", kit());
  CHECK(one.exercise_names() == std::vector<std::string>{"flops"});
  CHECK(one.find("causal") == nullptr);
}

TEST_CASE("assignment: points that are not the sum of the exercise's checks are an error") {
  const std::string e = error_of(R"({"exercises": [{"name": "flops", "points": 10}]})");
  CHECK(has(e, "'flops' is worth 3 points"));
  CHECK(has(e, "not 10"));
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 5.5}]})"), "worth 6 points"));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops"}]})"), "needs its \"points\""));
}

TEST_CASE("assignment: an unknown exercise, a typo, a repeat and an empty list are errors") {
  const std::string e = error_of(R"({"exercises": [{"name": "flops", "points": 3}, {"name": "chunky", "points": 1}]})");
  CHECK(has(e, "no exercise named 'chunky'"));
  CHECK(has(e, "flops, causal"));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "point": 3}]})"), "unknown field \"point\""));
  CHECK(has(error_of(R"({"exercise": []})"), "unknown field \"exercise\""));
  CHECK(has(error_of(R"({"exercises": []})"), "needs \"exercises\""));
  CHECK(has(error_of(R"({"exercises": [{"name": "flops", "points": 3}, {"name": "flops", "points": 3}]})"),
            "listed twice"));
  CHECK(has(error_of("{\"exercises\": [}"), "not valid JSON"));
}

TEST_CASE("assignment: a table's hidden check is after_due_date unless a rule says otherwise") {
  const auto a = grader::parse_assignment("d", R"({"exercises": [{"name": "flops", "points": 3}]})", kit());
  CHECK(a.visibility_of("flops", find_check("flops", "flops/by-hand")) == grader::Visibility::Visible);
  CHECK(a.visibility_of("flops", find_check("flops", "flops/random")) == grader::Visibility::AfterDueDate);
}

TEST_CASE("assignment: visibility rules are globs over check names, the last match winning") {
  const auto a = grader::parse_assignment("v", R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "after_published"},
      {"checks": "recurrent/eps", "visibility": "hidden"},
      {"checks": "step/random", "visibility": "visible"}]}]})", kit());
  using grader::Visibility;
  CHECK(a.visibility_of("causal", find_check("causal", "recurrent/hand")) == Visibility::AfterPublished);
  CHECK(a.visibility_of("causal", find_check("causal", "recurrent/eps")) == Visibility::Hidden);
  CHECK(a.visibility_of("causal", find_check("causal", "parallel/hand")) == Visibility::Visible);
  CHECK(a.visibility_of("causal", find_check("causal", "step/random")) == Visibility::Visible);
  CHECK(std::string(grader::visibility_name(Visibility::AfterPublished)) == "after_published");
}

TEST_CASE("assignment: a rule that names no check, or an unknown visibility, is an error") {
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "reccurent/*", "visibility": "hidden"}]}]})"), "\"reccurent/*\" names none of its checks"));
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*", "visibility": "later"}]}]})"), "unknown visibility 'later'"));
  CHECK(has(error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "recurrent/*"}]}]})"), "needs \"checks\""));
}

TEST_CASE("assignment: hidden checks with points need a check that holds the total back") {
  // Gradescope shows the total while no test waits for the due date or for publishing, and
  // counts hidden tests in it: with every other check visible, this would give them away.
  const std::string e = error_of(R"({"exercises": [{"name": "causal", "points": 6, "visibility": [
      {"checks": "step/random", "visibility": "hidden"}]}]})");
  CHECK(has(e, "causal/step/random"));
  CHECK(has(e, "after_due_date"));
  // One after_due_date check elsewhere in the assignment hides the total until the deadline.
  CHECK(error_of(R"({"exercises": [{"name": "flops", "points": 3}, {"name": "causal", "points": 6, "visibility": [
      {"checks": "step/random", "visibility": "hidden"}]}]})") == "");
}

TEST_CASE("assignment: a name is a file of the kit's assignments/, a path is a path") {
  const fs::path kit_dir = fs::temp_directory_path() / ("assignment-test-" + std::to_string(::getpid()));
  fs::create_directories(kit_dir / "assignments");
  CHECK(grader::assignment_path(kit_dir, "week2") == kit_dir / "assignments" / "week2.json");
  CHECK(grader::assignment_path(kit_dir, "/tmp/x.json") == fs::path("/tmp/x.json"));
  CHECK(grader::assignment_path(kit_dir, "mine.json") == fs::path("mine.json"));
  // No name: default.json, or else the only file there (a student kit ships just its own).
  CHECK_THROWS_AS(grader::assignment_path(kit_dir, ""), grader::AssignmentError);
  std::ofstream(kit_dir / "assignments" / "part2.json") << R"({"exercises": [{"name": "flops", "points": 3}]})";
  CHECK(grader::assignment_path(kit_dir, "") == kit_dir / "assignments" / "part2.json");
  std::ofstream(kit_dir / "assignments" / "part3.json") << "{}";
  CHECK_THROWS_AS(grader::assignment_path(kit_dir, ""), grader::AssignmentError);
  std::ofstream(kit_dir / "assignments" / "default.json") << R"({"exercises": [{"name": "causal", "points": 6}]})";
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
