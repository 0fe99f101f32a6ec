// The API of exercise 2, `causal`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "causal.hpp"

// ==== API =====================================================================================

namespace api {
template <>
struct Fields<linattn::DecodeStep> {
  static auto of(const linattn::DecodeStep& s) { return std::tie(s.o, s.S, s.z); }
};
}  // namespace api

// The default of every eps argument, as causal.hpp declares it.
constexpr double kDefaultEps = 1e-6;

// Both forms map Q, K (T x d_k) and V (T x d_v) to O (T x d_v). One decode step takes the
// state S (d_phi x d_v), the normalizer z (d_phi) and one token's q, k (d_k) and v (d_v).
static const api::Exercise causal_api{
    "causal",
    {
        api::function(LINATTN_SIGNATURE(causal_linear_attention_recurrent),
                      {"Q", "K", "V", "phi", {"eps", kDefaultEps}}, {"O"}),
        api::function(LINATTN_SIGNATURE(causal_linear_attention_parallel),
                      {"Q", "K", "V", "phi", {"eps", kDefaultEps}}, {"O"}),
        api::function(LINATTN_SIGNATURE(linear_attention_step),
                      {"S", "z", "q", "k", "v", "phi", {"eps", kDefaultEps}}, {"o", "S", "z"}),
    }};
