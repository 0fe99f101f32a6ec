// How an oracle file (grader/oracle/<exercise>.cpp) hands its half of the checks to the
// registry. The judge half names each check in a table (grader/checks/<exercise>.cpp); the
// oracle half says, by the same names, how to make each check's calls from a seed and what
// the reference expects of each call. registry() joins the two by name.
//
// Nothing here needs the reference itself, so a kit without it still compiles this header;
// it simply has no oracle files, and so no OracleRegistrar.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace grader {

// A check's calls for one seed: the "calls" array of its request.
using CallsMaker = std::function<nlohmann::json(std::uint64_t seed)>;
// What the judge needs to know about one call (its arguments), from the reference.
using CallExpect = std::function<nlohmann::json(const nlohmann::json& call)>;

struct OracleTable {
  std::map<std::string, CallsMaker> calls;          // check name -> its calls
  std::map<std::string, CallExpect> by_function;    // API function -> expectations of a call
  std::map<std::string, CallExpect> by_check;       // check name -> overrides by_function
};

// static grader::OracleRegistrar oracle{"causal", make_causal_oracle};
struct OracleRegistrar {
  OracleRegistrar(std::string exercise, OracleTable (*make)());
};

}  // namespace grader
