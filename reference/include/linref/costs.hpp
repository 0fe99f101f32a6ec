// Cost models: FLOPs, state and cache sizes. All in 64-bit integers.
#pragma once

#include <cstdint>

namespace linref {

enum class Order { Left, Right };

// (m x k) by (k x n) costs 2 m k n. Left: 2 T^2 (d_phi + d_v); Right: 4 T d_phi d_v.
std::int64_t attention_flops(std::int64_t T, std::int64_t d_phi, std::int64_t d_v, Order order);
// Smallest positive T with Right strictly cheaper than Left: floor(2 d_phi d_v/(d_phi+d_v)) + 1.
std::int64_t crossover_T(std::int64_t d_phi, std::int64_t d_v);

// Numbers in one head's decode state: S (d_phi x d_v) plus z (d_phi).
std::int64_t state_numbers(std::int64_t d_phi, std::int64_t d_v);
std::int64_t taylor_feature_count(std::int64_t d);  // 1 + d + d^2
// Bytes to keep every intermediate state S_1..S_T of one head (what a naive autograd of the
// cumulative-sum form stores): T d_phi d_v numbers.
std::int64_t stored_states_bytes(std::int64_t T, std::int64_t d_phi, std::int64_t d_v,
                                 std::int64_t bytes_per = 4);
// One layer's Taylor decode state in bytes: n_heads * state_numbers(1 + d + d^2, d_v) * bytes_per.
std::int64_t taylor_state_bytes(std::int64_t d_head, std::int64_t d_v, std::int64_t n_heads,
                                std::int64_t bytes_per = 4);
// One layer's softmax KV cache per token: 2 n_kv d_k numbers.
std::int64_t kv_cache_bytes_per_token(std::int64_t n_kv, std::int64_t d_k,
                                      std::int64_t bytes_per = 2);
// Smallest T whose cache takes at least state_bytes (ceil division; 0 for 0).
std::int64_t kv_cache_tokens(std::int64_t state_bytes, std::int64_t n_kv, std::int64_t d_k,
                             std::int64_t bytes_per = 2);

// A hybrid model's layer arithmetic (MiniMax-01: 80 layers, 70 linear, 64 heads of 128,
// 8 KV heads in the softmax layers).
struct HybridModel {
  std::int64_t linear_layers;
  std::int64_t softmax_layers;
  std::int64_t heads;
  std::int64_t head_dim;
  std::int64_t kv_heads;
};
HybridModel minimax01();
std::int64_t linear_state_numbers(const HybridModel& m);  // linear layers * heads * d * d (no z)
std::int64_t linear_state_bytes(const HybridModel& m, std::int64_t bytes_per = 4);
std::int64_t softmax_cache_bytes_per_token(const HybridModel& m, std::int64_t bytes_per = 2);
std::int64_t softmax_cache_bytes(const HybridModel& m, std::int64_t tokens, bool all_layers_softmax,
                                 std::int64_t bytes_per = 2);

}  // namespace linref
