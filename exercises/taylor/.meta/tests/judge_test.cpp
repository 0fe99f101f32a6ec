// taylor: the first-order starter, the 1/sqrt(2), the block order, and the byte counts'
// slips (no z, floor for ceil, no factor 2, bytes_per ignored, 0 tokens) must each be named.
#include "fake_runner.hpp"

#include <doctest/doctest.h>

#include <cmath>

using fake::contains;
using fake::expect_named;
using fake::json;
using fake::Matrix;

namespace {

// Taylor features with a chosen quadratic scale and block order.
Matrix taylor(const Matrix& X, double c, bool quad_first) {
  const Eigen::Index d = X.cols();
  Matrix F(X.rows(), 1 + d + d * d);
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    F(r, 0) = 1.0;
    const Eigen::Index lin = quad_first ? 1 + d * d : 1, quad = quad_first ? 1 : 1 + d;
    for (Eigen::Index i = 0; i < d; ++i) {
      F(r, lin + i) = X(r, i);
      for (Eigen::Index j = 0; j < d; ++j) F(r, quad + i * d + j) = c * X(r, i) * X(r, j);
    }
  }
  return F;
}

fake::Impl features_impl(std::function<Matrix(const Matrix&)> f) {
  return [f](const json& a) {
    return json{{"features", wire::from_matrix(f(wire::to_matrix(a.at("X"))))}};
  };
}

using Count = std::function<std::int64_t(std::int64_t, std::int64_t, std::int64_t, std::int64_t)>;
fake::Impl count_impl(const char* a0, const char* a1, const char* a2, Count f) {
  return [=](const json& a) {
    return json{{"value", f(a.at(a0), a.at(a1), a.at(a2), a.at("bytes_per"))}};
  };
}
fake::Impl state_impl(Count f) { return count_impl("d_head", "d_v", "n_heads", f); }
fake::Impl tokens_impl(Count f) { return count_impl("state_bytes", "n_kv", "d_k", f); }

std::int64_t state_bytes(std::int64_t d, std::int64_t dv, std::int64_t h, std::int64_t b) {
  const std::int64_t dp = 1 + d + d * d;
  return h * (dp * dv + dp) * b;
}
std::int64_t tokens(std::int64_t s, std::int64_t n, std::int64_t dk, std::int64_t b) {
  const std::int64_t per = 2 * n * dk * b;
  return (s + per - 1) / per;
}

}  // namespace

TEST_CASE("checks/taylor: independent correct code passes every check") {
  const double r2 = 1.0 / std::sqrt(2.0);
  for (const auto& [n, v] :
       fake::judge_all("taylor", "taylor_features",
                       features_impl([r2](const Matrix& X) { return taylor(X, r2, false); })))
    CHECK_MESSAGE(v.passed, n << v.message);
  for (const auto& [n, v] :
       fake::judge_all("taylor", "taylor_state_bytes", state_impl(state_bytes)))
    CHECK_MESSAGE(v.passed, n << v.message);
  for (const auto& [n, v] : fake::judge_all("taylor", "kv_cache_tokens", tokens_impl(tokens)))
    CHECK_MESSAGE(v.passed, n << v.message);
  CHECK(state_bytes(16, 64, 1, 4) == 273 * 65 * 4);  // Based: 273 features
  CHECK(tokens(2 << 20, 8, 128, 2) == 512);          // the textbook's break-even
}

TEST_CASE("checks/taylor: the first-order starter is named by its 1 + d columns") {
  const auto v = fake::judge_all("taylor", "taylor_features", features_impl([](const Matrix& X) {
                                   Matrix F(X.rows(), 1 + X.cols());
                                   F << Matrix::Ones(X.rows(), 1), X;
                                   return F;
                                 }));
  expect_named(v, "features/shape", "1 + d columns: the starter's first-order map");
  CHECK(contains(v.at("features/shape").message, "expected 3 x 21"));
  expect_named(v, "features/kernel-identity", "1 + d columns");
  expect_named(v, "features/based-sizes", "1 + d columns");
}

// The shape rules' other two slips: one triangle of x x^T (i <= j, d(d+1)/2 entries, the
// diagonal included) and the constant 1 left out (d + d^2 columns).
TEST_CASE(
    "checks/taylor: one triangle of x x^T, and the constant left out, are named by their widths") {
  const double r2 = 1.0 / std::sqrt(2.0);
  const auto triangle =
      fake::judge_all("taylor", "taylor_features", features_impl([r2](const Matrix& X) {
                        const Eigen::Index d = X.cols();
                        Matrix F(X.rows(), 1 + d + d * (d + 1) / 2);
                        for (Eigen::Index r = 0; r < X.rows(); ++r) {
                          Eigen::Index col = 0;
                          F(r, col++) = 1.0;
                          for (Eigen::Index i = 0; i < d; ++i) F(r, col++) = X(r, i);
                          for (Eigen::Index i = 0; i < d; ++i)
                            for (Eigen::Index j = i; j < d; ++j)
                              F(r, col++) = r2 * X(r, i) * X(r, j);
                        }
                        return F;
                      }));
  expect_named(triangle, "features/shape", "only one triangle of x x^T was kept");
  CHECK(contains(triangle.at("features/shape").message, "expected 3 x 21"));

  const auto no_one =
      fake::judge_all("taylor", "taylor_features", features_impl([r2](const Matrix& X) {
                        const Matrix F = taylor(X, r2, false);
                        return Matrix(F.rightCols(F.cols() - 1));
                      }));
  expect_named(no_one, "features/shape", "the constant feature 1 is missing.");
}

TEST_CASE("checks/taylor: the missing 1/sqrt(2) and the block order are named") {
  const auto no_root =
      fake::judge_all("taylor", "taylor_features",
                      features_impl([](const Matrix& X) { return taylor(X, 1.0, false); }));
  CHECK(no_root.at("features/shape").passed);
  expect_named(no_root, "features/kernel-identity", "the kernel is 1 + s + s^2");
  expect_named(no_root, "features/block-order", "the quadratic block is missing its 1/sqrt(2)");

  const double r2 = 1.0 / std::sqrt(2.0);
  const auto order =
      fake::judge_all("taylor", "taylor_features",
                      features_impl([r2](const Matrix& X) { return taylor(X, r2, true); }));
  CHECK(order.at("features/kernel-identity").passed);  // the kernel does not see the order
  expect_named(order, "features/block-order", "the blocks are in the wrong order");
}

TEST_CASE("checks/taylor: state bytes without z, or with bytes_per ignored, are named") {
  const auto no_z =
      fake::judge_all("taylor", "taylor_state_bytes",
                      state_impl([](std::int64_t d, std::int64_t dv, std::int64_t h,
                                    std::int64_t b) { return h * (1 + d + d * d) * dv * b; }));
  expect_named(no_z, "state_bytes/based", "z is not counted");
  const auto four =
      fake::judge_all("taylor", "taylor_state_bytes",
                      state_impl([](std::int64_t d, std::int64_t dv, std::int64_t h, std::int64_t) {
                        return state_bytes(d, dv, h, 4);
                      }));
  CHECK(four.at("state_bytes/based").passed);
  expect_named(four, "state_bytes/bytes-per", "bytes_per was ignored");
}

TEST_CASE("checks/taylor: floor for ceil, no factor 2, and tokens for 0 bytes are named") {
  const auto floor =
      fake::judge_all("taylor", "kv_cache_tokens",
                      tokens_impl([](std::int64_t s, std::int64_t n, std::int64_t dk,
                                     std::int64_t b) { return s / (2 * n * dk * b); }));
  CHECK(floor.at("kv_tokens/factor-two").passed);
  CHECK(floor.at("kv_tokens/zero").passed);
  expect_named(floor, "kv_tokens/ceil", "the division was rounded down");

  const auto no_two = fake::judge_all(
      "taylor", "kv_cache_tokens",
      tokens_impl([](std::int64_t s, std::int64_t n, std::int64_t dk, std::int64_t b) {
        return (s + n * dk * b - 1) / (n * dk * b);
      }));
  expect_named(no_two, "kv_tokens/factor-two", "the factor 2 is missing");
  CHECK(contains(no_two.at("kv_tokens/factor-two").message, "expected 512, got 1024"));

  const auto plus_one =
      fake::judge_all("taylor", "kv_cache_tokens",
                      tokens_impl([](std::int64_t s, std::int64_t n, std::int64_t dk,
                                     std::int64_t b) { return s / (2 * n * dk * b) + 1; }));
  expect_named(plus_one, "kv_tokens/zero", "zero bytes are reached at T = 0");
}
