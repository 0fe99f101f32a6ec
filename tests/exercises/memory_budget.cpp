// The recurrent solution keeps to the memory rule of the hand-out: the peak heap growth during
// the call stays within a few copies of phi(Q), phi(K) and the output, at a size where a T x T
// matrix of doubles, or T states, would be far larger. So do the two layers of exercise 8.
//
// This executable counts every malloc/calloc/realloc/free of the process by interposing those
// four functions over glibc's (whose own entry points are __libc_*), with malloc_usable_size
// for the sizes. Eigen allocates through malloc, so every matrix is seen.
#include "causal.hpp"
#include "helpers.hpp"
#include "modern.hpp"

#include <malloc.h>

#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);
}

namespace {
std::int64_t g_current = 0;  // bytes in use (may drift below zero for blocks freed here but
std::int64_t g_peak = 0;     // allocated by functions not counted; only differences matter)

void add(void* p) {
  if (p == nullptr) return;
  g_current += static_cast<std::int64_t>(malloc_usable_size(p));
  if (g_current > g_peak) g_peak = g_current;
}
void sub(void* p) {
  if (p != nullptr) g_current -= static_cast<std::int64_t>(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(std::size_t size) {
  void* p = __libc_malloc(size);
  add(p);
  return p;
}
void* calloc(std::size_t count, std::size_t size) {
  void* p = __libc_calloc(count, size);
  add(p);
  return p;
}
void* realloc(void* old, std::size_t size) {
  sub(old);
  void* p = __libc_realloc(old, size);
  add(p != nullptr ? p : (size == 0 ? nullptr : old));
  return p;
}
void free(void* p) {
  sub(p);
  __libc_free(p);
}
}

using extest::Matrix;

TEST_CASE("memory-rule: the counting works") {
  const std::int64_t before = g_current;
  g_peak = g_current;
  {
    Matrix big(1000, 1000);
    big.setZero();
    CHECK(g_current - before >= 8000000);
  }
  CHECK(g_peak - before >= 8000000);
  CHECK(g_current - before < 8000000);
}

TEST_CASE("memory-rule: the recurrent solution stays linear in T") {
  const Eigen::Index T = 8192, d = 64;  // d_k = d_v = d_phi = 64 with elu + 1
  linref::Rng rng(3);
  const Matrix Q = rng.normal_matrix(T, d), K = rng.normal_matrix(T, d),
               V = rng.normal_matrix(T, d);
  const std::int64_t block = 8 * T * d;  // bytes of phi(Q), phi(K) or the output
  const std::int64_t budget = 4 * 3 * block + 8 * (d * d + d);  // four copies of the three + state
  const std::int64_t t_by_t = 8 * T * T;
  const std::int64_t all_states = 8 * T * d * d;
  REQUIRE(t_by_t >= 5 * budget);
  REQUIRE(all_states >= 5 * budget);

  const std::int64_t before = g_current;
  g_peak = g_current;
  const Matrix O = linattn::causal_linear_attention_recurrent(Q, K, V, extest::elu_plus_one);
  const std::int64_t growth = g_peak - before;
  INFO("peak heap growth " << growth << " bytes, budget " << budget);
  CHECK(growth <= budget);
  CHECK(O.rows() == T);
}

TEST_CASE("memory-rule: the budget has teeth, the parallel form breaks it") {
  const Eigen::Index T = 4096, d = 64;
  linref::Rng rng(4);
  const Matrix Q = rng.normal_matrix(T, d), K = rng.normal_matrix(T, d),
               V = rng.normal_matrix(T, d);
  const std::int64_t budget = 4 * 3 * (8 * T * d) + 8 * (d * d + d);
  const std::int64_t before = g_current;
  g_peak = g_current;
  const Matrix O = linattn::causal_linear_attention_parallel(Q, K, V, extest::elu_plus_one);
  const std::int64_t growth = g_peak - before;
  INFO("peak heap growth " << growth << " bytes, budget " << budget);
  CHECK(growth >= 8 * T * T);
  CHECK(growth > budget);
}

TEST_CASE("memory-rule: both modern solutions stay linear in T") {
  const Eigen::Index T = 8192, d = 64;  // d_k = d_v = 64, as in the grader's memory checks
  linref::Rng rng(5);
  const Matrix Q = 0.3 * rng.normal_matrix(T, d), K = 0.3 * rng.normal_matrix(T, d);
  const Matrix V = rng.normal_matrix(T, d);
  const extest::Vector gates = extest::Vector::Constant(T, 0.9), gain = extest::Vector::Ones(d);
  // Two copies of silu(Q), silu(K), silu(V) and the output, and a state (the grader's rule).
  const std::int64_t budget = 2 * 4 * (8 * T * d) + 8 * (d * d + d);
  REQUIRE(8 * T * T >= 5 * budget);
  REQUIRE(8 * T * d * d >= 5 * budget);
  for (int which = 0; which < 2; ++which) {
    const std::int64_t before = g_current;
    g_peak = g_current;
    const Matrix O = which == 0 ? linattn::mlstm(Q, K, V, gates, gates)
                                : linattn::decayed_normalized_attention(Q, K, V, 0.99, gain);
    const std::int64_t growth = g_peak - before;
    INFO((which == 0 ? "mlstm" : "decayed_normalized_attention")
         << ": peak heap growth " << growth << " bytes, budget " << budget);
    CHECK(growth <= budget);
    CHECK(O.rows() == T);
  }
}
