// A check: one small value naming what it tests, in the spirit of ggml's test cases. The
// checks of one exercise live in grader/checks/<exercise>.cpp and register themselves.
//
// The engine runs a check like this: request(seed) makes the calls; the runner (a separate,
// limited process) calls `function` on them and replies with the outputs; if the student's
// code returned, judge(request, reply) compares them with the reference and says why not.
// Crashes, time-outs, exceptions, NotImplemented and the memory budget are the engine's job,
// so a judge only ever sees outputs that came back.
#pragma once

#include "sandbox.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

enum class Visibility { Visible, Hidden, AfterDueDate };

struct Verdict {
  bool passed = false;
  std::string message;  // for a failure: what was tried, expected, got, and the likely mistake
  static Verdict pass() { return {true, ""}; }
  static Verdict fail(std::string why) { return {false, std::move(why)}; }
};

struct Check {
  std::string name;      // "recurrent/hand-example": unique within its exercise
  std::string function;  // the one API function it calls
  double points = 1.0;
  Visibility visibility = Visibility::Visible;
  std::uint64_t seed = 1;             // default seed; `--seed N` replaces it
  Limits limits{};                    // per-check process limits
  std::optional<std::uint64_t> heap_budget_bytes;   // the memory rule, where one applies
  std::string heap_budget_rule;       // how the budget is computed, said when it is exceeded

  // The request for the runner: {"function": ..., "calls": [...]}. Deterministic in seed.
  std::function<json(std::uint64_t seed)> request;
  // Compare the runner's results (reply["results"], one per call) with the reference.
  std::function<Verdict(const json& request, const json& reply)> judge;
};

inline const char* visibility_name(Visibility v) {
  switch (v) {
    case Visibility::Visible: return "visible";
    case Visibility::Hidden: return "hidden";
    case Visibility::AfterDueDate: return "after_due_date";
  }
  return "visible";
}

struct ExerciseChecks {
  std::string exercise;              // "causal"
  std::vector<std::string> functions;  // its API functions, in header order
  std::vector<Check> checks;
};

// Each checks file defines one registrar:
//   static grader::Registrar registrar{"causal", {functions...}, make_causal_checks};
std::vector<ExerciseChecks>& registry();
struct Registrar {
  Registrar(std::string exercise, std::vector<std::string> functions,
            std::vector<Check> (*make)());
};

}  // namespace grader
