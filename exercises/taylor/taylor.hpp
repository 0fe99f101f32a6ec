// Exercise 4 (core): second-order Taylor features and what their state costs.
#pragma once

#include "../common/linattn.hpp"

#include <cstdint>

namespace linattn {

// X: (n, d). Returns (n, 1 + d + d*d): the constant 1, then x, then vec(x x^T) / sqrt(2)
// in row-major order, so that phi(q)^T phi(k) = 1 + s + s^2 / 2 with s = q^T k.
Matrix taylor_features(const Matrix& X);

// Bytes of one layer's decode state with Taylor features: for every head, S (d_phi x d_v)
// and z (d_phi), with d_phi = 1 + d_head + d_head^2, at bytes_per bytes a number.
std::int64_t taylor_state_bytes(std::int64_t d_head, std::int64_t d_v, std::int64_t n_heads,
                                std::int64_t bytes_per = 4);

// The smallest number of tokens T whose softmax KV cache (2 * n_kv * d_k numbers a token,
// bytes_per bytes each) takes at least state_bytes. kv_cache_tokens(0, ...) is 0.
std::int64_t kv_cache_tokens(std::int64_t state_bytes, std::int64_t n_kv, std::int64_t d_k,
                             std::int64_t bytes_per = 2);

}  // namespace linattn
