// The registry: the checks tables of the exercises, as each checks file's registrar hands it
// over. Registrars run during static initialisation in an order the linker picks, so they only
// collect; the functions of each exercise are taken from its API description on the first call
// of registry(), from main or a test.
#include "api_registry.hpp"
#include "check.hpp"

#include <mutex>
#include <utility>

namespace grader {

namespace {

std::vector<ExerciseChecks>& tables() {
  static std::vector<ExerciseChecks> exercises;
  return exercises;
}

}  // namespace

std::vector<ExerciseChecks>& registry() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto& ex : tables())
      for (const api::Schema& s : api::exercise_schemas(ex.exercise)) ex.functions.push_back(s.function);
  });
  return tables();
}

Registrar::Registrar(std::string exercise, std::vector<Check> (*make)()) {
  tables().push_back({std::move(exercise), {}, make()});
}

void attach_oracle(Check& check, Oracle oracle) {
  if (!oracle.calls || !oracle.expect) return;
  check.request = [function = check.function, calls = std::move(oracle.calls)](std::uint64_t seed) {
    return json{{"function", function}, {"calls", calls(seed)}};
  };
  check.expect = [one = std::move(oracle.expect)](const json& request) {
    json out = json::array();
    for (const json& call : request.at("calls")) out.push_back(one(call));
    return json{{"calls", std::move(out)}};
  };
}

}  // namespace grader
