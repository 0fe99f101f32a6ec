// Numeric comparison that explains itself, written for a student: when a comparison fails it
// says the shapes (expected against got, rows x cols), the largest absolute and relative error,
// the worst entry with its index, the tolerance used, the first few entries that differ, and
// whether anything was NaN or Inf. Also how numbers and shapes are written in such messages.
#pragma once

#include <Eigen/Dense>

#include <optional>
#include <string>

namespace grader {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// ---- tolerances and comparison ---------------------------------------------------------

// An entry passes when |got - expected| <= abs + rel * |expected|.
struct Tolerance {
  double abs = 1e-9;
  double rel = 1e-9;
  std::string describe() const;  // "|got - expected| <= 1e-09 + 1e-09 * |expected|"
};
inline constexpr Tolerance kTight{1e-9, 1e-9};  // well-conditioned double arithmetic
inline constexpr Tolerance kExact{0.0, 0.0};    // integers and exact rationals in binary

bool within(double expected, double got, const Tolerance& tol);  // Inf must match Inf exactly

struct Comparison {
  bool ok = false;
  bool shape_ok = false;
  Eigen::Index mismatches = 0;  // entries outside the tolerance
  Eigen::Index non_finite = 0;  // NaN or Inf in `got` where a finite number was expected
  double max_abs_error = 0.0;   // over finite entries
  double max_rel_error = 0.0;
  Eigen::Index worst_row = -1, worst_col = -1;
  double worst_expected = 0.0, worst_got = 0.0;
  std::string report;  // several lines; empty when ok
  // When rows (entries of a vector) that should hold values hold only 0 or leftovers of
  // memory as allocated (subnormals such as 4.68e-310, which no arithmetic here produces), a
  // likely mistake of its own (never_written): "rows 3..5 of O were never written: ..." where
  // leftovers show it, "rows 3..5 of O hold only 0 where values are expected: either never
  // written ... or summed over no terms" where only zeros are there.
  std::optional<std::string> unwritten;
};

// `name` is how the output is called in messages ("O", "S"); `dims` says what its shape means
// ("T x d_v"), so a shape mismatch can be said plainly.
Comparison compare_matrices(const Matrix& expected, const Matrix& got, const Tolerance& tol,
                            const std::string& name, const std::string& dims = "");
Comparison compare_vectors(const Vector& expected, const Vector& got, const Tolerance& tol,
                           const std::string& name, const std::string& dims = "");
Comparison compare_scalars(double expected, double got, const Tolerance& tol,
                           const std::string& name);

// The rows of `got` that were never written (see Comparison::unwritten), said as a likely
// mistake; nothing when every row was written or the shapes differ. `vector`: say "entries".
std::optional<std::string> never_written(const Matrix& expected, const Matrix& got,
                                         const Tolerance& tol, const std::string& name,
                                         bool vector = false);

// Same shape and every entry within tol, NaN matching NaN: for recognising mistaken variants.
bool same_values(const Matrix& a, const Matrix& b, const Tolerance& tol);

// ---- formatting --------------------------------------------------------------------------

std::string fmt(double x);              // shortest form that reads well, "nan", "inf"
std::string shape_of(const Matrix& m);  // "3 x 2"
std::string shape_of(Eigen::Index rows, Eigen::Index cols);

}  // namespace grader
