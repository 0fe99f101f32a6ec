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

Verdict failure(const std::string& tried, const std::string& report,
                const std::optional<std::string>& mistake) {
  std::string message = tried;
  if (!report.empty()) message += "\n" + report;
  if (mistake) message += "\nLikely mistake: " + *mistake;
  return Verdict::fail(std::move(message));
}

// ---- feature-map specs -------------------------------------------------------------------

json phi_spec(const std::string& name) { return json{{"name", name}}; }

json phi_spec_random(const Matrix& Omega) {
  return json{{"name", "positive_random"}, {"Omega", wire::from_matrix(Omega)}};
}

linref::FeatureMap feature_map(const json& spec) {
  const std::string name = spec.at("name").get<std::string>();
  if (name == "elu_plus_one") return [](const Matrix& X) { return linref::elu_plus_one(X); };
  if (name == "relu") return [](const Matrix& X) { return linref::relu(X); };
  if (name == "identity") return [](const Matrix& X) { return linref::identity(X); };
  if (name == "taylor") return [](const Matrix& X) { return linref::taylor_features(X); };
  if (name == "positive_random") {
    Matrix Omega = wire::to_matrix(spec.at("Omega"));
    return [Omega](const Matrix& X) { return linref::positive_random_features(X, Omega); };
  }
  throw std::invalid_argument("unknown feature map '" + name + "'");
}

std::string describe_phi(const json& spec) {
  const std::string name = spec.value("name", std::string("?"));
  if (name == "elu_plus_one") return "elu+1";
  if (name == "relu") return "relu";
  if (name == "identity") return "identity";
  if (name == "taylor") return "Taylor features";
  if (name == "positive_random") {
    const json& om = spec.at("Omega");
    return "positive random features with Omega " +
           shape_of(om.at("rows").get<Eigen::Index>(), om.at("cols").get<Eigen::Index>());
  }
  return name;
}

// ---- seeded inputs -----------------------------------------------------------------------

Matrix random_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols, double scale) {
  return rng.normal_matrix(rows, cols) * scale;
}

Vector random_vector(linref::Rng& rng, Eigen::Index n, double scale) {
  return rng.normal_vector(n) * scale;
}

Matrix random_positive_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols,
                              double floor, double scale) {
  Matrix m = rng.normal_matrix(rows, cols);
  return (m.array().abs() * scale + floor).matrix();
}

Matrix random_rows_of_lengths(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols,
                              double min_len, double max_len) {
  Matrix m = rng.unit_rows(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r) {
    const double t = rows > 1 ? static_cast<double>(r) / static_cast<double>(rows - 1) : 0.0;
    m.row(r) *= min_len + t * (max_len - min_len);
  }
  return m;
}

Eigen::Index random_size(linref::Rng& rng, Eigen::Index lo, Eigen::Index hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  return lo + static_cast<Eigen::Index>(rng.next_u64() % span);
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

std::function<Verdict(const json&, const json&)> guarded(
    std::function<Verdict(const json&, const json&)> judge) {
  return [judge = std::move(judge)](const json& request, const json& reply) {
    try {
      return judge(request, reply);
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

Verdict each_call(const json& request, const json& reply,
                  const std::function<std::optional<Verdict>(std::size_t, const json&,
                                                              const json&)>& one) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::optional<Verdict> v = one(i, calls[i], result_of(request, reply, i));
    if (!v || v->passed) continue;
    if (calls.size() > 1) v->message = call_label(i, calls.size()) + v->message;
    return *v;
  }
  return Verdict::pass();
}

Check make_check(const std::string& function, const std::string& name, double points,
                 Visibility visibility, std::uint64_t seed,
                 std::function<json(std::uint64_t)> calls,
                 std::function<Verdict(const json&, const json&)> judge) {
  Check c;
  c.name = name;
  c.function = function;
  c.points = points;
  c.visibility = visibility;
  c.seed = seed;
  c.request = [function, calls = std::move(calls)](std::uint64_t s) {
    return json{{"function", function}, {"calls", calls(s)}};
  };
  c.judge = guarded(std::move(judge));
  return c;
}

}  // namespace grader
