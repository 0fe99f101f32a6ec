// The registry: the checks tables of the exercises, each check joined with its oracle half.
// Registrars run during static initialisation in an order the linker picks, so they only
// collect; the join happens on the first call of registry(), from main or a test.
#include "api_registry.hpp"
#include "check.hpp"
#include "oracle_half.hpp"

#include <mutex>
#include <stdexcept>
#include <utility>

namespace grader {

namespace {

std::vector<ExerciseChecks>& tables() {
  static std::vector<ExerciseChecks> exercises;
  return exercises;
}

std::vector<std::pair<std::string, OracleTable>>& oracles() {
  static std::vector<std::pair<std::string, OracleTable>> halves;
  return halves;
}

void join(ExerciseChecks& ex, const OracleTable& table) {
  for (const auto& [name, maker] : table.calls) {
    bool known = false;
    for (const auto& c : ex.checks) known |= c.name == name;
    if (!known) throw std::logic_error("oracle half names an unknown check " + ex.exercise + "/" + name);
  }
  for (Check& c : ex.checks) {
    auto calls = table.calls.find(c.name);
    if (calls == table.calls.end()) continue;  // left empty: the registry test catches it
    auto expect = table.by_check.find(c.name);
    if (expect == table.by_check.end()) expect = table.by_function.find(c.function);
    if (expect == table.by_function.end()) continue;
    c.request = [function = c.function, maker = calls->second](std::uint64_t seed) {
      return json{{"function", function}, {"calls", maker(seed)}};
    };
    c.expect = [one = expect->second](const json& request) {
      json out = json::array();
      for (const json& call : request.at("calls")) out.push_back(one(call));
      return json{{"calls", std::move(out)}};
    };
  }
}

}  // namespace

std::vector<ExerciseChecks>& registry() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto& ex : tables())
      for (const api::Schema& s : api::exercise_schemas(ex.exercise)) ex.functions.push_back(s.function);
    for (auto& [exercise, table] : oracles()) {
      bool found = false;
      for (auto& ex : tables())
        if (ex.exercise == exercise) {
          join(ex, table);
          found = true;
        }
      if (!found) throw std::logic_error("oracle half for an unknown exercise " + exercise);
    }
  });
  return tables();
}

Registrar::Registrar(std::string exercise, std::vector<Check> (*make)()) {
  tables().push_back({std::move(exercise), {}, make()});
}

void attach_oracle(Check& check, Oracle oracle) {
  if (!oracle.calls || !oracle.expect) return;
  check.request = [function = check.function, repeat = check.repeat,
                   calls = std::move(oracle.calls)](std::uint64_t seed) {
    json request{{"function", function}, {"calls", calls(seed)}};
    if (repeat > 1) request["repeat"] = repeat;
    return request;
  };
  check.expect = [one = std::move(oracle.expect)](const json& request) {
    json out = json::array();
    for (const json& call : request.at("calls")) out.push_back(one(call));
    return json{{"calls", std::move(out)}};
  };
}

OracleRegistrar::OracleRegistrar(std::string exercise, OracleTable (*make)()) {
  oracles().emplace_back(std::move(exercise), make());
}

}  // namespace grader
