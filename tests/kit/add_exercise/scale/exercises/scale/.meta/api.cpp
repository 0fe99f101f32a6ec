// The API of the template exercise `scale`, described once (see grader/common/api.hpp):
// compiled into the runner harness and into the judge.
#include "common/api.hpp"
#include "scale.hpp"

// X: (n, d), factor -> scaled: (n, d).
static const api::Exercise scale_api{
    "scale",
    {
        api::function(LINATTN_SIGNATURE(scale), {"X", "factor"}, {"scaled"}),
    }};
