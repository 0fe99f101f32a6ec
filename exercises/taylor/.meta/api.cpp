// The API of exercise 4, `taylor`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "taylor.hpp"

// ==== API =====================================================================================

// The byte sizes the two counts default to, as taylor.hpp declares them: the state in float32,
// the KV cache in 16-bit numbers.
constexpr std::int64_t kStateBytesPer = 4;
constexpr std::int64_t kCacheBytesPer = 2;

// The features map X (n x d) to n rows of 1 + d + d^2 columns.
static const api::Exercise taylor_api{
    "taylor",
    {
        api::function(LINATTN_SIGNATURE(taylor_features), {"X"}, {"features"}),
        api::function(LINATTN_SIGNATURE(taylor_state_bytes),
                      {"d_head", "d_v", "n_heads", {"bytes_per", kStateBytesPer}}, {"value"}),
        api::function(LINATTN_SIGNATURE(kv_cache_tokens),
                      {"state_bytes", "n_kv", "d_k", {"bytes_per", kCacheBytesPer}}, {"value"}),
    }};
