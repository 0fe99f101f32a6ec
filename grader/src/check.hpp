// A check: one small value naming what it tests, in the spirit of ggml's test cases.
//
// A check has two halves that meet only through JSON:
//  - the oracle half (grader/oracle/<exercise>.cpp, uses the reference library):
//    request(seed) makes the calls, and expect(request) works out from the reference every
//    value the judge will need: the expected outputs, the outputs of the named mistakes
//    ("suspects") with their sentences, and any other reference-derived figure;
//  - the judge half (grader/checks/<exercise>.cpp, never calls the reference): the table of
//    checks (names, points, visibility, seeds, limits) and judge(request, expected, reply),
//    which compares the runner's outputs with `expected` and says why they differ.
// The student hand-out ships the judge half only and replays {request, expected} recorded
// from the oracle half by the release step (see oracle_source.hpp).
//
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
  // The likely mistake when the code stops on an assertion (Eigen's shape checks): the checks
  // with unequal widths make a transposed product fail that way rather than give wrong numbers.
  std::string crash_hint;

  // Oracle side (empty in a kit built without the reference). The request for the runner:
  // {"function": ..., "calls": [...]}, deterministic in seed.
  std::function<json(std::uint64_t seed)> request;
  // Oracle side: {"calls": [<what the judge needs for call i>, ...]}.
  std::function<json(const json& request)> expect;
  // Judge side: compares the runner's results (reply["results"], one per call) with
  // `expected` (what expect(request) returned). Never calls the reference.
  std::function<Verdict(const json& request, const json& expected, const json& reply)> judge;
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
// registry() returns every exercise with its checks, each joined with its oracle half when
// the kit has one (see oracle_half.hpp). Call it only after static initialisation (from main).
std::vector<ExerciseChecks>& registry();
struct Registrar {
  Registrar(std::string exercise, std::vector<std::string> functions,
            std::vector<Check> (*make)());
};

}  // namespace grader
