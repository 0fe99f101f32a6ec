// Bindings of exercise 4 (taylor).
#include "taylor.hpp"

#include "runner/arguments.hpp"
#include "runner/binding.hpp"

namespace {

using linattn::Matrix;
using runner::json;

// {"X"} -> {"features"}
const runner::BindingRegistrar features{
    "taylor_features", [](const json& call, runner::CallRecord& record) {
      const Matrix X = runner::matrix_arg(call, "X");  // (n, d)
      Matrix X_given = X;
      Matrix F;  // (n, 1 + d + d^2)
      runner::metered([&] { F = linattn::taylor_features(X_given); });
      record.watch("X", X, X_given);
      return json{{"features", wire::from_matrix(F)}};
    }};

// {"d_head", "d_v", "n_heads", "bytes_per" (default 4)} -> {"value"}
const runner::BindingRegistrar state_bytes{
    "taylor_state_bytes", [](const json& call, runner::CallRecord&) {
      const std::int64_t d_head = runner::int_arg(call, "d_head");
      const std::int64_t d_v = runner::int_arg(call, "d_v");
      const std::int64_t n_heads = runner::int_arg(call, "n_heads");
      const std::int64_t bytes_per = runner::int_arg(call, "bytes_per", 4);
      std::int64_t value = 0;
      runner::metered([&] { value = linattn::taylor_state_bytes(d_head, d_v, n_heads, bytes_per); });
      return json{{"value", value}};
    }};

// {"state_bytes", "n_kv", "d_k", "bytes_per" (default 2)} -> {"value"}
const runner::BindingRegistrar cache_tokens{
    "kv_cache_tokens", [](const json& call, runner::CallRecord&) {
      const std::int64_t state = runner::int_arg(call, "state_bytes");
      const std::int64_t n_kv = runner::int_arg(call, "n_kv");
      const std::int64_t d_k = runner::int_arg(call, "d_k");
      const std::int64_t bytes_per = runner::int_arg(call, "bytes_per", 2);
      std::int64_t value = 0;
      runner::metered([&] { value = linattn::kv_cache_tokens(state, n_kv, d_k, bytes_per); });
      return json{{"value", value}};
    }};

}  // namespace
