#include "numeric_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

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
      out << name << " has the wrong shape: expected " << shape_of(expected) << meaning << ", got "
          << shape_of(got) << ".";
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
  // A relative error against an expected value within the absolute tolerance of zero is noise
  // (1e-3 off an expected 1e-16 is "1e+13 relative"): only the others count towards it.
  bool rel_counted = false, rel_skipped = false;
  for (Eigen::Index r = 0; r < expected.rows(); ++r) {
    for (Eigen::Index col = 0; col < expected.cols(); ++col) {
      const double e = expected(r, col), g = got(r, col);
      const bool ok = within(e, g, tol);
      double score;
      if (std::isfinite(e) && std::isfinite(g)) {
        const double abs_err = std::fabs(g - e);
        c.max_abs_error = std::max(c.max_abs_error, abs_err);
        if (std::fabs(e) > tol.abs) {
          c.max_rel_error = std::max(c.max_rel_error, abs_err / std::fabs(e));
          rel_counted |= abs_err > 0.0;
        } else if (!ok) {
          rel_skipped = true;
        }
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

  const std::string where =
      vector ? "length " + std::to_string(expected.size()) : shape_of(expected);
  out << name << ", " << where << meaning << ": " << c.mismatches << " of " << expected.size()
      << " entries differ";
  if (c.non_finite > 0) out << ", " << c.non_finite << " of them NaN or Inf";
  out << ".\n  max abs error " << fmt(c.max_abs_error);
  if (rel_counted)
    out << ", max rel error " << fmt(c.max_rel_error)
        << (rel_skipped ? " (where |expected| is above the absolute tolerance)" : "");
  out << (c.non_finite > 0 ? " (over the finite entries)" : "") << "\n  worst entry "
      << index_of(c.worst_row, c.worst_col, vector) << ": expected " << fmt(c.worst_expected)
      << ", got " << fmt(c.worst_got) << "\n  tolerance: " << tol.describe()
      << "\n  first mismatches: ";
  for (std::size_t i = 0; i < shown.size(); ++i) out << (i ? "; " : "") << shown[i];
  if (c.mismatches > static_cast<Eigen::Index>(shown.size())) out << "; ...";
  c.report = out.str();
  return c;
}

}  // namespace

std::optional<std::string> never_written(const Matrix& expected, const Matrix& got,
                                         const Tolerance& tol, const std::string& name,
                                         bool vector) {
  if (expected.rows() != got.rows() || expected.cols() != got.cols() || got.size() == 0)
    return std::nullopt;
  auto blank = [](double x) {
    const int kind = std::fpclassify(x);
    return kind == FP_ZERO || kind == FP_SUBNORMAL;
  };
  // A run of rows that hold only 0 or leftovers where some value is expected.
  struct Run {
    Eigen::Index first, last;
    bool leftover;  // holds a subnormal
  };
  std::vector<Run> runs;
  double example = 0.0;
  for (Eigen::Index r = 0; r < got.rows(); ++r) {
    bool all_blank = true, wanted = false, leftover = false;
    for (Eigen::Index c = 0; c < got.cols(); ++c) {
      all_blank = all_blank && blank(got(r, c));
      wanted = wanted || !(std::fabs(expected(r, c)) <= tol.abs);
      if (std::fpclassify(got(r, c)) == FP_SUBNORMAL) {
        leftover = true;
        if (example == 0.0) example = got(r, c);
      }
    }
    if (!all_blank || !wanted) continue;
    if (!runs.empty() && runs.back().last == r - 1) {
      runs.back().last = r;
      runs.back().leftover = runs.back().leftover || leftover;
    } else {
      runs.push_back({r, r, leftover});
    }
  }
  // A lone row 0 of zeros is what a token left out of its own sum gives (o_1 = 0 / eps): a
  // mistake in the formula, not in the writing. Any other run of blank rows counts.
  std::vector<Run> kept;
  for (const Run& run : runs)
    if (run.leftover || run.last > run.first || run.first > 0) kept.push_back(run);
  if (kept.empty()) return std::nullopt;
  std::string where;
  Eigen::Index rows = 0;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    rows += kept[i].last - kept[i].first + 1;
    if (i == 4) {
      where += ", ...";
      break;
    }
    where += (i ? ", " : "") + std::to_string(kept[i].first) +
             (kept[i].last > kept[i].first ? ".." + std::to_string(kept[i].last) : "");
  }
  for (std::size_t i = 5; i < kept.size(); ++i) rows += kept[i].last - kept[i].first + 1;
  const bool one = rows == 1;
  const std::string units = vector ? (one ? "entry" : "entries") : (one ? "row" : "rows");
  const std::string each = vector ? "entries" : "rows";
  // Leftovers of memory prove that nothing was written there. Zeros alone do not: a row set to
  // zero and never filled looks the same as one written from a sum that took no terms (a bound
  // that leaves every term out at that token), so both are named.
  if (example != 0.0)
    return units + " " + where + " of " + name + (one ? " was" : " were") +
           " never written: " + (one ? "it holds" : "they hold") +
           " only 0 and leftovers of memory as allocated, such as " + fmt(example) +
           ", where values are expected. Look for a loop that stops early, or a result "
           "allocated whose " +
           each + " are not all filled.";
  return units + " " + where + " of " + name + (one ? " holds" : " hold") +
         " only 0 where values are expected: either never written (a loop that stops early, "
         "a result set to zero whose " +
         each +
         " are not all filled) or summed over no terms at all (a loop bound that leaves "
         "out every term there, such as < where <= belongs).";
}

Comparison compare_matrices(const Matrix& expected, const Matrix& got, const Tolerance& tol,
                            const std::string& name, const std::string& dims) {
  Comparison c = compare_impl(expected, got, tol, name, dims, false);
  if (!c.ok) c.unwritten = never_written(expected, got, tol, name);
  return c;
}

Comparison compare_vectors(const Vector& expected, const Vector& got, const Tolerance& tol,
                           const std::string& name, const std::string& dims) {
  Comparison c = compare_impl(expected, got, tol, name, dims, true);
  if (!c.ok) c.unwritten = never_written(expected, got, tol, name, true);
  return c;
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
    c.max_rel_error = std::fabs(expected) > tol.abs ? c.max_abs_error / std::fabs(expected) : 0.0;
  }
  if (c.ok) return c;
  c.mismatches = 1;
  if (std::isfinite(expected) && !std::isfinite(got)) c.non_finite = 1;
  std::ostringstream out;
  out << name << ": expected " << fmt(expected) << ", got " << fmt(got);
  if (std::isfinite(expected) && std::isfinite(got)) {
    out << " (abs error " << fmt(c.max_abs_error);
    if (std::fabs(expected) > tol.abs) out << ", rel error " << fmt(c.max_rel_error);  // else noise
    out << ")";
  }
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

}  // namespace grader
