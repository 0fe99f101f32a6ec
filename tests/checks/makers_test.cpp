// The oracle halves' shared helpers: phi specs build the reference's maps, and the seeded
// input makers are deterministic and keep their promises.
#include "oracle/makers.hpp"
#include "checks/shared/feature_map_specs.hpp"
#include "common/wire.hpp"
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cmath>

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

TEST_CASE("checks/makers: Taylor and random features reach the runner as tables") {
  Matrix Q(2, 2), K(2, 2), V(2, 1);
  Q << 1, 2, 0, 1;
  K << 3, 1, 1, 0;
  V << 1, 2;
  nlohmann::json calls = nlohmann::json::array({{{"Q", wire::from_matrix(Q)},
                                                 {"K", wire::from_matrix(K)},
                                                 {"V", wire::from_matrix(V)},
                                                 {"phi", grader::phi_spec("taylor")}},
                                                {{"Q", wire::from_matrix(Q)},
                                                 {"K", wire::from_matrix(K)},
                                                 {"V", wire::from_matrix(V)},
                                                 {"phi", grader::phi_spec("elu_plus_one")}}});
  const nlohmann::json out = grader::with_feature_tables(calls);
  // Rows: Q's, K's, then a row of zeros; features: Taylor's (1, x, vec(x x^T)/sqrt(2)).
  const Matrix rows = wire::to_matrix(out[0]["phi"]["rows"]);
  const Matrix F = wire::to_matrix(out[0]["phi"]["features"]);
  REQUIRE(rows.rows() == 5);
  CHECK(rows.row(2) == K.row(0));
  CHECK(rows.row(4).isZero());
  REQUIRE(F.cols() == 7);
  const double h = 1.0 / std::sqrt(2.0);
  // q = (1, 2): (1, 1, 2, 1/sqrt2, 2/sqrt2, 2/sqrt2, 4/sqrt2), the seed's (1, 2, 2, 4) block.
  CHECK(F(0, 0) == 1.0);
  CHECK(F(0, 6) == doctest::Approx(4 * h));
  CHECK(F(4, 0) == 1.0);
  CHECK(F.row(4).tail(6).isZero());
  // elu+1 is simple enough for the runner to compute: no table.
  CHECK_FALSE(out[1]["phi"].contains("rows"));
}
