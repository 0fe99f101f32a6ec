// What a student reads, to the character: the numbers in a few messages, their precision (ten
// significant digits, "%.10g") and their units. A message's text is part of the product; these
// fix three of them whole, so that a change of precision or wording is a decision, not an accident.
#include "fake_runner.hpp"
#include "src/judge/numeric_comparison.hpp"

#include <doctest/doctest.h>

#include <cstdint>

using fake::json;
using fake::Matrix;

TEST_CASE("messages: numbers print with ten significant digits") {
  CHECK(grader::fmt(2.0 / 3.0) == "0.6666666667");
  CHECK(grader::fmt(70.0 / 12.0) == "5.833333333");
  CHECK(grader::fmt(1234567.891) == "1234567.891");
  CHECK(grader::fmt(1e-12) == "1e-12");
  CHECK(grader::fmt(3.0) == "3");
}

TEST_CASE("messages: the crossover's explanation, whole") {
  // The right answer on every call but (d_phi, d_v) = (5, 7), where T* = 70/12 = 5.83...
  const auto& c = fake::check("flops", "crossover/fractional");
  const grader::Verdict v = fake::judge_with(
      c,
      [](const json& a) {
        const std::int64_t p = a.at("d_phi"), d = a.at("d_v");
        const std::int64_t right = 2 * p * d / (p + d) + 1;
        return json{{"value", p == 5 ? right + 1 : right}};
      },
      c.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(v.message ==
        "Call 2 of 3: crossover_T(d_phi = 5, d_v = 7)\n"
        "expected 6, got 7 (exact integer comparison).\n"
        "  T* = 2 d_phi d_v / (d_phi + d_v) = 70/12 = 5.833333333, not an integer, so the answer "
        "is the next integer up.\n"
        "  At T = 7: Left costs 1176, Right costs 980.\n"
        "Likely mistake: off by one: T* was rounded up and then 1 was added; when T* is not an "
        "integer, rounding up alone gives the answer.");
}

TEST_CASE("messages: a memory write's failure, whole") {
  const auto& c = fake::check("memory", "write/unnormalized-keys");
  const grader::Verdict v = fake::judge_with(
      c,
      [](const json& a) {
        const Matrix K = wire::to_matrix(a.at("K")), V = wire::to_matrix(a.at("V"));
        return json{{"S", wire::from_matrix(K.transpose() * V)}};
      },
      c.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(v.message ==
        "write(K: 6 x 4 (n x d_k), V: 6 x 4 (n x d_v)); key lengths from 0.5 to 4\n"
        "Six keys of lengths 0.5 to 4: each must be scaled to unit length before writing.\n"
        "S, 4 x 4 (d_k x d_v): 16 of 16 entries differ.\n"
        "  max abs error 4.903086219, max rel error 17.43618121\n"
        "  worst entry [1,2]: expected -0.4643957676, got -3.946324485\n"
        "  tolerance: |got - expected| <= 1e-09 + 1e-09 * |expected|\n"
        "  first mismatches: [0,0] expected 0.05784321988, got -0.01545897716; [0,1] expected "
        "-0.3243675342, got 0.3444339952; [0,2] expected -0.05946211339, got 0.5347314092; [0,3] "
        "expected 0.9632496741, got 1.40136866; ...\n"
        "Likely mistake: the keys are not normalized: this is the starter's K^T V. Divide each "
        "key by its length first; S = sum_s k_hat_s v_s^T.");
}

TEST_CASE("messages: a causal hand example off in the 8th digit, whole") {
  const auto& c = fake::check("causal", "recurrent/hand-example");
  const grader::Verdict v = fake::judge_with(
      c,
      [](const json& a) {
        json r = fake::reference_result("causal_linear_attention_recurrent", a);
        Matrix O = wire::to_matrix(r.at("O"));
        O(1, 0) += 3e-8;
        r["O"] = wire::from_matrix(O);
        return r;
      },
      c.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(v.message ==
        "causal_linear_attention_recurrent(Q, K: 3 x 2, V: 3 x 2, phi = elu+1 with d_phi = 2, "
        "eps = 0)\n"
        "The textbook's three tokens with elu+1 and eps = 0; the exact outputs are (1, 0), "
        "(5/9, 4/9) = (0.5555555556, 0.4444444444) and (7/12, 2/3) = (0.5833333333, "
        "0.6666666667).\n"
        "O, 3 x 2 (T x d_v): 1 of 6 entries differ.\n"
        "  max abs error 3.000000004e-08, max rel error 5.400000007e-08\n"
        "  worst entry [1,0]: expected 0.5555555556, got 0.5555555856\n"
        "  tolerance: |got - expected| <= 1e-09 + 1e-09 * |expected|\n"
        "  first mismatches: [1,0] expected 0.5555555556, got 0.5555555856");
}
