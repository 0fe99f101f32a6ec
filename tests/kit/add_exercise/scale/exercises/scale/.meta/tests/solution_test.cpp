// The template exercise's solution, by hand: every entry times the factor, the shape kept.
#include "helpers.hpp"
#include "scale.hpp"

TEST_CASE("solutions/scale: every entry times the factor") {
  const extest::Matrix X = (extest::Matrix(2, 3) << 1, -2, 0, 0.5, 3, -1).finished();
  const extest::Matrix Y = linattn::scale(X, -2.0);
  REQUIRE(Y.rows() == 2);
  REQUIRE(Y.cols() == 3);
  CHECK(Y(0, 1) == 4.0);
  CHECK(Y(1, 0) == -1.0);
  CHECK(linattn::scale(X, 0.0).isZero());
}
