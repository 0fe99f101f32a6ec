// The time rule's judge on made-up replies: the CPU times are written here, so each case says
// exactly which growth it stands for (8x for a linear form, 64x for a quadratic one).
#include "fake_runner.hpp"

#include "checks/shared/time_rule.hpp"

namespace {

using fake::json;

// Two calls of a made-up function with one matrix result; the expected outputs are these.
json request() {
  return json{{"function", "f"}, {"calls", json::array({json::object(), json::object()})}, {"repeat", 5}};
}
json output(double x) { return json{{"O", wire::from_matrix(fake::Matrix::Constant(2, 2, x))}}; }
json expected() {
  return json{{"calls", json::array({json{{"tokens", 512}, {"outputs", output(1.0)}},
                                     json{{"tokens", 4096}, {"outputs", output(2.0)}}})}};
}
json reply(double small_seconds, double large_seconds, double second_output = 2.0) {
  return json{{"outcome", "returned"},
              {"results", json::array({output(1.0), output(second_output)})},
              {"cpu_seconds", json::array({small_seconds, large_seconds})}};
}

}  // namespace

TEST_CASE("time rule: linear growth passes, up to the allowed factor") {
  CHECK(grader::judge_linear_time(request(), expected(), reply(0.001, 0.008)).passed);
  CHECK(grader::judge_linear_time(request(), expected(), reply(0.001, 0.0239)).passed);
  // A call too fast to be timed at the small size still yields a verdict, not a division by 0.
  CHECK(grader::judge_linear_time(request(), expected(), reply(0.0, 0.0)).passed);
}

TEST_CASE("time rule: quadratic growth fails and says what was measured") {
  const grader::Verdict v = grader::judge_linear_time(request(), expected(), reply(0.001, 0.064));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "T = 512"));
  CHECK(fake::contains(v.message, "T = 4096"));
  CHECK(fake::contains(v.message, "64 times"));
  CHECK(fake::contains(v.message, "least of 5 runs"));
  CHECK(!grader::judge_linear_time(request(), expected(), reply(0.001, 0.0241)).passed);
}

TEST_CASE("time rule: a failed check names the likely mistake its exercise gave it") {
  grader::Oracle oracle{[](std::uint64_t) { return json::array({json::object(), json::object()}); },
                        [](const json&) { return json::object(); }};
  const grader::Check own = grader::linear_time_check("f", "f/linear-time", 1.0, oracle,
                                                      "it rebuilds the state for every chunk");
  const grader::Verdict v = own.judge(request(), expected(), reply(0.001, 0.064));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "it rebuilds the state for every chunk"));
  CHECK(!fake::contains(v.message, "sums over all earlier tokens"));
  // Without one, the recurrence's wording.
  const grader::Check plain = grader::linear_time_check("f", "f/linear-time", 1.0, oracle);
  CHECK(fake::contains(plain.judge(request(), expected(), reply(0.001, 0.064)).message,
                       "sums over all earlier tokens again for each new one"));
  CHECK(plain.judge(request(), expected(), reply(0.001, 0.008)).passed);
}

TEST_CASE("time rule: a fast but wrong answer earns nothing") {
  const grader::Verdict v = grader::judge_linear_time(request(), expected(), reply(0.001, 0.008, 2.5));
  REQUIRE(!v.passed);
  CHECK(fake::contains(v.message, "outputs are wrong"));
}

TEST_CASE("time rule: a time check asks the runner to repeat its calls") {
  grader::Oracle oracle{[](std::uint64_t) { return json::array({json::object(), json::object()}); },
                        [](const json&) { return json::object(); }};
  const grader::Check c = grader::linear_time_check("f", "f/linear-time", 1.0, oracle);
  CHECK(c.request(1).at("repeat") == grader::kTimeRuleRepeat);
  CHECK(c.request(1).at("calls").size() == 2);
}
