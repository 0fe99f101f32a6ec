#include "check.hpp"

namespace grader {

std::vector<ExerciseChecks>& registry() {
  static std::vector<ExerciseChecks> exercises;  // filled by the checks files' Registrars
  return exercises;
}

Registrar::Registrar(std::string exercise, std::vector<std::string> functions,
                     std::vector<Check> (*make)()) {
  registry().push_back({std::move(exercise), std::move(functions), make()});
}

}  // namespace grader
