// Checks of exercise 1, `flops`: attention_flops and crossover_T (10 points). The expected
// counts and the values of the usual slips come from the reference, in oracle/.
//
// Both functions return exact integers, so every comparison is exact. The judge recognises
// the usual slips: 32-bit arithmetic (the seed's T = 65536, d = 128 case needs 42 bits),
// a missing factor 2, the two orders swapped, one product left out, and a crossover that is
// off by one because "strictly cheaper" was read as "no more expensive".
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "judge/check.hpp"
#include "judge/compare.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace grader {
namespace {

using Int = std::int64_t;

// ---- attention_flops ---------------------------------------------------------------------

std::string seed_note(Int T, Int d_phi, Int d_v, bool left) {
  if (T == 65536 && d_phi == 128 && d_v == 128)
    return left ? " (about 2.2e12, the textbook's figure)"
                : " (about 4.3e9, the textbook's figure; exactly 2^32)";
  return "";
}

// expected: {"value": the count, "mistakes": int rules}
Verdict judge_flops(const json& request, const json& expected, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const json& e = expected_of(request, expected, i);
    const Int T = a.at("T").get<Int>(), d_phi = a.at("d_phi").get<Int>(),
              d_v = a.at("d_v").get<Int>();
    const std::string order = a.at("order").get<std::string>();
    const bool left = order == "left";
    const Int want = e.at("value").get<Int>();
    const Int got = result_of(request, reply, i).at("value").get<Int>();
    if (got == want) continue;
    const std::string tried = call_label(i, calls.size()) +
                              "attention_flops(T = " + std::to_string(T) +
                              ", d_phi = " + std::to_string(d_phi) +
                              ", d_v = " + std::to_string(d_v) + ", order = " + order + ")";
    const std::string formula = left ? "2 T^2 (d_phi + d_v)" : "4 T d_phi d_v";
    return failure(tried,
                   "expected " + std::to_string(want) + seed_note(T, d_phi, d_v, left) + " = " +
                       formula + ", got " + std::to_string(got) + " (exact integer comparison)",
                   diagnose_int(got, e.at("mistakes")));
  }
  return Verdict::pass();
}

// ---- crossover_T -------------------------------------------------------------------------

// expected: {"value", "explain": how T* comes about, "cost_at_1": [Left, Right] at T = 1,
// "mistakes": int rules}. Left grows like T^2 and Right like T, which gives both at any T.
Verdict judge_crossover(const json& request, const json& expected, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const Int d_phi = calls[i].at("d_phi").get<Int>();
    const Int d_v = calls[i].at("d_v").get<Int>();
    const json& e = expected_of(request, expected, i);
    const Int want = e.at("value").get<Int>();
    const Int got = result_of(request, reply, i).at("value").get<Int>();
    if (got == want) continue;
    std::string report = "expected " + std::to_string(want) + ", got " + std::to_string(got) +
                         " (exact integer comparison).\n  " + e.at("explain").get<std::string>() +
                         ".";
    if (got > 0 && got < (Int{1} << 20)) {
      const Int left = e.at("cost_at_1").at(0).get<Int>() * got * got;
      const Int right = e.at("cost_at_1").at(1).get<Int>() * got;
      report += "\n  At T = " + std::to_string(got) + ": Left costs " + std::to_string(left) +
                ", Right costs " + std::to_string(right) + ".";
    }
    return failure(call_label(i, calls.size()) + "crossover_T(d_phi = " + std::to_string(d_phi) +
                       ", d_v = " + std::to_string(d_v) + ")",
                   report, diagnose_int(got, e.at("mistakes")));
  }
  return Verdict::pass();
}

std::vector<Check> make_flops_checks() {
  const char* flops = "attention_flops";
  const char* crossover = "crossover_T";
  std::vector<Check> checks;
  // attention_flops: 5.5 points.
  checks.push_back(make_check(flops, "flops/by-hand", 2.0, Visibility::Visible, 1, judge_flops));
  checks.push_back(
      make_check(flops, "flops/65536-tokens", 2.5, Visibility::Visible, 1, judge_flops));
  checks.push_back(
      make_check(flops, "flops/random-sizes", 1.0, Visibility::Hidden, 11, judge_flops));
  // crossover_T: 4.5 points.
  checks.push_back(make_check(crossover, "crossover/equal-widths", 1.0, Visibility::Visible, 1,
                              judge_crossover));
  checks.push_back(
      make_check(crossover, "crossover/off-by-one", 1.5, Visibility::Visible, 1, judge_crossover));
  checks.push_back(
      make_check(crossover, "crossover/fractional", 1.5, Visibility::Visible, 1, judge_crossover));
  checks.push_back(make_check(crossover, "crossover/large-widths", 0.5, Visibility::Hidden, 13,
                              judge_crossover));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration flops_checks{"flops", grader::make_flops_checks};
