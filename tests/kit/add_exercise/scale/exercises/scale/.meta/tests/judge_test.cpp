// scale: the judge on fake replies (tests/checks/fake_runner.hpp). Written out here, not with
// the oracle's code: every entry times the factor passes every check; a dropped sign fails the
// negative factor and is named; X returned unscaled fails every check.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

using fake::json;

namespace {

// scale(X, factor) that multiplies by what `factor_used` makes of the factor.
fake::Impl scale_by(std::function<double(double)> factor_used) {
  return [factor_used](const json& call) {
    const fake::Matrix X = wire::to_matrix(call.at("X"));
    return json{{"scaled", wire::from_matrix(X * factor_used(call.at("factor").get<double>()))}};
  };
}

}  // namespace

TEST_CASE("checks/scale: every entry times the factor passes every check") {
  const auto v = fake::judge_all("scale", "scale", scale_by([](double f) { return f; }));
  CHECK(v.size() == 3);
  for (const auto& [name, verdict] : v)
    CHECK_MESSAGE(verdict.passed, name << ": " << verdict.message);
}

TEST_CASE("checks/scale: a dropped sign fails the negative factor and is named") {
  const auto v = fake::judge_all("scale", "scale", scale_by([](double f) { return std::fabs(f); }));
  CHECK(v.at("scale/by-two").passed);  // a positive factor cannot tell
  fake::expect_named(v, "scale/negative", "the factor's sign is dropped");
}

TEST_CASE("checks/scale: X returned unscaled fails every check, naming the function") {
  const auto v = fake::judge_all("scale", "scale", scale_by([](double) { return 1.0; }));
  CHECK(v.size() == 3);
  for (const auto& [name, verdict] : v) {
    INFO(name << ": " << verdict.message);
    CHECK_FALSE(verdict.passed);
    CHECK(fake::contains(verdict.message, "scale(X, factor)"));
    CHECK_FALSE(fake::contains(verdict.message, "Likely mistake"));
  }
}
