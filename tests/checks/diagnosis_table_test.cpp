// The diagnoses as a table, one test per exercise. For every check and every call, each named
// mistake the oracle lists for that call (the slipped copies of
// exercises/<ex>/.meta/oracle/mistakes.* and the suspect lists and integer rules written in
// exercises/<ex>/.meta/checks.cpp, as they reach the judge in the expected values) is fed back as
// the student's output for that call, every other call answered by the reference. The judge must
// then name exactly that mistake, and no other mistake of the list. The rows are read from the
// lists themselves, so a mistake added to a list is in the table the day it is added.
//
// Two mistakes can give the same numbers on a call (a missing eps, on a call with eps = 0, is no
// mistake at all); there the first one listed is named, and the table asks for that one. Every
// mistake must still be named exactly, alone, on at least one call of its exercise: a mistake no
// probe can tell apart from another is a diagnosis no student ever gets.
//
// One slip costs once: the resource checks (memory, time) judge any answer (answer_gate.hpp).
// So every named slip of a function that has a resource check must be an answer to the gate on
// at least one call it is fed on: the slip loses the value checks and keeps the resource
// points. Only a slip that computes nothing at all (kNoWork) is no answer anywhere.
#include "diagnosis_table.hpp"
#include "fake_runner.hpp"

#include "checks/shared/answer_gate.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using fake::json;
using fake::Matrix;

namespace {

constexpr const char* kLikely = "Likely mistake: ";

// One named mistake of one call: the result field it is an output of, and that output.
struct Row {
  std::string field;
  std::string mistake;
  json value;  // a wire matrix, a number, or null for an integer rule
  std::int64_t lo = 0, hi = 0;
  bool integer_rule = false;
};

// Equal within kTight (1e-9 absolute plus 1e-9 relative), NaN equal to NaN, written here so
// that the table does not lean on the comparison it tests.
bool same_number(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= 1e-9 + 1e-9 * std::fabs(b);
}

// A suspect's value as the reply field `like` would hold it: a matrix of any shape for a matrix
// (a transposed or too wide output is an output too), a vector for a vector, a number for a
// number; nothing for a probe of a large suspect or a value of another kind.
std::optional<json> as_field(const json& value, const json& like) {
  if (value.is_number()) {
    if (like.is_number()) return value;
    return std::nullopt;
  }
  if (!value.is_object() || !value.contains("data")) return std::nullopt;  // a probe of a large one
  if (like.is_object()) return value;
  const Matrix m = wire::to_matrix(value);
  if (like.is_array() && (m.cols() == 1 || m.rows() == 1))
    return wire::from_vector(Eigen::Map<const Eigen::VectorXd>(m.data(), m.size()));
  return std::nullopt;
}

bool same_output(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return same_number(a.get<double>(), b.get<double>());
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_number(a[i].get<double>(), b[i].get<double>())) return false;
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (!a.contains("data") || !b.contains("data")) return false;  // a probe: not compared here
    const Matrix x = wire::to_matrix(a), y = wire::to_matrix(b);
    if (x.rows() != y.rows() || x.cols() != y.cols()) return false;
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!same_number(x.data()[i], y.data()[i])) return false;
    return true;
  }
  return false;
}

// The named mistakes of one call, list by list (one list per result field), in their order.
std::vector<std::vector<Row>> lists_of(const json& expected_call, const json& reference_result) {
  std::vector<std::vector<Row>> lists;
  auto add_list = [&](const std::string& field, const json& list) {
    std::vector<Row> rows;
    for (const json& s : list) {
      Row r;
      r.field = field;
      r.mistake = s.at("mistake").get<std::string>();
      if (s.contains("lo")) {
        r.integer_rule = true;
        r.lo = s.at("lo").get<std::int64_t>();
        r.hi = s.at("hi").get<std::int64_t>();
      } else {
        r.value = s.at("value");
      }
      rows.push_back(r);
    }
    lists.push_back(rows);
  };
  // A list of a single-result function names no field; a per-field object names its fields.
  auto only_field = [&]() -> std::string {
    REQUIRE(reference_result.size() == 1);
    return reference_result.begin().key();
  };
  if (expected_call.contains("suspects")) {
    const json& s = expected_call.at("suspects");
    if (s.is_array()) add_list(only_field(), s);
    else
      for (auto it = s.begin(); it != s.end(); ++it) add_list(it.key(), it.value());
  }
  if (expected_call.contains("mistakes")) add_list(only_field(), expected_call.at("mistakes"));
  return lists;
}

struct Tally {
  std::set<std::string> listed, named_alone;
  int fed = 0;
  // The functions with a resource check, and for their slips: fed through the answer gate,
  // and an answer on some call.
  std::set<std::string> resourced;
  std::set<std::string> gated, answered;
  int gated_outputs = 0;
};

// The slips that are no answer by what they are (the first words of their text).
const std::vector<std::string> kNoWork = {"nothing was computed:"};
bool no_work(const std::string& mistake) {
  for (const std::string& start : kNoWork)
    if (mistake.rfind(start, 0) == 0) return true;
  return false;
}

// Mistakes whose suspect is a quantity worked out from the output (the kernel of a query's and
// a key's feature rows), not the output itself: the output that makes each, written here, by
// the start of its text. A new mistake of that kind fails the table until it has a line here.
using Producer = std::function<json(const json& call)>;
Producer taylor_scaled(double quadratic_scale) {
  return [quadratic_scale](const json& call) {
    const Matrix X = wire::to_matrix(call.at("X"));
    const Eigen::Index d = X.cols();
    Matrix F(X.rows(), 1 + d + d * d);
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
      F(r, 0) = 1.0;
      for (Eigen::Index i = 0; i < d; ++i) {
        F(r, 1 + i) = X(r, i);
        for (Eigen::Index j = 0; j < d; ++j)
          F(r, 1 + d + i * d + j) = quadratic_scale * X(r, i) * X(r, j);
      }
    }
    return json{{"features", wire::from_matrix(F)}};
  };
}
const std::vector<std::pair<std::string, Producer>>& derived_producers() {
  static const std::vector<std::pair<std::string, Producer>> producers{
      {"the kernel is 1 + s + s^2:", taylor_scaled(1.0)},
      {"the kernel is 1 + s + s^2/4:", taylor_scaled(0.5)},
      {"the kernel is 1 + s:", taylor_scaled(0.0)},
  };
  return producers;
}

// The result object that gives `row`'s output on `call`, or nothing when the output is the
// right one there (a suspect can coincide with the right answer on some calls) or the suspect
// travels as a probe of a few entries (only on large calls).
std::optional<json> answer_for(const Row& row, const json& call, const json& reference) {
  json answer = reference;
  const json& like = reference.at(row.field);
  const Producer* make = nullptr;
  for (const auto& [start, producer] : derived_producers())
    if (row.mistake.rfind(start, 0) == 0) make = &producer;
  if (make) {
    answer = (*make)(call);
  } else if (row.integer_rule) {
    answer[row.field] = row.lo == std::numeric_limits<std::int64_t>::min() ? row.hi : row.lo;
  } else if (row.value.is_object() && !row.value.contains("data")) {
    return std::nullopt;  // sent as a probe (a large call): told apart on the small ones
  } else {
    const std::optional<json> out = as_field(row.value, like);
    INFO("a suspect that is not an output, with no producer in derived_producers(): "
         << row.mistake);
    REQUIRE(out.has_value());
    answer[row.field] = *out;
  }
  if (same_output(answer.at(row.field), like)) return std::nullopt;
  return answer;
}

// Feeds every row of every list of every call of `c`, checking the judge's diagnosis.
void table_of_check(const grader::Check& c, Tally& tally) {
  const json request = wire::decode(wire::encode(c.request(c.seed)));
  const json expected = wire::decode(wire::encode(c.expect(request)));
  const json& calls = request.at("calls");
  bool any = false;
  for (const json& e : expected.at("calls"))
    any = any || e.contains("suspects") || e.contains("mistakes");
  if (!any) return;
  json results = json::array();
  for (const json& call : calls) results.push_back(fake::reference_result(c.function, call));

  for (std::size_t i = 0; i < calls.size(); ++i) {
    for (const std::vector<Row>& list : lists_of(expected.at("calls").at(i), results[i])) {
      for (std::size_t k = 0; k < list.size(); ++k) {
        const Row& row = list[k];
        tally.listed.insert(row.mistake);
        INFO(c.name << ", call " << i + 1 << ", " << row.field << ", row " << k + 1 << ": "
                    << row.mistake);
        const std::optional<json> answer = answer_for(row, calls[i], results[i]);
        if (!answer) continue;
        if (tally.resourced.count(c.function)) {
          tally.gated.insert(row.mistake);
          ++tally.gated_outputs;
          if (!grader::not_an_answer(calls[i], results[i], *answer))
            tally.answered.insert(row.mistake);
        }
        // The judge names the first row of the list that gives the same output.
        std::size_t first = k;
        for (std::size_t j = 0; j < k && first == k; ++j) {
          if (row.integer_rule) {
            const std::int64_t v = answer->at(row.field).get<std::int64_t>();
            if (list[j].integer_rule && list[j].lo <= v && v <= list[j].hi) first = j;
          } else if (!list[j].integer_rule && same_output(list[j].value, row.value)) {
            first = j;
          }
        }
        json outputs = results;
        outputs[i] = *answer;
        json cpu = json::array();
        for (std::size_t n = 0; n < calls.size(); ++n) cpu.push_back(0.0);
        const json reply = wire::decode(wire::encode(json{{"outcome", "returned"},
                                                          {"results", outputs},
                                                          {"cpu_seconds", cpu},
                                                          {"peak_heap_bytes", 0},
                                                          {"inputs_changed", json::array()}}));
        const grader::Verdict v = c.judge(request, expected, reply);
        // A check that looks at one property only (a shape, a sign) may pass a wrong output;
        // whether wrong outputs fail is the near-miss tests' question, not this table's.
        if (v.passed) continue;
        ++tally.fed;
        INFO("message: " << v.message);
        const std::string& want = list[first].mistake;
        CHECK(fake::contains(v.message, kLikely + want));
        for (const Row& other : list)
          if (other.mistake != want)
            CHECK_FALSE(fake::contains(v.message, kLikely + other.mistake));
        if (first == k && fake::contains(v.message, kLikely + want))
          tally.named_alone.insert(row.mistake);
      }
    }
  }
}

}  // namespace

// The whole table of one exercise.
void diagnosis_table(const std::string& exercise) {
  Tally tally;
  for (const grader::Check& c : fake::exercise(exercise).checks)
    if (c.timed || c.heap_budget_bytes) tally.resourced.insert(c.function);
  for (const grader::Check& c : fake::exercise(exercise).checks) {
    CAPTURE(c.name);
    table_of_check(c, tally);
  }
  MESSAGE(exercise << ": " << tally.listed.size() << " named mistakes, " << tally.fed
                   << " outputs fed");
  CHECK(!tally.listed.empty());
  for (const std::string& m : tally.listed) {
    INFO("never named on its own on any call: " << m);
    CHECK(tally.named_alone.count(m) == 1);
  }
  if (tally.resourced.empty()) return;
  MESSAGE(exercise << ": " << tally.gated.size() << " named slips of functions with a resource "
                   << "check, " << tally.gated_outputs << " outputs through the answer gate, "
                   << tally.gated.size() - tally.answered.size() << " no answer on any call");
  CHECK(!tally.gated.empty());
  for (const std::string& m : tally.gated) {
    INFO("a named slip the resource checks would charge for again (no answer on any call): " << m);
    CHECK(tally.answered.count(m) == (no_work(m) ? 0u : 1u));
  }
}
