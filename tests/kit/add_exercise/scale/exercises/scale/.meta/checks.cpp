// Checks of the template exercise `scale` (3 points): what each check asks and how the judge
// compares. Its oracle is in oracle/oracle.cpp, joined by the checks' names, and its judge
// tests in tests/judge_test.cpp. Like every exercise it has a hidden check, whose inputs change
// with the seed, and names a likely mistake (one here, worked out by the oracle).
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"

namespace grader {
namespace {

// expected per call: {"scaled": (n, d), "suspects"}; a failure names the suspect it matches.
Verdict judge_scaled(const json& request, const json& expected, const json& reply) {
  for (std::size_t i = 0; i < request.at("calls").size(); ++i) {
    const json& e = expected_of(request, expected, i);
    const Matrix got = wire::to_matrix(result_of(request, reply, i).at("scaled"));
    const Comparison c =
        compare_matrices(wire::to_matrix(e.at("scaled")), got, kTight, "scaled", "n x d");
    if (!c.ok)
      return failure(call_label(i, request.at("calls").size()) + "scale(X, factor)", c.report,
                     diagnose(got, e.at("suspects")));
  }
  return Verdict::pass();
}

std::vector<Check> make_scale_checks() {
  return {make_check("scale", "scale/by-two", 1.0, Visibility::Visible, 1, judge_scaled),
          make_check("scale", "scale/negative", 1.0, Visibility::Visible, 1, judge_scaled),
          make_check("scale", "scale/random-hidden", 1.0, Visibility::Hidden, 7, judge_scaled)};
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration scale_checks{"scale", grader::make_scale_checks};
