// The API of exercise 8, `modern`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "modern.hpp"

// ==== API =====================================================================================

// Q, K: (T, d_k); V: (T, d_v); f, i: (T); gain: (d_v) -> H, O: (T, d_v).
static const api::Exercise modern_api{
    "modern",
    {
        api::function(LINATTN_SIGNATURE(mlstm), {"Q", "K", "V", "f", "i"}, {"H"}),
        api::function(LINATTN_SIGNATURE(decayed_normalized_attention),
                      {"Q", "K", "V", "gamma", "gain", {"eps", 1e-6}}, {"O"}),
    }};
