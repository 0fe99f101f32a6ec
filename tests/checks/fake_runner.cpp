#include "fake_runner.hpp"

#include "src/judge/api_schemas.hpp"

#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fake {

const grader::ExerciseChecks& exercise(const std::string& name) {
  for (const auto& ex : grader::exercise_checks())
    if (ex.exercise == name) return ex;
  throw std::runtime_error("no exercise " + name);
}

bool every_exercise_under_test() { return std::getenv("LINATTN_CHECKS_ONLY") == nullptr; }

std::vector<std::reference_wrapper<const grader::ExerciseChecks>> exercises_under_test() {
  std::set<std::string> only;
  if (const char* names = std::getenv("LINATTN_CHECKS_ONLY")) {
    std::istringstream in(names);
    for (std::string name; in >> name;) only.insert(name);
  }
  std::vector<std::reference_wrapper<const grader::ExerciseChecks>> out;
  for (const auto& ex : grader::exercise_checks())
    if (every_exercise_under_test() || only.erase(ex.exercise)) out.push_back(std::cref(ex));
  // A name that is not an exercise is a mistake of the caller, not a test that passes empty.
  if (!only.empty())
    throw std::runtime_error("LINATTN_CHECKS_ONLY names no exercise " + *only.begin());
  return out;
}

const grader::Check& check(const std::string& ex, const std::string& name) {
  for (const auto& c : exercise(ex).checks)
    if (c.name == name) return c;
  throw std::runtime_error("no check " + ex + "/" + name);
}

linref::FeatureMap phi_of(const json& spec) {
  const std::string name = spec.at("name");
  if (name == "elu_plus_one") return linref::elu_plus_one;
  if (name == "relu") return linref::relu;
  if (name == "identity") return linref::identity;
  if (name == "taylor") return linref::taylor_features;
  if (name == "positive_random") {
    const Matrix Omega = wire::to_matrix(spec.at("Omega"));
    return [Omega](const Matrix& X) { return linref::positive_random_features(X, Omega); };
  }
  throw std::runtime_error("unknown phi " + name);
}

json reference_result(const std::string& f, const json& a) {
  // The reference, called through the exercise's API description, as a runner would call it
  // (each checks file registers its reference's functions; std::out_of_range for none).
  return api::call_reference(f, a);
}

Impl reference(const std::string& function) {
  return [function](const json& call) { return reference_result(function, call); };
}

json reply_from(const json& request, const Impl& impl) {
  json results = json::array(), cpu = json::array();
  for (const json& call : request.at("calls")) {
    results.push_back(impl(call));
    cpu.push_back(0.0);  // no time is measured here: a time check sees no growth at all
  }
  // Through CBOR and back, as the real runner's reply travels.
  return wire::decode(wire::encode(json{{"outcome", "returned"},
                                        {"results", results},
                                        {"cpu_seconds", cpu},
                                        {"peak_heap_bytes", 0},
                                        {"inputs_changed", json::array()}}));
}

grader::Verdict judge_with(const grader::Check& c, const Impl& impl, std::uint64_t seed) {
  // Request and expected values through CBOR and back, as a recording replays them.
  const json request = wire::decode(wire::encode(c.request(seed)));
  const json expected = wire::decode(wire::encode(c.expect(request)));
  return c.judge(request, expected, reply_from(request, impl));
}

std::map<std::string, grader::Verdict> judge_all(const std::string& ex, const std::string& function,
                                                 const Impl& impl) {
  std::map<std::string, grader::Verdict> out;
  for (const auto& c : exercise(ex).checks)
    if (c.function == function) out[c.name] = judge_with(c, impl, c.seed);
  return out;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace fake
