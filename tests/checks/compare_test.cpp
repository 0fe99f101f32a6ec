// The comparison's messages: shapes said plainly, errors, the worst entry, the tolerance, the
// first mismatches, NaN and Inf.
#include "judge/compare.hpp"
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <limits>

using fake::contains;
using grader::Matrix;
using grader::Vector;

TEST_CASE("checks/compare: equal within the tolerance passes with no report") {
  Matrix a(2, 2);
  a << 1, 2, 3, 4;
  Matrix b = a;
  b(1, 1) += 1e-12;
  const auto c = grader::compare_matrices(a, b, grader::kTight, "O");
  CHECK(c.ok);
  CHECK(c.report.empty());
}

TEST_CASE("checks/compare: a shape mismatch names expected and got, rows x cols") {
  const auto c = grader::compare_matrices(Matrix::Zero(7, 3), Matrix::Zero(3, 7), grader::kTight,
                                          "S", "d_phi x d_v");
  CHECK_FALSE(c.ok);
  CHECK_FALSE(c.shape_ok);
  CHECK(contains(c.report, "expected 7 x 3 (d_phi x d_v), got 3 x 7"));
  CHECK(contains(c.report, "transposed"));
  const auto v =
      grader::compare_vectors(Vector::Zero(4), Vector::Zero(5), grader::kTight, "o", "d_v");
  CHECK(contains(v.report, "expected 4 (d_v), got 5"));
}

TEST_CASE("checks/compare: errors, worst entry, tolerance and first mismatches") {
  Matrix e = Matrix::Ones(3, 4), g = e;
  g(0, 1) = 1.5;
  g(2, 3) = 4.0;
  g(1, 2) = std::numeric_limits<double>::quiet_NaN();
  const auto c = grader::compare_matrices(e, g, grader::kTight, "O", "T x d_v");
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 3);
  CHECK(c.non_finite == 1);
  CHECK(c.max_abs_error == doctest::Approx(3.0));
  CHECK(contains(c.report, "O, 3 x 4 (T x d_v): 3 of 12 entries differ, 1 of them NaN or Inf"));
  CHECK(contains(c.report, "worst entry [1,2]: expected 1, got nan"));  // NaN is the worst
  CHECK(contains(c.report, "tolerance: |got - expected| <= 1e-09 + 1e-09 * |expected|"));
  CHECK(contains(c.report, "[0,1] expected 1, got 1.5"));
  CHECK(contains(c.report, "max rel error 3"));
}

TEST_CASE(
    "checks/compare: no relative error against expected values within the absolute tolerance of "
    "0") {
  // Expected 1e-16 (zero up to rounding), got 1e-3: "max rel error 1e+13" would be noise.
  Vector e(3), g(3);
  e << 1e-16, 2.0, 0.0;
  g << 1e-3, 2.0, 0.0;
  const auto only_noise = grader::compare_vectors(e, g, grader::kTight, "o");
  CHECK_FALSE(only_noise.ok);
  CHECK(contains(only_noise.report, "max abs error 0.001"));
  CHECK_FALSE(contains(only_noise.report, "rel error"));
  // Where another entry is off as well, its relative error is the one shown, and said to be.
  g(1) = 3.0;
  const auto both = grader::compare_vectors(e, g, grader::kTight, "o");
  CHECK(contains(both.report,
                 "max rel error 0.5 (where |expected| is above the absolute tolerance)"));
  const auto scalar = grader::compare_scalars(1e-16, 1e-3, grader::kTight, "energy");
  CHECK(contains(scalar.report, "(abs error 0.001)"));
  CHECK(contains(grader::compare_scalars(2.0, 3.0, grader::kTight, "energy").report,
                 "rel error 0.5"));
}

TEST_CASE("checks/compare: rows never written are named") {
  Matrix e = Matrix::Constant(6, 2, 0.5), g = e;
  g.row(2) << 4.68e-310, 0.0;  // as a fresh allocation leaves them
  g.row(3) << 0.0, 1e-320;
  g.row(5).setZero();
  const auto c = grader::compare_matrices(e, g, grader::kTight, "O", "T x d_v");
  REQUIRE(c.unwritten);
  CHECK(contains(*c.unwritten,
                 "rows 2..3, 5 of O were never written: they hold only 0 and leftovers of "
                 "memory as allocated, such as 4.68e-310, where values are expected."));
  // Zeros alone, in one row.
  Matrix z = e;
  z.row(4).setZero();
  const auto zc = grader::compare_matrices(e, z, grader::kTight, "O");
  REQUIRE(zc.unwritten);
  // Zeros are what a row set to zero and left unfilled holds, and what a sum over no terms
  // gives: both are named, and "never written" is not claimed.
  CHECK(contains(*zc.unwritten,
                 "row 4 of O holds only 0 where values are expected: either never written (a "
                 "loop that stops early, a result set to zero whose rows are not all filled) or "
                 "summed over no terms at all (a loop bound that leaves out every term there, "
                 "such as < where <= belongs)."));
  CHECK_FALSE(contains(*zc.unwritten, "was never written"));
  // Six runs: four are named, the rest is "...", and every row of all six is counted (the
  // kit is built with the standard library's bounds checks, so counting past the runs kept
  // stops this test rather than going unseen).
  Matrix six = Matrix::Constant(13, 2, 0.5);
  for (Eigen::Index r : {1, 3, 5, 7, 9, 11}) six.row(r).setZero();
  const auto sc = grader::compare_matrices(Matrix::Constant(13, 2, 0.5), six, grader::kTight, "O");
  REQUIRE(sc.unwritten);
  CHECK(contains(*sc.unwritten, "rows 1, 3, 5, 7, ... of O hold only 0 where values are expected"));
  // Rows that are simply wrong, or zero where zero is expected, are not called unwritten.
  Matrix w = e;
  w(1, 1) = 7.0;
  Matrix e0 = e;
  e0.row(3).setZero();
  w.row(3).setZero();
  CHECK_FALSE(grader::compare_matrices(e0, w, grader::kTight, "O").unwritten);
}

TEST_CASE("checks/compare: Inf must match Inf, NaN never matches a number") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(grader::within(inf, inf, grader::kTight));
  CHECK_FALSE(grader::within(inf, 1e308, grader::kTight));
  CHECK_FALSE(grader::within(1.0, nan, grader::kTight));
  CHECK_FALSE(grader::within(1.0, inf, grader::kTight));
  const auto s = grader::compare_scalars(2.0, nan, grader::kTight, "value");
  CHECK_FALSE(s.ok);
  CHECK(contains(s.report, "expected 2, got nan"));
}

TEST_CASE("checks/compare: a suspect is recognised, NaN matching NaN") {
  Matrix got(2, 1);
  got << std::numeric_limits<double>::quiet_NaN(), 0.5;
  const std::vector<grader::Suspect> suspects{{"first", Matrix::Zero(2, 1)}, {"second", got}};
  const auto m = grader::diagnose(got, suspects);
  REQUIRE(m.has_value());
  CHECK(*m == "second");
  CHECK_FALSE(grader::diagnose(Matrix::Ones(2, 1), suspects).has_value());
  const auto v = grader::failure("tried", "report", std::string("it"));
  CHECK(v.message == "tried\nreport\nLikely mistake: it");
}

TEST_CASE("checks/compare: suspects travel as JSON, large ones as a probe") {
  Matrix small = Matrix::Ones(2, 3), large = Matrix::Zero(100, 64);  // 6400 > kProbeEntries
  for (Eigen::Index i = 0; i < large.size(); ++i)
    large(i / 64, i % 64) = 0.5 * static_cast<double>(i);
  const grader::json j =
      wire::decode(wire::encode(grader::suspects_json({{"small", small}, {"large", large}})));
  CHECK(j.at(1).at("value").contains("probe"));
  CHECK(j.at(1).at("value").at("probe").size() == static_cast<std::size_t>(grader::kProbeEntries));
  CHECK(grader::diagnose(small, j) == std::optional<std::string>("small"));
  CHECK(grader::diagnose(large, j) == std::optional<std::string>("large"));
  Matrix off = large;
  off(99, 63) += 1.0;  // the last entry is always probed
  CHECK_FALSE(grader::diagnose(off, j).has_value());
  CHECK_FALSE(grader::diagnose(Matrix(large.transpose()), j).has_value());
  const grader::json s = grader::scalar_suspects_json({{"two", 2.0}, {"three", 3.0}});
  CHECK(grader::diagnose_scalar(3.0, s) == std::optional<std::string>("three"));
  CHECK_FALSE(grader::diagnose_scalar(4.0, s).has_value());
}

TEST_CASE("checks/compare: integer rules name the first range that holds the answer") {
  const grader::json rules =
      grader::int_rules_json({{"negative", INT64_MIN, -1}, {"seven", 7, 7}, {"near", 5, 9}});
  CHECK(grader::diagnose_int(-5, rules) == std::optional<std::string>("negative"));
  CHECK(grader::diagnose_int(7, rules) == std::optional<std::string>("seven"));
  CHECK(grader::diagnose_int(9, rules) == std::optional<std::string>("near"));
  CHECK_FALSE(grader::diagnose_int(0, rules).has_value());
}

TEST_CASE("checks/compare: rows never written are named, leftovers of memory and zeros alike") {
  Matrix e = Matrix::Ones(6, 2), g = e;
  g.bottomRows(3).setZero();
  g(4, 1) = 4.68e-310;  // what memory as allocated often holds: a subnormal
  const auto c = grader::compare_matrices(e, g, grader::kTight, "O", "T x d_v");
  REQUIRE(c.unwritten);
  CHECK(contains(*c.unwritten, "rows 3..5 of O were never written"));
  CHECK(contains(*c.unwritten, "such as 4.68e-310"));
  // Zeros alone, one row, at the end: a loop that stops one token early.
  Matrix last = e;
  last.row(5).setZero();
  const auto l = grader::compare_matrices(e, last, grader::kTight, "O");
  REQUIRE(l.unwritten);
  CHECK(contains(*l.unwritten, "row 5 of O holds only 0 where values are expected: either never"));
  // A lone row of zeros at the start is a formula's mistake (o_1 = 0), not a write left out;
  // a row of wrong numbers is not unwritten either.
  Matrix first = e;
  first.row(0).setZero();
  CHECK_FALSE(grader::compare_matrices(e, first, grader::kTight, "O").unwritten);
  Matrix wrong = e;
  wrong.row(3).setConstant(2.0);
  CHECK_FALSE(grader::compare_matrices(e, wrong, grader::kTight, "O").unwritten);
  // Rows expected to be zero are not "never written" when they are zero.
  Matrix ez = e;
  ez.middleRows(2, 2).setZero();
  Matrix gz = ez;
  gz(0, 0) = 3.0;
  CHECK_FALSE(grader::compare_matrices(ez, gz, grader::kTight, "O").unwritten);
  // Vectors: entries.
  Vector ev = Vector::Ones(5), gv = ev;
  gv.segment(2, 2).setConstant(6.9e-310);
  const auto v = grader::compare_vectors(ev, gv, grader::kTight, "z", "d_phi");
  REQUIRE(v.unwritten);
  CHECK(contains(*v.unwritten, "entries 2..3 of z were never written"));
}
