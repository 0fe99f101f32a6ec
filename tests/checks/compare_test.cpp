// The comparison's messages: shapes said plainly, errors, the worst entry, the tolerance, the
// first mismatches, NaN and Inf.
#include "compare.hpp"
#include "fake_runner.hpp"

#include <doctest/doctest.h>

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
  const auto v = grader::compare_vectors(Vector::Zero(4), Vector::Zero(5), grader::kTight, "o", "d_v");
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

TEST_CASE("checks/compare: phi specs build the reference's maps") {
  linref::Rng rng(5);
  const Matrix X = rng.normal_matrix(3, 2);
  const Matrix Omega = rng.normal_matrix(4, 2);
  CHECK(grader::same_values(grader::feature_map(grader::phi_spec("elu_plus_one"))(X),
                            linref::elu_plus_one(X), grader::kExact));
  CHECK(grader::feature_map(grader::phi_spec("taylor"))(X).cols() == 7);
  CHECK(grader::same_values(grader::feature_map(grader::phi_spec_random(Omega))(X),
                            linref::positive_random_features(X, Omega), grader::kExact));
  CHECK_THROWS(grader::feature_map(grader::phi_spec("softmax")));
  CHECK(contains(grader::describe_phi(grader::phi_spec_random(Omega)), "4 x 2"));
}

TEST_CASE("checks/compare: seeded makers are deterministic and keep their promises") {
  linref::Rng a(9), b(9);
  CHECK(grader::same_values(grader::random_matrix(a, 3, 3), grader::random_matrix(b, 3, 3),
                            grader::kExact));
  const Matrix P = grader::random_positive_matrix(a, 20, 5, 0.1);
  CHECK(P.minCoeff() >= 0.1);
  const Matrix L = grader::random_rows_of_lengths(a, 5, 3, 0.5, 4.0);
  CHECK(L.row(0).norm() == doctest::Approx(0.5));
  CHECK(L.row(4).norm() == doctest::Approx(4.0));
  for (int i = 0; i < 50; ++i) {
    const auto s = grader::random_size(a, 3, 6);
    CHECK((s >= 3 && s <= 6));
  }
}
