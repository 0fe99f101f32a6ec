// Cost models. Everything is exact 64-bit integer arithmetic: the seed's figures (2^41 FLOPs,
// 320 GiB) overflow 32 bits, and a double would round the larger ones.
#include "linref/costs.hpp"

#include <stdexcept>

namespace linref {

std::int64_t attention_flops(std::int64_t T, std::int64_t d_phi, std::int64_t d_v, Order order) {
  // An (m x k) by (k x n) product: m n dot products of length k, 2 m k n FLOPs.
  if (order == Order::Left) {
    const std::int64_t kernel_matrix = 2 * T * d_phi * T;  // phi(Q) phi(K)^T: (T, T)
    const std::int64_t apply_to_values = 2 * T * T * d_v;  // (T, T) times V: (T, d_v)
    return kernel_matrix + apply_to_values;
  }
  const std::int64_t summary = 2 * d_phi * T * d_v;  // phi(K)^T V: (d_phi, d_v)
  const std::int64_t read = 2 * T * d_phi * d_v;     // phi(Q) times the summary: (T, d_v)
  return summary + read;
}

std::int64_t crossover_T(std::int64_t d_phi, std::int64_t d_v) {
  // Right < Left  <=>  4 T d_phi d_v < 2 T^2 (d_phi + d_v)  <=>  T > 2 d_phi d_v / (d_phi + d_v).
  // The smallest integer strictly above that ratio is its floor plus one (also when the ratio
  // is a whole number: there the two orders tie, which is not "cheaper").
  return 2 * d_phi * d_v / (d_phi + d_v) + 1;
}

std::int64_t state_numbers(std::int64_t d_phi, std::int64_t d_v) {
  return d_phi * d_v + d_phi;  // S: (d_phi, d_v), z: (d_phi)
}

std::int64_t taylor_feature_count(std::int64_t d) { return 1 + d + d * d; }

std::int64_t stored_states_bytes(std::int64_t T, std::int64_t d_phi, std::int64_t d_v,
                                 std::int64_t bytes_per) {
  return T * d_phi * d_v * bytes_per;
}

std::int64_t taylor_state_bytes(std::int64_t d_head, std::int64_t d_v, std::int64_t n_heads,
                                std::int64_t bytes_per) {
  return n_heads * state_numbers(taylor_feature_count(d_head), d_v) * bytes_per;
}

std::int64_t kv_cache_bytes_per_token(std::int64_t n_kv, std::int64_t d_k, std::int64_t bytes_per) {
  return 2 * n_kv * d_k * bytes_per;  // one key and one value per KV head
}

std::int64_t kv_cache_tokens(std::int64_t state_bytes, std::int64_t n_kv, std::int64_t d_k,
                             std::int64_t bytes_per) {
  if (state_bytes < 0) throw std::invalid_argument("kv_cache_tokens: negative state size");
  const std::int64_t per_token = kv_cache_bytes_per_token(n_kv, d_k, bytes_per);
  // Ceiling division: the first token count whose cache is at least as large. 0 bytes -> 0.
  return (state_bytes + per_token - 1) / per_token;
}

HybridModel minimax01() {
  // 80 layers, one softmax layer after every seven linear ones: 70 linear, 10 softmax.
  HybridModel m;
  m.linear_layers = 70;
  m.softmax_layers = 10;
  m.heads = 64;
  m.head_dim = 128;
  m.kv_heads = 8;
  return m;
}

std::int64_t linear_state_numbers(const HybridModel& m) {
  // Only S per head (d x d); modern normalized layers keep no z.
  return m.linear_layers * m.heads * m.head_dim * m.head_dim;
}

std::int64_t linear_state_bytes(const HybridModel& m, std::int64_t bytes_per) {
  return linear_state_numbers(m) * bytes_per;
}

std::int64_t softmax_cache_bytes_per_token(const HybridModel& m, std::int64_t bytes_per) {
  return m.softmax_layers * kv_cache_bytes_per_token(m.kv_heads, m.head_dim, bytes_per);
}

std::int64_t softmax_cache_bytes(const HybridModel& m, std::int64_t tokens, bool all_layers_softmax,
                                 std::int64_t bytes_per) {
  // all_layers_softmax: the counterfactual model in which the linear layers were softmax too.
  const std::int64_t layers =
      all_layers_softmax ? m.linear_layers + m.softmax_layers : m.softmax_layers;
  return tokens * layers * kv_cache_bytes_per_token(m.kv_heads, m.head_dim, bytes_per);
}

}  // namespace linref
