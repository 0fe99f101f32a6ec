// BEGIN SOLUTION
// Verified solution of exercise 1 (warm-up): which order to multiply.
// The stub exercises/flops/flops.cpp is generated from this file (see tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 1 (warm-up): which order to multiply. The hand-out is README.md next to this file.
// STUB: // Replace each `throw` with your code; flops.hpp belongs to the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "flops.hpp"

namespace linattn {

// BEGIN SOLUTION
std::int64_t attention_flops(std::int64_t T, std::int64_t d_phi, std::int64_t d_v, Order order) {
  // Every size is already 64-bit, so no product below can wrap for the sizes the exercise uses.
  if (order == Order::Left) {
    // (T x d_phi)(d_phi x T) makes the T x T kernel matrix, then (T x T)(T x d_v).
    return 2 * T * d_phi * T + 2 * T * T * d_v;
  }
  // (d_phi x T)(T x d_v) makes the summary, then (T x d_phi)(d_phi x d_v) reads it.
  return 2 * d_phi * T * d_v + 2 * T * d_phi * d_v;
}
// END SOLUTION
// STUB: std::int64_t attention_flops(std::int64_t /*T*/, std::int64_t /*d_phi*/, std::int64_t /*d_v*/,
// STUB:                              Order /*order*/) {
// STUB:   throw NotImplemented("attention_flops");
// STUB: }

// BEGIN SOLUTION
std::int64_t crossover_T(std::int64_t d_phi, std::int64_t d_v) {
  // Right < Left  <=>  4 T d_phi d_v < 2 T^2 (d_phi + d_v)  <=>  T > 2 d_phi d_v / (d_phi + d_v).
  // The smallest integer strictly above a positive number x is floor(x) + 1, and integer
  // division of positive numbers is floor.
  return 2 * d_phi * d_v / (d_phi + d_v) + 1;
}
// END SOLUTION
// STUB: std::int64_t crossover_T(std::int64_t /*d_phi*/, std::int64_t /*d_v*/) {
// STUB:   throw NotImplemented("crossover_T");
// STUB: }

}  // namespace linattn
