// The API descriptions (grader/common/api.hpp) against the checks that use them: every request
// a check makes names only arguments its function takes and gives every one it needs, and the
// printed wire format names every function of every exercise.
#include "fake_runner.hpp"

#include "src/judge/api_schemas.hpp"

#include <sstream>

TEST_CASE("api: every check's request fits its function's description") {
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test()) {
    REQUIRE_MESSAGE(!api::exercise_schemas(ex.exercise).empty(),
                    ex.exercise << " has no API description");
    for (const auto& c : ex.checks) {
      REQUIRE(c.request);
      const std::string problem = api::check_request(c.request(c.seed));
      CHECK_MESSAGE(problem.empty(), ex.exercise << "/" << c.name << ": " << problem);
    }
  }
}

TEST_CASE("api: a request with an unknown or a missing argument is named") {
  const fake::json unknown{{"function", "crossover_T"},
                           {"calls", {{{"d_phi", 2}, {"d_v", 3}, {"T", 1}}}}};
  CHECK(fake::contains(api::check_request(unknown), "unknown argument \"T\""));
  const fake::json missing{{"function", "crossover_T"}, {"calls", {{{"d_phi", 2}}}}};
  CHECK(fake::contains(api::check_request(missing), "lacks the argument \"d_v\""));
  // An argument with a default may be left out.
  const fake::json defaulted{{"function", "taylor_state_bytes"},
                             {"calls", {{{"d_head", 2}, {"d_v", 3}, {"n_heads", 1}}}}};
  CHECK(api::check_request(defaulted).empty());
}

TEST_CASE("api: the printed wire format names every function with its arguments and results") {
  std::ostringstream out;
  api::describe(out);
  for (const auto& ex : grader::exercise_checks())
    for (const auto& f : ex.functions) CHECK_MESSAGE(fake::contains(out.str(), "  " + f + "("), f);
  CHECK(fake::contains(out.str(), "linear_attention_step(\"S\": matrix, \"z\": vector"));
  CHECK(fake::contains(out.str(), "\"eps\": number = 1e-06"));
  CHECK(fake::contains(out.str(), "-> {\"o\", \"S\", \"z\"}"));
  CHECK(fake::contains(out.str(), "\"order\": left|right"));
}
