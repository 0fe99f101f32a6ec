// The answer gate of the resource checks (grader/checks/shared/answer_gate.hpp): what is an
// answer (anything computed, however wrong) and what is none (nothing computed), on made-up
// calls, then on every resource check of the kit with the reference's own results.
#include "fake_runner.hpp"

#include "checks/shared/answer_gate.hpp"

#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace {

using fake::json;
using fake::Matrix;

// A call of three tokens: Q and V (3 x 2), eps; the reference's O is `want`.
json call_of(const Matrix& Q, const Matrix& V) {
  return json{{"Q", wire::from_matrix(Q)}, {"V", wire::from_matrix(V)}, {"eps", 0.0}};
}
json result(const Matrix& O) { return json{{"O", wire::from_matrix(O)}}; }

const Matrix kQ = (Matrix(3, 2) << 0.5, -1.0, 2.0, 0.25, -0.75, 1.5).finished();
const Matrix kV = (Matrix(3, 2) << 1.0, 0.0, 0.0, 1.0, 0.5, 0.5).finished();
const Matrix kWant = (Matrix(3, 2) << 1.0, 0.0, 5.0 / 9, 4.0 / 9, 7.0 / 12, 2.0 / 3).finished();

std::optional<std::string> gate(const Matrix& got, const Matrix& want = kWant) {
  return grader::not_an_answer(call_of(kQ, kV), result(want), result(got));
}

}  // namespace

TEST_CASE("answer gate: a wrong answer of the right shape is an answer") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Matrix one_nan_row = kWant, zero_row = kWant, nudged_input = kV, one_late = Matrix::Zero(3, 2);
  one_nan_row.row(0).setConstant(nan);  // the state read before it was written, at token 1
  zero_row.row(2).setZero();            // an empty sum at the last token
  nudged_input(1, 1) += 1e-12;          // V, but not handed back unchanged
  one_late.bottomRows(2) = kWant.topRows(2);
  for (const Matrix& got : {Matrix(2.0 * kWant), Matrix(-kWant), one_nan_row, zero_row,
                            nudged_input, one_late, Matrix(kWant.array() + 1e6)}) {
    CAPTURE(got);
    CHECK_FALSE(gate(got).has_value());
  }
}

TEST_CASE("answer gate: each kind of result that computed nothing is refused, in its words") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const struct {
    const char* what;
    json got;
    const char* says;
  } none[] = {
      {"no field", json{{"H", wire::from_matrix(kWant)}}, "the result has no \"O\""},
      {"transposed", result(kWant.transpose()), "O is 2 x 3 where it should be 3 x 2"},
      {"one row short", result(kWant.topRows(2)), "O is 2 x 2 where it should be 3 x 2"},
      {"not a matrix", json{{"O", "zeros"}}, "\"O\" is not a matrix, a vector or a number"},
      {"zeros", result(Matrix::Zero(3, 2)), "every entry of O is 0: nothing was computed"},
      {"ones", result(Matrix::Ones(3, 2)),
       "every entry of O is 1: a constant fill, nothing was computed from the inputs"},
      {"a fill", result(Matrix::Constant(3, 2, -0.25)),
       "every entry of O is -0.25: a constant fill, nothing was computed from the inputs"},
      {"all NaN", result(Matrix::Constant(3, 2, nan)), "no entry of O is a finite number"},
      {"all Inf", result(Matrix::Constant(3, 2, inf)), "no entry of O is a finite number"},
      {"V back", result(kV), "O is the input V, handed back unchanged"},
      {"Q back", result(kQ), "O is the input Q, handed back unchanged"},
  };
  for (const auto& c : none) {
    CAPTURE(c.what);
    const auto why = grader::not_an_answer(call_of(kQ, kV), result(kWant), c.got);
    REQUIRE(why.has_value());
    CHECK(*why == c.says);
  }
}

TEST_CASE("answer gate: a right answer is never refused, even zeros or an input") {
  CHECK_FALSE(gate(kWant).has_value());
  // O = V is the right answer where every key's weight falls on its own token (one token,
  // eps = 0), and zeros are right for zero values.
  CHECK_FALSE(gate(kV, kV).has_value());
  CHECK_FALSE(gate(Matrix::Zero(3, 2), Matrix::Zero(3, 2)).has_value());
  // ... but zeros where the reference has none, or V where the answer is not V, are refused.
  CHECK(gate(Matrix::Zero(3, 2), kV).has_value());
  CHECK(gate(kV).has_value());
  // A constant answer is right where the reference's is constant too (every value the same).
  CHECK_FALSE(gate(Matrix::Constant(3, 2, 0.5), Matrix::Constant(3, 2, 0.5)).has_value());
  CHECK_FALSE(gate(Matrix::Constant(3, 2, 2.0), Matrix::Constant(3, 2, 0.5)).has_value());
  // No tokens, no entries: nothing to weigh, and nothing refused.
  CHECK_FALSE(gate(Matrix(0, 2), Matrix(0, 2)).has_value());
  // A vector and a number are weighed as a column and a 1 x 1 matrix.
  const json call = json{{"v", {1.0, 2.0}}};
  CHECK_FALSE(grader::not_an_answer(call, json{{"z", {3.0, 4.0}}}, json{{"z", {6.0, 8.0}}}));
  CHECK(grader::not_an_answer(call, json{{"z", {3.0, 4.0}}}, json{{"z", {1.0, 2.0}}}) ==
        std::optional<std::string>("z is the input v, handed back unchanged"));
  CHECK(grader::not_an_answer(call, json{{"s", 3.0}}, json{{"s", 0.0}}) ==
        std::optional<std::string>("every entry of s is 0: nothing was computed"));
}

TEST_CASE("answer gate: every resource check passes any answer and refuses no answer") {
  int resource_checks = 0;
  for (const grader::ExerciseChecks& ex : fake::exercises_under_test())
    for (const grader::Check& c : ex.checks) {
      if (!c.timed && !c.heap_budget_bytes) continue;
      CAPTURE(ex.exercise + "/" + c.name);
      ++resource_checks;
      // Request and expected values through CBOR and back, as a recording replays them; the
      // reference's results worked out once and changed below.
      const json request = wire::decode(wire::encode(c.request(c.seed)));
      const json expected = wire::decode(wire::encode(c.expect(request)));
      std::vector<json> right;
      for (const json& call : request.at("calls"))
        right.push_back(fake::reference_result(c.function, call));
      auto judged = [&](const std::function<json(json)>& change) {
        std::size_t i = 0;
        const json reply =
            fake::reply_from(request, [&](const json&) { return change(right.at(i++)); });
        return c.judge(request, expected, reply);
      };
      // Every number doubled and 1 added: far from right, an answer all the same.
      const grader::Verdict answer = judged([](json r) {
        for (auto& [key, v] : r.items()) {
          json& numbers = v.is_object() && v.contains("data") ? v.at("data") : v;
          if (numbers.is_array())
            for (auto& x : numbers) x = 2.0 * x.get<double>() + 1.0;
          else if (numbers.is_number()) numbers = 2.0 * numbers.get<double>() + 1.0;
        }
        return r;
      });
      INFO(answer.message);
      CHECK(answer.passed);
      // The right result without its last output (every output is weighed, not only the first).
      std::string last;
      const grader::Verdict none = judged([&last](json r) {
        last = std::prev(r.end()).key();
        r.erase(last);
        return r;
      });
      INFO(none.message);
      CHECK_FALSE(none.passed);
      CHECK(fake::contains(none.message, "the result has no \"" + last + "\""));
      // Every output a fill of ones, the right shapes: nothing computed, no points.
      const grader::Verdict fill = judged([](json r) {
        for (auto& [key, v] : r.items()) {
          json& numbers = v.is_object() && v.contains("data") ? v.at("data") : v;
          if (numbers.is_array())
            for (auto& x : numbers) x = 1.0;
        }
        return r;
      });
      INFO(fill.message);
      CHECK_FALSE(fill.passed);
      CHECK(fake::contains(fill.message, "a constant fill"));
    }
  // The memory and time checks of causal, chunkwise, backward and modern (both functions).
  if (fake::every_exercise_under_test()) CHECK(resource_checks == 10);
}
