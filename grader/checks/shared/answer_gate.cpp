// The answer gate of the resource checks (see answer_gate.hpp).
#include "answer_gate.hpp"

#include "../../common/wire.hpp"
#include "../../src/judge/numeric_comparison.hpp"

#include <cmath>

namespace grader {

namespace {

bool is_matrix(const json& v) { return v.is_object() && v.contains("rows") && v.contains("data"); }

// A field as a matrix: a matrix as it is, a vector as one column, a number as 1 x 1.
std::optional<Matrix> as_matrix(const json& v) {
  if (is_matrix(v)) return wire::to_matrix(v);
  if (v.is_array()) return Matrix(wire::to_vector(v));
  if (v.is_number()) return Matrix::Constant(1, 1, v.get<double>());
  return std::nullopt;
}

bool all_zero(const Matrix& m) { return m.size() > 0 && (m.array() == 0.0).all(); }
// Every entry the same: a fill, which reads none of the inputs (a single number is one too,
// and so is the reference's, so the rule leaves it alone).
bool one_value(const Matrix& m) { return m.size() > 0 && (m.array() == m(0, 0)).all(); }
bool any_finite(const Matrix& m) { return m.array().isFinite().any(); }
bool identical(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}

// The call's argument that `got` is, entry for entry, if any.
std::optional<std::string> handed_back(const json& call, const Matrix& got) {
  for (const auto& [name, value] : call.items()) {
    if (!is_matrix(value) && !value.is_array()) continue;
    const std::optional<Matrix> input = as_matrix(value);
    if (input && identical(*input, got)) return name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> not_an_answer(const json& call, const json& want, const json& got) {
  for (const auto& [name, value] : want.items()) {
    const std::optional<Matrix> expected = as_matrix(value);
    if (!expected) continue;  // not a number field: nothing to weigh
    if (!got.contains(name)) return "the result has no \"" + name + "\"";
    const std::optional<Matrix> g = as_matrix(got.at(name));
    if (!g) return "\"" + name + "\" is not a matrix, a vector or a number";
    if (g->rows() != expected->rows() || g->cols() != expected->cols())
      return name + " is " + shape_of(*g) + " where it should be " + shape_of(*expected);
    if (all_zero(*g) && !all_zero(*expected))
      return "every entry of " + name + " is 0: nothing was computed";
    if (!any_finite(*g) && any_finite(*expected))
      return "no entry of " + name + " is a finite number";
    if (one_value(*g) && !one_value(*expected))
      return "every entry of " + name + " is " + fmt((*g)(0, 0)) +
             ": a constant fill, nothing was computed from the inputs";
    if (const auto input = handed_back(call, *g); input && !same_values(*expected, *g, kTight))
      return name + " is the input " + *input + ", handed back unchanged";
  }
  return std::nullopt;
}

Judge answers_only(std::vector<std::string> fields) {
  return [fields](const json& request, const json& expected, const json& reply) {
    return each_call(request, expected, reply,
                     [&](std::size_t, const json& call, const json& e,
                         const json& result) -> std::optional<Verdict> {
                       json want = json::object();
                       for (const std::string& f : fields) want[f] = e.at(f);
                       const auto why = not_an_answer(call, want, result);
                       if (!why) return std::nullopt;
                       return Verdict::fail(
                           "This check judges a resource, not the values, but only for an "
                           "answer, and this result is none: " +
                           *why + ". The value checks of this function say what to fix.");
                     });
  };
}

}  // namespace grader
