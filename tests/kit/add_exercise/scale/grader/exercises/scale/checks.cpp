// Checks of the template exercise `scale` (3 points): what each check asks and how the judge
// compares. Its oracle is in oracle/oracle.cpp, joined by the checks' names. Like every
// exercise it has a hidden check, whose inputs change with the seed.
#include "../../common/wire.hpp"
#include "../../src/judge/check.hpp"
#include "../../src/judge/compare.hpp"

namespace grader {
namespace {

Verdict judge_scaled(const json& request, const json& expected, const json& reply) {
  for (std::size_t i = 0; i < request.at("calls").size(); ++i) {
    const Comparison c = compare_matrices(wire::to_matrix(expected_of(request, expected, i).at("scaled")),
                                          wire::to_matrix(result_of(request, reply, i).at("scaled")),
                                          kTight, "scaled", "n x d");
    if (!c.ok) return failure(call_label(i, request.at("calls").size()) + "scale(X, factor)", c.report, std::nullopt);
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

static grader::Registrar scale_registrar{"scale", grader::make_scale_checks};
