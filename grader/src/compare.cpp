#include "compare.hpp"

#include "../common/wire.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace grader {

// ---- formatting --------------------------------------------------------------------------

std::string fmt(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  // Integers up to 2^53 print as integers; everything else with 10 significant digits.
  if (x == std::floor(x) && std::fabs(x) < 9.007199254740992e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
  } else {
    std::snprintf(buf, sizeof buf, "%.10g", x);
  }
  return buf;
}

std::string shape_of(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}
std::string shape_of(const Matrix& m) { return shape_of(m.rows(), m.cols()); }

std::string Tolerance::describe() const {
  if (abs == 0.0 && rel == 0.0) return "exact equality";
  return "|got - expected| <= " + fmt(abs) + " + " + fmt(rel) + " * |expected|";
}

// ---- comparison --------------------------------------------------------------------------

bool within(double expected, double got, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  if (std::isinf(expected) || std::isinf(got)) return expected == got;
  return std::fabs(got - expected) <= tol.abs + tol.rel * std::fabs(expected);
}

namespace {

constexpr int kMismatchesShown = 4;

std::string index_of(Eigen::Index r, Eigen::Index c, bool vector) {
  return vector ? "[" + std::to_string(r) + "]"
                : "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

Comparison compare_impl(const Matrix& expected, const Matrix& got, const Tolerance& tol,
                        const std::string& name, const std::string& dims, bool vector) {
  Comparison c;
  std::ostringstream out;
  const std::string meaning = dims.empty() ? "" : " (" + dims + ")";
  if (expected.rows() != got.rows() || expected.cols() != got.cols()) {
    if (vector) {
      out << name << " has the wrong length: expected " << expected.size() << meaning << ", got "
          << got.size() << ".";
    } else {
      out << name << " has the wrong shape: expected " << shape_of(expected) << meaning
          << ", got " << shape_of(got) << ".";
      if (expected.rows() != expected.cols() && got.rows() == expected.cols() &&
          got.cols() == expected.rows())
        out << " That is the expected shape transposed.";
    }
    c.report = out.str();
    return c;
  }
  c.shape_ok = true;

  std::vector<std::string> shown;
  double worst_score = -1.0;  // how far past the tolerance, used to pick the worst entry
  for (Eigen::Index r = 0; r < expected.rows(); ++r) {
    for (Eigen::Index col = 0; col < expected.cols(); ++col) {
      const double e = expected(r, col), g = got(r, col);
      const bool ok = within(e, g, tol);
      double score;
      if (std::isfinite(e) && std::isfinite(g)) {
        const double abs_err = std::fabs(g - e);
        const double rel_err = e != 0.0 ? abs_err / std::fabs(e) : (abs_err == 0.0 ? 0.0 : INFINITY);
        c.max_abs_error = std::max(c.max_abs_error, abs_err);
        c.max_rel_error = std::max(c.max_rel_error, rel_err);
        score = abs_err / (tol.abs + tol.rel * std::fabs(e) + 1e-300);
      } else {
        score = ok ? 0.0 : INFINITY;
      }
      if (!ok) {
        ++c.mismatches;
        if (std::isfinite(e) && !std::isfinite(g)) ++c.non_finite;
        if (static_cast<int>(shown.size()) < kMismatchesShown)
          shown.push_back(index_of(r, col, vector) + " expected " + fmt(e) + ", got " + fmt(g));
      }
      if (!ok && score > worst_score) {
        worst_score = score;
        c.worst_row = r;
        c.worst_col = col;
        c.worst_expected = e;
        c.worst_got = g;
      }
    }
  }
  c.ok = c.mismatches == 0;
  if (c.ok) return c;

  const std::string where = vector ? "length " + std::to_string(expected.size())
                                   : shape_of(expected);
  out << name << ", " << where << meaning << ": " << c.mismatches << " of " << expected.size()
      << " entries differ";
  if (c.non_finite > 0) out << ", " << c.non_finite << " of them NaN or Inf";
  out << ".\n  max abs error " << fmt(c.max_abs_error) << ", max rel error "
      << fmt(c.max_rel_error) << (c.non_finite > 0 ? " (over the finite entries)" : "")
      << "\n  worst entry " << index_of(c.worst_row, c.worst_col, vector) << ": expected "
      << fmt(c.worst_expected) << ", got " << fmt(c.worst_got)
      << "\n  tolerance: " << tol.describe() << "\n  first mismatches: ";
  for (std::size_t i = 0; i < shown.size(); ++i) out << (i ? "; " : "") << shown[i];
  if (c.mismatches > static_cast<Eigen::Index>(shown.size())) out << "; ...";
  c.report = out.str();
  return c;
}

}  // namespace

Comparison compare_matrices(const Matrix& expected, const Matrix& got, const Tolerance& tol,
                            const std::string& name, const std::string& dims) {
  return compare_impl(expected, got, tol, name, dims, false);
}

Comparison compare_vectors(const Vector& expected, const Vector& got, const Tolerance& tol,
                           const std::string& name, const std::string& dims) {
  return compare_impl(expected, got, tol, name, dims, true);
}

Comparison compare_scalars(double expected, double got, const Tolerance& tol,
                           const std::string& name) {
  Comparison c;
  c.shape_ok = true;
  c.ok = within(expected, got, tol);
  c.worst_expected = expected;
  c.worst_got = got;
  if (std::isfinite(expected) && std::isfinite(got)) {
    c.max_abs_error = std::fabs(got - expected);
    c.max_rel_error = expected != 0.0 ? c.max_abs_error / std::fabs(expected) : c.max_abs_error;
  }
  if (c.ok) return c;
  c.mismatches = 1;
  if (std::isfinite(expected) && !std::isfinite(got)) c.non_finite = 1;
  std::ostringstream out;
  out << name << ": expected " << fmt(expected) << ", got " << fmt(got);
  if (std::isfinite(expected) && std::isfinite(got))
    out << " (abs error " << fmt(c.max_abs_error) << ", rel error " << fmt(c.max_rel_error) << ")";
  out << "\n  tolerance: " << tol.describe();
  c.report = out.str();
  return c;
}

bool same_values(const Matrix& a, const Matrix& b, const Tolerance& tol) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < a.cols(); ++c)
      if (!within(a(r, c), b(r, c), tol)) return false;
  return true;
}

// ---- mistakes ----------------------------------------------------------------------------

std::optional<std::string> diagnose(const Matrix& got, const std::vector<Suspect>& suspects,
                                    const Tolerance& tol) {
  for (const Suspect& s : suspects)
    if (same_values(s.value, got, tol)) return s.mistake;
  return std::nullopt;
}

std::optional<std::string> diagnose_scalar(double got, const std::vector<ScalarSuspect>& suspects,
                                           const Tolerance& tol) {
  for (const ScalarSuspect& s : suspects)
    if (within(s.value, got, tol)) return s.mistake;
  return std::nullopt;
}

json suspects_json(const std::vector<Suspect>& suspects) {
  json out = json::array();
  for (const Suspect& s : suspects) {
    json value;
    if (s.value.size() <= kProbeEntries) {
      value = wire::from_matrix(s.value);
    } else {
      // Evenly spaced entries, the first and the last included.
      json probe = json::array();
      const Eigen::Index n = s.value.size(), cols = s.value.cols();
      for (Eigen::Index k = 0; k < kProbeEntries; ++k) {
        const Eigen::Index i = k * (n - 1) / (kProbeEntries - 1);
        probe.push_back(json::array({i, s.value(i / cols, i % cols)}));
      }
      value = json{{"rows", s.value.rows()}, {"cols", cols}, {"probe", std::move(probe)}};
    }
    out.push_back(json{{"mistake", s.mistake}, {"value", std::move(value)}});
  }
  return out;
}

json scalar_suspects_json(const std::vector<ScalarSuspect>& suspects) {
  json out = json::array();
  for (const ScalarSuspect& s : suspects) out.push_back(json{{"mistake", s.mistake}, {"value", s.value}});
  return out;
}

namespace {

bool matches_probe(const Matrix& got, const json& value, const Tolerance& tol) {
  if (got.rows() != value.at("rows").get<Eigen::Index>() ||
      got.cols() != value.at("cols").get<Eigen::Index>())
    return false;
  for (const json& entry : value.at("probe")) {
    const Eigen::Index i = entry.at(0).get<Eigen::Index>();
    if (!within(entry.at(1).get<double>(), got(i / got.cols(), i % got.cols()), tol)) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> diagnose(const Matrix& got, const json& suspects, const Tolerance& tol) {
  for (const json& s : suspects) {
    const json& value = s.at("value");
    const bool match = value.contains("probe") ? matches_probe(got, value, tol)
                                               : same_values(wire::to_matrix(value), got, tol);
    if (match) return s.at("mistake").get<std::string>();
  }
  return std::nullopt;
}

std::optional<std::string> diagnose_scalar(double got, const json& suspects, const Tolerance& tol) {
  for (const json& s : suspects)
    if (within(s.at("value").get<double>(), got, tol)) return s.at("mistake").get<std::string>();
  return std::nullopt;
}

json int_rules_json(const std::vector<IntRule>& rules) {
  json out = json::array();
  for (const IntRule& r : rules) out.push_back(json{{"mistake", r.mistake}, {"lo", r.lo}, {"hi", r.hi}});
  return out;
}

std::optional<std::string> diagnose_int(std::int64_t got, const json& rules) {
  for (const json& r : rules)
    if (r.at("lo").get<std::int64_t>() <= got && got <= r.at("hi").get<std::int64_t>())
      return r.at("mistake").get<std::string>();
  return std::nullopt;
}

Verdict failure(const std::string& tried, const std::string& report,
                const std::optional<std::string>& mistake) {
  std::string message = tried;
  if (!report.empty()) message += "\n" + report;
  if (mistake) message += "\nLikely mistake: " + *mistake;
  return Verdict::fail(std::move(message));
}

// ---- reading a reply ---------------------------------------------------------------------

const json& result_of(const json& request, const json& reply, std::size_t i) {
  const json& results = reply.at("results");
  const std::size_t calls = request.at("calls").size();
  if (!results.is_array() || results.size() != calls)
    throw std::runtime_error("expected " + std::to_string(calls) + " results, the reply has " +
                             std::to_string(results.is_array() ? results.size() : 0));
  return results.at(i);
}

const json& expected_of(const json& request, const json& expected, std::size_t i) {
  const json& entries = expected.at("calls");
  const std::size_t calls = request.at("calls").size();
  if (!entries.is_array() || entries.size() != calls)
    throw std::runtime_error("expected values for " + std::to_string(calls) + " calls, found " +
                             std::to_string(entries.is_array() ? entries.size() : 0));
  return entries.at(i);
}

Judge guarded(Judge judge) {
  return [judge = std::move(judge)](const json& request, const json& expected, const json& reply) {
    try {
      return judge(request, expected, reply);
    } catch (const std::exception& e) {
      return Verdict::fail(std::string("The runner's reply could not be read (") + e.what() +
                           "). This is a fault of the grader or its runner, not of your code; "
                           "please report it with the rerun command.");
    }
  };
}

std::string call_label(std::size_t i, std::size_t n) {
  return n > 1 ? "Call " + std::to_string(i + 1) + " of " + std::to_string(n) + ": " : "";
}

Verdict each_call(const json& request, const json& expected, const json& reply, const OneCall& one) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::optional<Verdict> v =
        one(i, calls[i], expected_of(request, expected, i), result_of(request, reply, i));
    if (!v || v->passed) continue;
    if (calls.size() > 1) v->message = call_label(i, calls.size()) + v->message;
    return *v;
  }
  return Verdict::pass();
}

Check make_check(const std::string& function, const std::string& name, double points,
                 Visibility visibility, std::uint64_t seed, Judge judge) {
  Check c;
  c.name = name;
  c.function = function;
  c.points = points;
  c.visibility = visibility;
  c.seed = seed;
  c.judge = guarded(std::move(judge));
  return c;
}

}  // namespace grader
