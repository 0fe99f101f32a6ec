// The API of exercise 3, `random_features`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "random_features.hpp"

// ==== API =====================================================================================

// X: (n, d_k), Omega: (d_phi, d_k) -> features: (n, d_phi).
static const api::Exercise random_features_api{
    "random_features",
    {
        api::function(LINATTN_SIGNATURE(positive_random_features), {"X", "Omega"}, {"features"}),
        api::function(LINATTN_SIGNATURE(softmax_kernel_estimate), {"q", "k", "Omega"}, {"value"}),
    }};
