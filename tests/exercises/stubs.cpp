// The stubs as handed out (linked from linattn_stubs, never together with the solutions):
// every function either throws linattn::NotImplemented naming itself, or returns exactly the
// seed's wrong starter, computed here independently by plain loops.
#include "causal.hpp"
#include "flops.hpp"
#include "helpers.hpp"
#include "memory.hpp"
#include "random_features.hpp"
#include "taylor.hpp"

#include <cmath>
#include <string>

using extest::Matrix;
using extest::Vector;

// CHECK that `expr` throws linattn::NotImplemented whose message names `name`.
#define EX_CHECK_NOT_IMPLEMENTED(expr, name)                                 \
  do {                                                                       \
    std::string ex_message_;                                                 \
    bool ex_thrown_ = false;                                                 \
    try {                                                                    \
      (void)(expr);                                                          \
    } catch (const linattn::NotImplemented& e) {                             \
      ex_thrown_ = true;                                                     \
      ex_message_ = e.what();                                                \
    }                                                                        \
    CHECK_MESSAGE(ex_thrown_, name " does not throw NotImplemented");        \
    CHECK_MESSAGE(ex_message_.find(name) != std::string::npos, ex_message_); \
  } while (0)

TEST_CASE("stubs/flops: both functions are not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::attention_flops(8, 2, 2, linattn::Order::Left),
                           "attention_flops");
  EX_CHECK_NOT_IMPLEMENTED(linattn::attention_flops(8, 2, 2, linattn::Order::Right),
                           "attention_flops");
  EX_CHECK_NOT_IMPLEMENTED(linattn::crossover_T(2, 2), "crossover_T");
}

TEST_CASE("stubs/causal: all three functions are not implemented") {
  const Matrix X = Matrix::Ones(3, 2);
  const Vector x = Vector::Ones(2);
  EX_CHECK_NOT_IMPLEMENTED(
      linattn::causal_linear_attention_recurrent(X, X, X, extest::elu_plus_one),
      "causal_linear_attention_recurrent");
  EX_CHECK_NOT_IMPLEMENTED(linattn::causal_linear_attention_parallel(X, X, X, extest::elu_plus_one),
                           "causal_linear_attention_parallel");
  EX_CHECK_NOT_IMPLEMENTED(linattn::linear_attention_step(Matrix::Zero(2, 2), Vector::Zero(2), x, x,
                                                          x, extest::elu_plus_one),
                           "linear_attention_step");
}

TEST_CASE("stubs/random_features: the starter returns [sin(X Omega^T), cos(X Omega^T)]") {
  linref::Rng rng(1);
  const Matrix X = rng.normal_matrix(4, 3), Omega = rng.normal_matrix(5, 3);
  Matrix want(4, 10);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) {
      double p = 0;
      for (int c = 0; c < 3; ++c) p += X(i, c) * Omega(j, c);
      want(i, j) = std::sin(p);
      want(i, 5 + j) = std::cos(p);
    }
  }
  const Matrix got = linattn::positive_random_features(X, Omega);
  EX_CHECK_CLOSE(got, want, 1e-14);
  // The reference keeps the same starter under its own name, for the grader to recognise.
  EX_CHECK_CLOSE(got, linref::trig_random_features(X, Omega), 1e-14);
  // And it is wrong: the right answer has the other shape.
  CHECK(got.cols() != linref::positive_random_features(X, Omega).cols());
}

TEST_CASE("stubs/random_features: the estimate is not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(
      linattn::softmax_kernel_estimate(Vector::Ones(2), Vector::Ones(2), Matrix::Ones(3, 2)),
      "softmax_kernel_estimate");
}

TEST_CASE("stubs/taylor: the starter returns [1, x] (first order only)") {
  Matrix X(2, 2);
  X << 1, 2, 3, 1;  // the seed's q and k
  Matrix want(2, 3);
  want << 1, 1, 2, 1, 3, 1;
  EX_CHECK_CLOSE(linattn::taylor_features(X), want, 0.0);
  linref::Rng rng(2);
  const Matrix Y = rng.normal_matrix(5, 4);
  Matrix want_y(5, 5);
  for (int i = 0; i < 5; ++i) {
    want_y(i, 0) = 1.0;
    for (int c = 0; c < 4; ++c) want_y(i, 1 + c) = Y(i, c);
  }
  EX_CHECK_CLOSE(linattn::taylor_features(Y), want_y, 0.0);
}

TEST_CASE("stubs/taylor: the two counts are not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::taylor_state_bytes(16, 64, 1), "taylor_state_bytes");
  EX_CHECK_NOT_IMPLEMENTED(linattn::kv_cache_tokens(4096, 8, 128), "kv_cache_tokens");
}

TEST_CASE("stubs/memory: the starters return K^T V and S q") {
  // Keys that are not unit length, so the missing normalization shows.
  Matrix K(3, 2), V(3, 3);
  K << 2, 0, 0, 3, 1, 1;
  V << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Matrix want = Matrix::Zero(2, 3);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want(i, j) += K(s, i) * V(s, j);
  const Matrix S = linattn::write(K, V);
  EX_CHECK_CLOSE(S, want, 0.0);
  CHECK(extest::rel_error(S, linref::memory_write(K, V)) > 0.1);

  Matrix S2(2, 2);
  S2 << 1, 2, 3, 4;
  Vector q(2), want_q(2);
  q << 3, 4;
  want_q << 1 * 3 + 2 * 4, 3 * 3 + 4 * 4;  // S q, neither transposed nor normalized
  const Vector r = linattn::read(S2, q);
  EX_CHECK_CLOSE(r, want_q, 0.0);
  CHECK(extest::rel_error(r, linref::memory_read(S2, q)) > 0.1);
}

TEST_CASE("stubs/memory: crosstalk is not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::crosstalk_energy(Matrix::Identity(3, 3)), "crosstalk_energy");
}
