// The API of exercise 5, `memory`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "memory.hpp"

// ==== API =====================================================================================

// K: (n, d_k), V: (n, d_v) -> S: (d_k, d_v); read: S, q (d_k) -> value (d_v).
static const api::Exercise memory_api{
    "memory",
    {
        api::function(LINATTN_SIGNATURE(write), {"K", "V"}, {"S"}),
        api::function(LINATTN_SIGNATURE(read), {"S", "q"}, {"value"}),
        api::function(LINATTN_SIGNATURE(crosstalk_energy), {"K"}, {"value"}),
    }};
