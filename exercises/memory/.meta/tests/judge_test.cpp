// memory: the starters (K^T V; S q), unnormalized keys or queries, a transposed memory, and
// the crosstalk's s = j term and missing mean must each be named.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;
using fake::Vector;

namespace {

Matrix unit_rows(const Matrix& K) {
  Matrix U = K;
  for (Eigen::Index r = 0; r < K.rows(); ++r) U.row(r) /= K.row(r).norm();
  return U;
}

fake::Impl write_impl(std::function<Matrix(const Matrix&, const Matrix&)> f) {
  return [f](const json& a) {
    return json{
        {"S", wire::from_matrix(f(wire::to_matrix(a.at("K")), wire::to_matrix(a.at("V"))))}};
  };
}
fake::Impl read_impl(std::function<Vector(const Matrix&, const Vector&)> f) {
  return [f](const json& a) {
    return json{
        {"value", wire::from_vector(f(wire::to_matrix(a.at("S")), wire::to_vector(a.at("q"))))}};
  };
}
// Crosstalk with options: include the s = j term; divide by n or not.
fake::Impl crosstalk_impl(bool diagonal, bool mean, bool normalize = true) {
  return [=](const json& a) {
    const Matrix K = wire::to_matrix(a.at("K"));
    const Matrix U = normalize ? unit_rows(K) : K;
    double total = 0.0;
    for (Eigen::Index j = 0; j < U.rows(); ++j)
      for (Eigen::Index s = 0; s < U.rows(); ++s)
        if (diagonal || s != j) total += std::pow(U.row(s).dot(U.row(j)), 2);
    return json{{"value", mean ? total / static_cast<double>(U.rows()) : total}};
  };
}

}  // namespace

TEST_CASE("checks/memory: independent correct code passes, and the textbook's numbers hold") {
  for (const auto& [n, v] :
       fake::judge_all("memory", "write", write_impl([](const Matrix&K, const Matrix&V) {
                         return Matrix(unit_rows(K).transpose() * V);
                       })))
    CHECK_MESSAGE(v.passed, n << v.message);
  for (const auto& [n, v] :
       fake::judge_all("memory", "read", read_impl([](const Matrix&S, const Vector&q) {
                         return Vector(S.transpose() * q / q.norm());
                       })))
    CHECK_MESSAGE(v.passed, n << v.message);
  for (const auto& [n, v] :
       fake::judge_all("memory", "crosstalk_energy", crosstalk_impl(false, true)))
    CHECK_MESSAGE(v.passed, n << v.message);
  const json S = fake::reference_result(
      "write", fake::check("memory", "write/three-pairs").request(1)["calls"][1]);
  Matrix expected(2, 2);
  expected << 1, 5, 4, 4;
  CHECK((wire::to_matrix(S.at("S")) - expected).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("checks/memory: the write starter K^T V and a transposed memory are named") {
  const auto starter = fake::judge_all(
      "memory", "write",
      write_impl([](const Matrix& K, const Matrix& V) { return Matrix(K.transpose() * V); }));
  expect_named(starter, "write/unnormalized-keys",
               "the keys are not normalized: this is the starter's K^T V");
  expect_named(starter, "write/three-pairs", "the keys are not normalized");
  CHECK(contains(starter.at("write/three-pairs").message, "Call 2 of 2: "));

  const auto transposed =
      fake::judge_all("memory", "write", write_impl([](const Matrix& K, const Matrix& V) {
                        return Matrix(V.transpose() * unit_rows(K));
                      }));
  expect_named(transposed, "write/unequal-widths", "S is transposed");
  CHECK(contains(transposed.at("write/unequal-widths").message,
                 "expected 3 x 6 (d_k x d_v), got 6 x 3"));
}

// The write's other slips, each written out here: keys divided by their squared length, the
// values normalized instead of the keys, the columns of K normalized, and the sum averaged.
TEST_CASE(
    "checks/memory: a write with keys over their squared length, normalized values or columns, or "
    "a mean is named") {
  struct Slip {
    const char* what;
    std::function<Matrix(const Matrix&, const Matrix&)> write;
  };
  const Slip slips[] = {
      {"each key was divided by its squared length instead of its length.",
       [](const Matrix& K, const Matrix& V) {
         Matrix Ksq = K;
         for (Eigen::Index r = 0; r < K.rows(); ++r) Ksq.row(r) /= K.row(r).dot(K.row(r));
         return Matrix(Ksq.transpose() * V);
       }},
      {"the values were normalized instead of the keys.",
       [](const Matrix& K, const Matrix& V) { return Matrix(K.transpose() * unit_rows(V)); }},
      {"the columns of K were normalized",
       [](const Matrix& K, const Matrix& V) { return Matrix(unit_rows(K.transpose()) * V); }},
      {"the memory was averaged over the n pairs",
       [](const Matrix& K, const Matrix& V) {
         return Matrix(unit_rows(K).transpose() * V / static_cast<double>(K.rows()));
       }},
  };
  for (const Slip& slip : slips) {
    CAPTURE(slip.what);
    const auto v = fake::judge_all("memory", "write", write_impl(slip.write));
    expect_named(v, "write/unnormalized-keys", slip.what);
  }
}

TEST_CASE("checks/memory: the read starter S q and an unnormalized query are named") {
  // S q only runs when S is square, which is where the check can tell it apart.
  const auto& square = fake::check("memory", "read/square-state");
  const grader::Verdict v = fake::judge_with(
      square, read_impl([](const Matrix& S, const Vector& q) { return Vector(S * q); }),
      square.seed);
  REQUIRE_FALSE(v.passed);
  CHECK(contains(v.message, "Likely mistake: this is the starter's S q"));

  const auto raw = fake::judge_all(
      "memory", "read",
      read_impl([](const Matrix& S, const Vector& q) { return Vector(S.transpose() * q); }));
  expect_named(raw, "read/unnormalized-query", "the query is not normalized");
  expect_named(raw, "read/three-pairs", "the query is not normalized");
}

TEST_CASE("checks/memory: the s = j term, a missing mean and raw keys are named") {
  const auto diag = fake::judge_all("memory", "crosstalk_energy", crosstalk_impl(true, true));
  expect_named(diag, "crosstalk/single-and-orthogonal", "the s = j term is included");
  CHECK(contains(diag.at("crosstalk/single-and-orthogonal").message, "expected 0, got 1"));
  expect_named(diag, "crosstalk/three-pairs", "the s = j term is included");

  const auto sum = fake::judge_all("memory", "crosstalk_energy", crosstalk_impl(false, false));
  CHECK(sum.at("crosstalk/single-and-orthogonal").passed);
  expect_named(sum, "crosstalk/three-pairs", "the sum over j was not divided by n");

  const auto raw =
      fake::judge_all("memory", "crosstalk_energy", crosstalk_impl(false, true, false));
  expect_named(raw, "crosstalk/unnormalized-keys", "the keys are not normalized");
}

TEST_CASE("checks/memory: random unit keys give about (n - 1)/d_k") {
  const json call = fake::check("memory", "crosstalk/random-keys").request(1).at("calls").at(0);
  const double value = fake::reference_result("crosstalk_energy", call).at("value");
  CHECK(value == doctest::Approx(63.0 / 256.0).epsilon(0.25));
}

TEST_CASE(
    "checks/memory: a read's message puts the expected value first and the returned one second") {
  // Every read check, answered wrongly in two ways whose numbers are known here: a value one
  // entry too long (its length is d_v + 1) and a value of all 7s (7 is never the right entry).
  // "expected" must be the right length and the right value; "got" what came back.
  for (const auto& c : fake::exercise("memory").checks) {
    if (c.function != "read") continue;
    CAPTURE(c.name);
    const json calls = c.request(c.seed).at("calls");
    const auto d_v = calls.at(0).at("S").at("cols").get<Eigen::Index>();
    const grader::Verdict longer =
        fake::judge_with(c, read_impl([](const Matrix& S, const Vector&) {
                           return Vector(Vector::Zero(S.cols() + 1));
                         }),
                         c.seed);
    INFO(longer.message);
    REQUIRE_FALSE(longer.passed);
    CHECK(contains(longer.message, "value has the wrong length: expected " + std::to_string(d_v) +
                                       " (d_v), got " + std::to_string(d_v + 1) + "."));
    const grader::Verdict sevens =
        fake::judge_with(c, read_impl([](const Matrix& S, const Vector&) {
                           return Vector(Vector::Constant(S.cols(), 7.0));
                         }),
                         c.seed);
    INFO(sevens.message);
    REQUIRE_FALSE(sevens.passed);
    CHECK(contains(sevens.message, ", got 7\n"));  // the worst entry
    CHECK(contains(sevens.message, "[0] expected "));
    CHECK_FALSE(contains(sevens.message, "expected 7,"));
  }
}
