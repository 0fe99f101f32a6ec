// The oracle halves' shared helpers: phi specs build the reference's maps, and the seeded
// input makers are deterministic and keep their promises.
#include "fake_runner.hpp"
#include "oracle/makers.hpp"

#include <doctest/doctest.h>

using fake::contains;
using grader::Matrix;

TEST_CASE("checks/makers: phi specs build the reference's maps") {
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

TEST_CASE("checks/makers: seeded makers are deterministic and keep their promises") {
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
