// The API of exercise 7, `backward`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "backward.hpp"

// ==== API =====================================================================================

namespace api {
template <>
struct Fields<linattn::AttentionGrads> {
  static auto of(const linattn::AttentionGrads& g) { return std::tie(g.dFQ, g.dFK, g.dV); }
};
}  // namespace api

// FQ, FK: (T, d_phi); V, dO: (T, d_v) -> dFQ, dFK: (T, d_phi), dV: (T, d_v).
static const api::Exercise backward_api{
    "backward",
    {
        api::function(LINATTN_SIGNATURE(causal_linear_attention_backward),
                      {"FQ", "FK", "V", "dO", {"eps", 1e-6}}, {"dFQ", "dFK", "dV"}),
    }};
