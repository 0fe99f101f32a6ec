// The API of exercise 2, `causal`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "../../common/api.hpp"
#include "causal.hpp"

// ==== API =====================================================================================

namespace api {
template <>
struct Fields<linattn::DecodeStep> {
  static auto of(const linattn::DecodeStep& s) { return std::tie(s.o, s.S, s.z); }
};
}  // namespace api

// Q, K: (T, d_k); V: (T, d_v) -> O: (T, d_v).  Step: S (d_phi, d_v), z (d_phi), q, k (d_k), v
// (d_v).
static const api::Exercise causal_api{
    "causal",
    {
        api::function(LINATTN_SIGNATURE(causal_linear_attention_recurrent),
                      {"Q", "K", "V", "phi", {"eps", 1e-6}}, {"O"}),
        api::function(LINATTN_SIGNATURE(causal_linear_attention_parallel),
                      {"Q", "K", "V", "phi", {"eps", 1e-6}}, {"O"}),
        api::function(LINATTN_SIGNATURE(linear_attention_step),
                      {"S", "z", "q", "k", "v", "phi", {"eps", 1e-6}}, {"o", "S", "z"}),
    }};
