// What the judges of the checks share besides comparison and diagnosis: reading a request,
// its expected values and a reply call by call, labelling calls, saying a failure, and making
// a check whose judge is guarded against a malformed reply.
#pragma once

#include "check.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace grader {

// A failed verdict: what was tried, then the comparison's report, then the likely mistake.
Verdict failure(const std::string& tried, const std::string& report,
                const std::optional<std::string>& mistake = std::nullopt);

// ---- reading a reply ---------------------------------------------------------------------

// The judge's signature (see Check::judge).
using Judge = std::function<Verdict(const json& request, const json& expected, const json& reply)>;

// reply["results"][i], checking that there is one result per call.
const json& result_of(const json& request, const json& reply, std::size_t i);
// expected["calls"][i], checking that there is one entry per call.
const json& expected_of(const json& request, const json& expected, std::size_t i);
// Wraps a judge so that a malformed reply becomes a failed verdict instead of an exception.
Judge guarded(Judge judge);

// "Call 2 of 5: " when a request has several calls, "" for one.
std::string call_label(std::size_t i, std::size_t n);

// Judges call by call: `one(i, arguments, expected, result)` returns a failure or nothing;
// the first failure is the verdict, prefixed with call_label.
using OneCall = std::function<std::optional<Verdict>(std::size_t i, const json& call,
                                                     const json& expected, const json& result)>;
Verdict each_call(const json& request, const json& expected, const json& reply, const OneCall& one);

// A check of `function` whose judge is guarded. Its request and expect come from its oracle
// (joined by the check's name, see check.hpp).
Check make_check(const std::string& function, const std::string& name, double points,
                 Visibility visibility, std::uint64_t seed, Judge judge);

}  // namespace grader
