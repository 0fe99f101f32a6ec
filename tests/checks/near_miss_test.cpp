// Near misses: a tolerance is a promise on both sides. Every comparison helper is given an error
// just inside its tolerance (half of it: must pass) and just outside (twice it: must fail), for
// the absolute part (expected 0) and the relative part (expected large) separately, so a
// tolerance made 1000x looser or tighter fails here. Then the judges themselves: an answer off
// in the 7th digit (a float32 solution) fails, a reference answer nudged by half the tolerance
// passes; and every judge that takes several calls is given an answer right on every call but
// one (the second, then the last), which must fail and say which call.
#include "fake_runner.hpp"
#include "judge/compare.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>

using fake::contains;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

// kTight's promise, written out here (not read from kTight): |got - e| <= 1e-9 + 1e-9 |e|.
double tight_allowance(double expected) { return 1e-9 + 1e-9 * std::fabs(expected); }

// The two sides of the tolerance at `expected`.
double inside(double expected) { return expected + 0.5 * tight_allowance(expected); }
double outside(double expected) { return expected + 2.0 * tight_allowance(expected); }

// expected 0: only the absolute part counts; 1e6: the relative part is 1000x the absolute.
const double kProbes[] = {0.0, 1e6, -3.5e4};

}  // namespace

TEST_CASE("checks/near-miss: within() on both sides of kTight, absolute and relative") {
  for (double e : kProbes) {
    CAPTURE(e);
    CHECK(grader::within(e, inside(e), grader::kTight));
    CHECK(grader::within(e, 2 * e - inside(e), grader::kTight));  // the same distance below
    CHECK_FALSE(grader::within(e, outside(e), grader::kTight));
    CHECK_FALSE(grader::within(e, 2 * e - outside(e), grader::kTight));
  }
  // The relative part alone: at 1e6 an error of 0.5e-3 passes and 2e-3 fails; with the
  // absolute part alone (a dropped rel term) 0.5e-3 would fail.
  CHECK(grader::within(1e6, 1e6 + 0.5e-3, grader::kTight));
  CHECK_FALSE(grader::within(1e6, 1e6 + 2e-3, grader::kTight));
  // Exact equality means exact: the next double up already differs.
  CHECK(grader::within(3.0, 3.0, grader::kExact));
  CHECK_FALSE(grader::within(3.0, std::nextafter(3.0, 4.0), grader::kExact));
  // A tolerance of one's own is honoured on both sides too.
  const grader::Tolerance loose{1e-3, 0.0};
  CHECK(grader::within(1.0, 1.0005, loose));
  CHECK_FALSE(grader::within(1.0, 1.002, loose));
}

TEST_CASE("checks/near-miss: compare_matrices, compare_vectors, compare_scalars on both sides") {
  for (double e : kProbes) {
    CAPTURE(e);
    Matrix expected = Matrix::Constant(3, 2, 1.0);
    expected(2, 1) = e;
    Matrix in = expected, out = expected;
    in(2, 1) = inside(e);
    out(2, 1) = outside(e);
    const auto ok = grader::compare_matrices(expected, in, grader::kTight, "O");
    CHECK(ok.ok);
    CHECK(ok.report.empty());
    const auto bad = grader::compare_matrices(expected, out, grader::kTight, "O");
    CHECK_FALSE(bad.ok);
    CHECK(bad.mismatches == 1);
    CHECK(bad.worst_row == 2);
    CHECK(bad.worst_col == 1);

    Vector ev = Vector::Constant(4, -2.0);
    ev(1) = e;
    Vector vin = ev, vout = ev;
    vin(1) = inside(e);
    vout(1) = outside(e);
    CHECK(grader::compare_vectors(ev, vin, grader::kTight, "o").ok);
    const auto vbad = grader::compare_vectors(ev, vout, grader::kTight, "o");
    CHECK_FALSE(vbad.ok);
    CHECK(vbad.mismatches == 1);

    CHECK(grader::compare_scalars(e, inside(e), grader::kTight, "x").ok);
    CHECK_FALSE(grader::compare_scalars(e, outside(e), grader::kTight, "x").ok);
  }
}

TEST_CASE("checks/near-miss: suspects are recognised within kTight and not beyond") {
  for (double e : kProbes) {
    CAPTURE(e);
    Matrix value = Matrix::Constant(2, 2, 0.25);
    value(1, 0) = e;
    Matrix in = value, out = value;
    in(1, 0) = inside(e);
    out(1, 0) = outside(e);
    CHECK(grader::same_values(value, in, grader::kTight));
    CHECK_FALSE(grader::same_values(value, out, grader::kTight));
    const std::vector<grader::Suspect> suspects{{"the mistake", value}};
    CHECK(grader::diagnose(in, suspects) == std::optional<std::string>("the mistake"));
    CHECK_FALSE(grader::diagnose(out, suspects).has_value());
    // The same through JSON, small (whole matrix) and scalar.
    const json js = grader::suspects_json(suspects);
    CHECK(grader::diagnose(in, js) == std::optional<std::string>("the mistake"));
    CHECK_FALSE(grader::diagnose(out, js).has_value());
    const json ss = grader::scalar_suspects_json({{"scalar mistake", e}});
    CHECK(grader::diagnose_scalar(inside(e), ss) == std::optional<std::string>("scalar mistake"));
    CHECK_FALSE(grader::diagnose_scalar(outside(e), ss).has_value());
    const std::vector<grader::ScalarSuspect> sv{{"scalar mistake", e}};
    CHECK(grader::diagnose_scalar(inside(e), sv) == std::optional<std::string>("scalar mistake"));
    CHECK_FALSE(grader::diagnose_scalar(outside(e), sv).has_value());
  }
  // A large suspect travels as a probe; the probed entries keep the same promise.
  Matrix large = Matrix::Constant(100, 64, 1e6);  // 6400 entries > kProbeEntries
  const json probe = grader::suspects_json({{"large", large}});
  REQUIRE(probe.at(0).at("value").contains("probe"));
  Matrix in = large, out = large;
  in(99, 63) = inside(1e6);  // the last entry is always probed
  out(99, 63) = outside(1e6);
  CHECK(grader::diagnose(in, probe) == std::optional<std::string>("large"));
  CHECK_FALSE(grader::diagnose(out, probe).has_value());
}

// ---- the judges ----------------------------------------------------------------------------

namespace {

// Adds `delta(x)` to one number of a result: the first entry of its first matrix or vector, or
// its value. Integers get +1 (their comparison is exact).
void nudge(json& result, const std::function<double(double)>& delta) {
  for (auto& [key, v] : result.items()) {
    if (v.is_object() && v.contains("data") && !v.at("data").empty()) {
      auto& x = v.at("data").at(0);
      x = x.get<double>() + delta(x.get<double>());
      return;
    }
    if (v.is_array() && !v.empty() && v.at(0).is_number()) {
      v.at(0) = v.at(0).get<double>() + delta(v.at(0).get<double>());
      return;
    }
    if (v.is_number_integer()) {
      v = v.get<std::int64_t>() + 1;
      return;
    }
    if (v.is_number()) {
      v = v.get<double>() + delta(v.get<double>());
      return;
    }
  }
  FAIL("nothing to nudge in " << result.dump());
}

// The reference on every call, with call `wrong` nudged by `delta`.
fake::Impl reference_but(const std::string& function, std::size_t wrong,
                         std::function<double(double)> delta) {
  auto call_no = std::make_shared<std::size_t>(0);
  return [=](const json& call) {
    json r = fake::reference_result(function, call);
    if ((*call_no)++ == wrong) nudge(r, delta);
    return r;
  };
}

// Judges whose verdict is statistical over all calls (the mean of many estimates), not exact
// per call: a small change to one call may pass by design; they still compare each call
// exactly first, so a clear error on one call is tried on them below.
bool statistical(const grader::Check& c) {
  return contains(c.name, "unbiased") || contains(c.name, "average");
}

// Checks that by design look at something other than the values: the shape alone, or the sign.
bool not_about_values(const std::string& id) {
  return id == "random_features/features/shape" || id == "random_features/features/positive" ||
         id == "taylor/features/shape";
}

// Checks whose expected values are not the reference's but an independent estimate with an error
// of its own, so their tolerance is wider than kTight: backward's central differences (error
// about 1e-9, tolerance 1e-6). backward's judge test (exercises/backward/.meta/tests/) nudges it
// past its own tolerance.
bool loose_by_design(const std::string& id) {
  return id == "backward/backward/central-differences";
}

// Checks that judge a resource (memory, time) and not the values: any answer passes them, no
// answer at all does not (checks/shared/answer_gate.hpp; the gate's own test is
// answer_gate_test.cpp).
bool judges_a_resource(const grader::Check& c) {
  return c.timed || c.heap_budget_bytes.has_value();
}

// The reference on every call, with every number of call `wrong`'s result set to 0.
fake::Impl zeros_on(const std::string& function, std::size_t wrong) {
  auto call_no = std::make_shared<std::size_t>(0);
  return [=](const json& call) {
    json r = fake::reference_result(function, call);
    if ((*call_no)++ != wrong) return r;
    for (auto& [key, v] : r.items()) {
      json& numbers = v.is_object() && v.contains("data") ? v.at("data") : v;
      if (numbers.is_array())
        for (auto& x : numbers) x = 0.0;
      else if (numbers.is_number()) numbers = 0.0;
    }
    return r;
  };
}

}  // namespace

TEST_CASE(
    "checks/near-miss: a float32 answer (off in the 7th digit) fails, half the tolerance passes") {
  const grader::Check& c = fake::check("causal", "recurrent/hand-example");
  const auto float32 = [](const json& call) {
    json r = fake::reference_result("causal_linear_attention_recurrent", call);
    for (auto& x : r.at("O").at("data"))
      x = static_cast<double>(static_cast<float>(x.get<double>()));
    return r;
  };
  const grader::Verdict f = fake::judge_with(c, float32, c.seed);
  INFO(f.message);
  CHECK_FALSE(f.passed);
  CHECK(contains(f.message, "tolerance"));
  const auto half = [](const json& call) {
    json r = fake::reference_result("causal_linear_attention_recurrent", call);
    for (auto& x : r.at("O").at("data")) x = inside(x.get<double>());
    return r;
  };
  CHECK(fake::judge_with(c, half, c.seed).passed);
  const auto twice = [](const json& call) {
    json r = fake::reference_result("causal_linear_attention_recurrent", call);
    for (auto& x : r.at("O").at("data")) x = outside(x.get<double>());
    return r;
  };
  CHECK_FALSE(fake::judge_with(c, twice, c.seed).passed);
}

TEST_CASE("checks/near-miss: every judge fails an answer nudged past the tolerance on one call") {
  // For each check: half the tolerance on one call passes, twice the tolerance fails. Checks
  // with exact (integer) answers are nudged by 1 and only the failing side is asked.
  int judged = 0;
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const auto& c : ex.checks) {
      const std::string id = ex.exercise + "/" + c.name;
      if (statistical(c) || not_about_values(id) || loose_by_design(id) || judges_a_resource(c))
        continue;
      CAPTURE(ex.exercise + "/" + c.name);
      const grader::Verdict bad = fake::judge_with(
          c, reference_but(c.function, 0, [](double x) { return outside(x) - x; }), c.seed);
      CHECK_FALSE(bad.passed);
      ++judged;
    }
  CHECK(judged > (fake::every_exercise_under_test() ? 40 : 0));
}

TEST_CASE(
    "checks/near-miss: a judge of several calls fails when only call 2, or only the last, is "
    "wrong") {
  std::set<std::string> multi;
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const auto& c : ex.checks) {
      const std::size_t n = c.request(c.seed).at("calls").size();
      if (n < 2) continue;
      const std::string id = ex.exercise + "/" + c.name;
      CAPTURE(id);
      multi.insert(id);
      // Right on call 1 (and on every call but one): the reference itself passes...
      REQUIRE(fake::judge_with(c, fake::reference(c.function), c.seed).passed);
      for (std::size_t wrong : {std::size_t{1}, n - 1}) {
        CAPTURE(wrong);
        if (judges_a_resource(c)) {
          // A resource check passes any answer (answer_gate_test.cpp) but fails no answer at
          // all on that one call, naming the call.
          const grader::Verdict none = fake::judge_with(c, zeros_on(c.function, wrong), c.seed);
          INFO(none.message);
          CHECK_FALSE(none.passed);
          CHECK(contains(none.message,
                         "Call " + std::to_string(wrong + 1) + " of " + std::to_string(n)));
          continue;
        }
        // ...a clear error on that one call fails and names the call...
        const grader::Verdict v = fake::judge_with(
            c, reference_but(c.function, wrong, [](double x) { return 0.5 + 0.25 * std::fabs(x); }),
            c.seed);
        INFO(v.message);
        CHECK_FALSE(v.passed);
        if (!statistical(c))
          CHECK(contains(v.message,
                         "Call " + std::to_string(wrong + 1) + " of " + std::to_string(n)));
        // ...and so does a near miss (twice the tolerance), except where the verdict is
        // statistical over all calls.
        if (!statistical(c) && !loose_by_design(id))
          CHECK_FALSE(fake::judge_with(
                          c,
                          reference_but(c.function, wrong, [](double x) { return outside(x) - x; }),
                          c.seed)
                          .passed);
      }
    }
  INFO("multi-call checks found: " << multi.size());
  if (!fake::every_exercise_under_test()) return;  // the counts below are the kit's exercises'
  // The multi-call checks this test must reach (a registry change that drops one should be seen).
  CHECK(multi.count("causal/recurrent/elu-and-relu") == 1);
  CHECK(multi.count("causal/parallel/elu-and-relu") == 1);
  CHECK(multi.count("causal/step/reproduces-recurrent") == 1);
  CHECK(multi.size() >= 6);
}
