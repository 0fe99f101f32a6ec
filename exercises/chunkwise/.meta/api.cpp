// The API of exercise 6, `chunkwise`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "chunkwise.hpp"

// ==== API =====================================================================================

// Q, K: (T, d_k); V: (T, d_v); chunk >= 1 -> O: (T, d_v).
static const api::Exercise chunkwise_api{
    "chunkwise",
    {
        api::function(LINATTN_SIGNATURE(causal_linear_attention_chunkwise),
                      {"Q", "K", "V", "phi", "chunk", {"eps", 1e-6}}, {"O"}),
    }};
