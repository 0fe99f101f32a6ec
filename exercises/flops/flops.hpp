// Exercise 1 (warm-up): which order to multiply.
#pragma once

#include "../common/linattn.hpp"

#include <cstdint>

namespace linattn {

enum class Order { Left, Right };

// FLOPs of the two matrix products of non-causal linear attention, counting an (m x k) by
// (k x n) product as 2*m*k*n. The normalizer and the feature map are not counted.
//   Left:  (phi(Q) phi(K)^T) V    -- builds a T x T matrix first
//   Right: phi(Q) (phi(K)^T V)    -- builds a d_phi x d_v matrix first
// All sizes are positive. Results can exceed 2^31: compute in 64 bits throughout.
std::int64_t attention_flops(std::int64_t T, std::int64_t d_phi, std::int64_t d_v, Order order);

// The least T >= 1 for which Right needs strictly fewer FLOPs than Left (equal widths d: d + 1).
std::int64_t crossover_T(std::int64_t d_phi, std::int64_t d_v);

}  // namespace linattn
