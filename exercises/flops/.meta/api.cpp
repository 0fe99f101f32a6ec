// The API of exercise 1, `flops`, described once (see grader/common/api.hpp): compiled
// into the runner harness, where it binds the student's functions, and into the judge, where
// it is the schema of requests and replies.
#include "common/api.hpp"
#include "flops.hpp"

// ==== API =====================================================================================

namespace api {
template <>
struct EnumNames<linattn::Order> {
  static std::vector<std::pair<std::string, linattn::Order>> get() {
    return {{"left", linattn::Order::Left}, {"right", linattn::Order::Right}};
  }
};
}  // namespace api

static const api::Exercise flops_api{
    "flops",
    {
        api::function(LINATTN_SIGNATURE(attention_flops), {"T", "d_phi", "d_v", "order"},
                      {"value"}),
        api::function(LINATTN_SIGNATURE(crossover_T), {"d_phi", "d_v"}, {"value"}),
    }};
