// Every exercise with its checks: the checks tables, as each checks file's ChecksRegistration
// hands them over, and their oracles, as each oracle file's OracleRegistration does. These run
// during static initialisation in an order the linker picks, so they only collect; on the first
// call of exercise_checks(), from main or a test, the functions of each exercise are taken from
// its API description and each check is joined with its oracle by name.
#include "api_schemas.hpp"
#include "check.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace grader {

namespace {

std::vector<ExerciseChecks>& tables() {
  static std::vector<ExerciseChecks> exercises;
  return exercises;
}

std::map<std::string, OracleTable (*)()>& oracle_makers() {
  static std::map<std::string, OracleTable (*)()> makers;
  return makers;
}

// Gives each check of `ex` its oracle. A name in the table that no check has is a slip of the
// oracle file (a renamed check), which would leave a check without its oracle: refused.
void join_oracles(ExerciseChecks& ex, OracleTable table) {
  for (Check& c : ex.checks) {
    const auto it = table.find(c.name);
    if (it == table.end()) continue;
    attach_oracle(c, std::move(it->second));
    table.erase(it);
  }
  if (!table.empty())
    throw std::logic_error("the oracle of " + ex.exercise +
                           " names a check it does not have: " + table.begin()->first);
}

}  // namespace

std::vector<ExerciseChecks>& exercise_checks() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto& ex : tables()) {
      for (const api::Schema& s : api::exercise_schemas(ex.exercise))
        ex.functions.push_back(s.function);
      const auto maker = oracle_makers().find(ex.exercise);
      if (maker != oracle_makers().end()) join_oracles(ex, maker->second());
    }
  });
  return tables();
}

ChecksRegistration::ChecksRegistration(std::string exercise, std::vector<Check> (*make)()) {
  tables().push_back({std::move(exercise), {}, make()});
}

OracleRegistration::OracleRegistration(std::string exercise, OracleTable (*make)()) {
  if (!oracle_makers().emplace(std::move(exercise), make).second)
    throw std::logic_error("two oracle files for one exercise");
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
