// Checks of the template exercise `scale` (2 points): everything an exercise needs in one file.
#include "../common/api.hpp"
#include "scale.hpp"

// ==== API =====================================================================================

// X: (n, d), factor -> scaled: (n, d).
static const api::Exercise scale_api{"scale", {
    api::function(LINATTN_SIGNATURE(scale), {"X", "factor"}, {"scaled"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../src/check.hpp"
#include "../src/compare.hpp"

namespace grader {
namespace {

#ifdef LINATTN_ORACLE
// The expected values: X * factor, worked out here (no reference function is needed).
json expect_scaled(const json& call) {
  return json{{"scaled", wire::from_matrix(wire::to_matrix(call.at("X")) * call.at("factor").get<double>())}};
}
json calls_by_two(std::uint64_t) {
  return json::array({json{{"X", wire::from_matrix(Matrix::Identity(3, 2))}, {"factor", 2.0}}});
}
json calls_negative(std::uint64_t) {
  return json::array({json{{"X", wire::from_matrix(Matrix::Constant(2, 4, 1.5))}, {"factor", -0.5}}});
}
#endif

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
  return {with_oracle(make_check("scale", "scale/by-two", 1.0, Visibility::Visible, 1, judge_scaled),
                      LINATTN_ORACLE_OF(calls_by_two, expect_scaled)),
          with_oracle(make_check("scale", "scale/negative", 1.0, Visibility::Visible, 1, judge_scaled),
                      LINATTN_ORACLE_OF(calls_negative, expect_scaled))};
}

}  // namespace
}  // namespace grader

static grader::Registrar scale_registrar{"scale", grader::make_scale_checks};

#endif  // LINATTN_RUNNER
