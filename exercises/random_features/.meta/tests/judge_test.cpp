// random_features: the starter's trigonometric features, a dropped factor, and exp(q^T k) in
// place of the estimate must each be named.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cmath>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

const std::string kF = "positive_random_features";
const std::string kE = "softmax_kernel_estimate";

// features(X, Omega) written here.
using Features = std::function<Matrix(const Matrix& X, const Matrix& Omega)>;

fake::Impl features_impl(Features f) {
  return [f](const json& a) {
    return json{{"features",
                 wire::from_matrix(f(wire::to_matrix(a.at("X")), wire::to_matrix(a.at("Omega"))))}};
  };
}

Matrix positive(const Matrix& X, const Matrix& Omega, double half_norm_factor) {
  Matrix F(X.rows(), Omega.rows());
  for (Eigen::Index r = 0; r < X.rows(); ++r)
    for (Eigen::Index i = 0; i < Omega.rows(); ++i)
      F(r, i) = std::exp(Omega.row(i).dot(X.row(r)) - half_norm_factor * X.row(r).squaredNorm()) /
                std::sqrt(static_cast<double>(Omega.rows()));
  return F;
}

Matrix trig(const Matrix& X, const Matrix& Omega) {  // the starter
  const Matrix P = X * Omega.transpose();
  Matrix F(X.rows(), 2 * Omega.rows());
  F << P.array().sin().matrix(), P.array().cos().matrix();
  return F;
}

fake::Impl estimate_impl(std::function<double(const Vector&, const Vector&, const Matrix&)> f) {
  return [f](const json& a) {
    return json{{"value", f(wire::to_vector(a.at("q")), wire::to_vector(a.at("k")),
                            wire::to_matrix(a.at("Omega")))}};
  };
}

double estimate(const Vector& q, const Vector& k, const Matrix& Omega) {
  const Matrix fq = positive(q.transpose(), Omega, 0.5), fk = positive(k.transpose(), Omega, 0.5);
  return fq.row(0).dot(fk.row(0));
}

}  // namespace

TEST_CASE("checks/random_features: independent correct code passes") {
  for (const auto& [n, v] : fake::judge_all(
           "random_features", kF,
           features_impl([](const Matrix&X, const Matrix&O) { return positive(X, O, 0.5); })))
    CHECK_MESSAGE(v.passed, n << v.message);
  for (const auto& [n, v] : fake::judge_all("random_features", kE, estimate_impl(estimate)))
    CHECK_MESSAGE(v.passed, n << v.message);
}

TEST_CASE("checks/random_features: the trigonometric starter is named by its 2 d_phi columns") {
  const auto v = fake::judge_all("random_features", kF, features_impl(trig));
  expect_named(v, "features/shape", "2 d_phi columns: the starter's trigonometric features");
  CHECK(contains(v.at("features/shape").message, "expected 5 x 8 (n x d_phi), got 5 x 16"));
  expect_named(v, "features/values", "2 d_phi columns");
  REQUIRE_FALSE(v.at("features/positive").passed);
}

TEST_CASE("checks/random_features: dropped or wrong factors are named") {
  const auto no_norm = fake::judge_all(
      "random_features", kF,
      features_impl([](const Matrix& X, const Matrix& O) { return positive(X, O, 0.0); }));
  CHECK(no_norm.at("features/shape").passed);
  CHECK(no_norm.at("features/positive").passed);
  expect_named(no_norm, "features/values", "the factor exp(-|x|^2/2) is missing");

  const auto no_scale = fake::judge_all(
      "random_features", kF, features_impl([](const Matrix& X, const Matrix& O) {
        return Matrix(positive(X, O, 0.5) * std::sqrt(static_cast<double>(O.rows())));
      }));
  expect_named(no_scale, "features/values", "the 1/sqrt(d_phi) scale is missing");
}

TEST_CASE("checks/random_features: exp(q^T k) in place of the estimate is named") {
  const auto v = fake::judge_all("random_features", kE,
                                 estimate_impl([](const Vector& q, const Vector& k, const Matrix&) {
                                   return std::exp(q.dot(k));
                                 }));
  for (const char* name :
       {"estimate/matches-features", "estimate/for-this-omega", "estimate/unbiased-average"})
    expect_named(v, name, "exp(q^T k) was returned");
}

TEST_CASE("checks/random_features: a sum in place of the average is named") {
  const auto v = fake::judge_all(
      "random_features", kE, estimate_impl([](const Vector& q, const Vector& k, const Matrix& O) {
        return estimate(q, k, O) * static_cast<double>(O.rows());
      }));
  expect_named(v, "estimate/matches-features", "the 1/d_phi average is missing");
}

TEST_CASE("checks/random_features: the average over draws is near exp(q^T k), within the bound") {
  // What the unbiased-average check asserts, recomputed here from its request.
  const auto& c = fake::check("random_features", "estimate/unbiased-average");
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    const json calls = c.request(seed).at("calls");
    double sum = 0.0;
    for (const json& a : calls)
      sum += estimate(wire::to_vector(a.at("q")), wire::to_vector(a.at("k")),
                      wire::to_matrix(a.at("Omega")));
    const Vector q = wire::to_vector(calls[0].at("q")), k = wire::to_vector(calls[0].at("k"));
    const double mean = sum / static_cast<double>(calls.size());
    CHECK((q + k).squaredNorm() <= 1.0 + 1e-12);
    CHECK(std::fabs(mean / std::exp(q.dot(k)) - 1.0) < 0.05);
  }
}

TEST_CASE(
    "checks/random_features: the unbiased-average bound is 5 standard deviations, both sides") {
  // The judge's promise: the mean of N estimates (d_phi features each) may be off exp(q^T k) by
  // 5 relative standard deviations, sqrt((e^{|q+k|^2} - 1) / (d_phi N)), and no more. Every call
  // is answered with the same value, truth * (1 + x), and the expected values are set to it
  // too, so each call matches and only the mean is judged: x = 4 and -4 deviations must pass,
  // x = 6 and -6 must fail.
  const auto& c = fake::check("random_features", "estimate/unbiased-average");
  const json request = c.request(c.seed);
  const json& calls = request.at("calls");
  const Vector q = wire::to_vector(calls.at(0).at("q")), k = wire::to_vector(calls.at(0).at("k"));
  const double d_phi = static_cast<double>(wire::to_matrix(calls.at(0).at("Omega")).rows());
  const double n = static_cast<double>(calls.size());
  const double truth = std::exp(q.dot(k));
  const double sigma = std::sqrt((std::exp((q + k).squaredNorm()) - 1.0) / (d_phi * n));
  REQUIRE(sigma > 0.0);
  REQUIRE(6.0 * sigma < 0.5);
  for (const double deviations : {4.0, -4.0, 6.0, -6.0}) {
    CAPTURE(deviations);
    const double value = truth * (1.0 + deviations * sigma);
    json expected = c.expect(request);
    for (auto& e : expected.at("calls")) e["value"] = value;
    const json reply = fake::reply_from(request, [value](const json&) {
      return json{{"value", value}};
    });
    const grader::Verdict v = c.judge(request, expected, reply);
    INFO(v.message);
    CHECK(v.passed == (std::fabs(deviations) < 5.0));
  }
}
