// What the student kit records (`./kit release student` runs record-oracle --visible-only): the
// expected values of exactly its assignment's visible checks. One more check recorded hands a
// student a hidden check's answers; one fewer and the kit cannot grade that check.
#include "engine/assignment.hpp"
#include "engine/oracle_source.hpp"
#include "judge/check.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

extern const char* const kKitSourceDir;

namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

std::set<std::string> recorded_names(const json& recording) {
  std::set<std::string> names;
  for (const auto& entry : recording.at("checks").items()) names.insert(entry.key());
  return names;
}

// The visible checks, worked out from the assignment's file and the checks' own visibility,
// written as the recording names them ("exercise/check").
std::set<std::string> visible_checks(const json& assignment_file,
                                     const std::set<std::string>& hidden_by_rule) {
  std::set<std::string> names;
  for (const json& entry : assignment_file.at("exercises")) {
    const std::string exercise = entry.at("name").get<std::string>();
    for (const auto& ex : grader::exercise_checks()) {
      if (ex.exercise != exercise) continue;
      for (const auto& c : ex.checks) {
        const std::string name = exercise + "/" + c.name;
        if (c.visibility == grader::Visibility::Visible && !hidden_by_rule.count(name))
          names.insert(name);
      }
    }
  }
  return names;
}

}  // namespace

TEST_CASE("record-oracle --visible-only: the default assignment's visible checks, no other") {
  const std::string path = std::string(kKitSourceDir) + "/assignments/default.json";
  const json file = json::parse(read_file(path));
  const grader::Assignment assignment =
      grader::parse_assignment("default", read_file(path), grader::exercise_checks());
  const std::set<std::string> recorded = recorded_names(grader::record_oracle(assignment, true));
  const std::set<std::string> expected = visible_checks(file, {});
  CHECK(expected.size() > 20);
  CHECK(recorded == expected);
  for (const std::string& name : recorded) {
    INFO(name);
    CHECK(name.rfind("chunkwise/", 0) != 0);  // not the advanced assignment's
    CHECK(name.find("random-hidden") == std::string::npos);
  }
}

TEST_CASE("record-oracle --visible-only: a check an assignment hides is not recorded") {
  const std::string text = R"({"title": "one exercise", "exercises": [{"name": "flops",
      "points": 10, "visibility": [{"checks": "flops/by-hand", "visibility": "hidden"}]}]})";
  const grader::Assignment assignment =
      grader::parse_assignment("one", text, grader::exercise_checks());
  const std::set<std::string> recorded = recorded_names(grader::record_oracle(assignment, true));
  const std::set<std::string> expected = visible_checks(json::parse(text), {"flops/flops/by-hand"});
  REQUIRE(!expected.empty());
  CHECK(recorded == expected);
  CHECK(recorded.count("flops/flops/by-hand") == 0);
  // Without --visible-only, every check is there.
  CHECK(recorded_names(grader::record_oracle(assignment, false)).count("flops/flops/by-hand") == 1);
}
