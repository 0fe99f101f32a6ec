// A check: one small value naming what it tests, in the spirit of ggml's test cases. An
// exercise's folder (exercises/<ex>/.meta/) holds its two halves, which meet only through JSON
// and the check's name:
//  - checks.cpp, the judge (never calls the reference): name, function, points, visibility,
//    seed, limits, hooks, and judge(request, expected, reply), which compares the runner's
//    outputs with `expected` and says why they differ;
//  - oracle/oracle.cpp, the oracle (uses the reference library): for each check by name,
//    calls(seed) makes the calls, and expect(call) works out from the reference every value
//    the judge will need for one call: the expected outputs, the outputs of the named mistakes
//    ("suspects") with their sentences, and any other reference-derived figure.
// The student hand-out has no oracle/ folders (the release copies the others) and replays
// {request, expected} recorded by the release step (see oracle_source.hpp).
//
// Crashes, time-outs, exceptions, NotImplemented and the memory budget are the engine's job,
// so a judge only ever sees outputs that came back.
#pragma once

#include "../sandbox/sandbox.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

enum class Visibility { Visible, Hidden, AfterDueDate, AfterPublished };

struct Verdict {
  bool passed = false;
  std::string message;  // for a failure: what was tried, expected, got, and the likely mistake
  static Verdict pass() { return {true, ""}; }
  static Verdict fail(std::string why) { return {false, std::move(why)}; }
};

// The oracle part of a check, written in its exercise's oracle/oracle.cpp.
struct Oracle {
  std::function<json(std::uint64_t seed)> calls;  // the request's "calls" array
  std::function<json(const json& call)> expect;   // what the judge needs to know of one call
};

struct Check {
  std::string name;      // "recurrent/hand-example": unique within its exercise
  std::string function;  // the one API function it calls
  double points = 1.0;
  Visibility visibility = Visibility::Visible;
  std::uint64_t seed = 1;  // default seed; `--seed N` replaces it
  // The time rule's checks: each call runs in a runner process of its own, and its CPU time is
  // the supervisor's figure for that process (reply["cpu_seconds"], filled in by the judge).
  bool timed = false;
  Limits limits{};                                 // per-check process limits
  std::optional<std::uint64_t> heap_budget_bytes;  // the memory rule, where one applies
  std::string heap_budget_rule;  // how the budget is computed, said when it is exceeded
  // The likely mistake when the code stops on an assertion (Eigen's shape checks): the checks
  // with unequal widths make a transposed product fail that way rather than give wrong numbers.
  std::string crash_hint;
  // The likely mistake when the check runs into its wall limit (the time rule's checks: work
  // that grows much faster than the input looks like this). Optional.
  std::string timeout_hint;
  // Said when the heap budget is exceeded, after the figures: what a peak of that size looks
  // like for this request (for example, how many T x T matrices). Optional.
  std::function<std::string(const json& request, std::uint64_t peak_bytes)> memory_hint;

  // Made from the oracle (empty in a kit built without the reference). The request for the
  // runner: {"function": ..., "calls": [...]}, deterministic in seed.
  std::function<json(std::uint64_t seed)> request;
  // Made from the oracle: {"calls": [<what the judge needs for call i>, ...]}.
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
    case Visibility::AfterPublished: return "after_published";
  }
  return "visible";
}

struct ExerciseChecks {
  std::string exercise;                // "causal"
  std::vector<std::string> functions;  // its API functions, in header order
  std::vector<Check> checks;
};

// Sets a check's request and expect from its oracle (nothing if the oracle is empty).
void attach_oracle(Check& check, Oracle oracle);

// Each checks file registers its checks table with one static object:
//   static grader::ChecksRegistration causal_checks{"causal", make_causal_checks};
// and each oracle file registers its checks' oracles, by check name, with another:
//   static grader::OracleRegistration oracles{"causal", make_causal_oracles};
// exercise_checks() returns every exercise with its checks, its functions taken from the API
// description, each check joined with its oracle where the kit has one (an oracle that names no
// check of its exercise is an error). Call it only after static initialisation (from main).
std::vector<ExerciseChecks>& exercise_checks();
struct ChecksRegistration {
  ChecksRegistration(std::string exercise, std::vector<Check> (*make)());
};
using OracleTable = std::map<std::string, Oracle>;  // check name -> its oracle
struct OracleRegistration {
  OracleRegistration(std::string exercise, OracleTable (*make)());
};

}  // namespace grader
