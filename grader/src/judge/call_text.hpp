// What a check tried, said the way a failed comparison says it: the function's arguments in
// the order of its signature, matrices by shape, vectors by length, numbers by value, and,
// when the request holds several calls, which one the runner was in (when its reply says) or
// the calls it may have been in. Used for the messages of checks that crash, run out of time
// or memory, or throw, where no judge has looked at the results.
#pragma once

#include "../../common/api.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace grader {

// One call's arguments, as "Q: 4 x 3, K: 4 x 3, V: 4 x 2, phi = elu_plus_one, eps = 1e-06":
// in the schema's order, a left-out argument with its default.
std::string call_arguments(const api::Schema& schema, const api::json& call);

// "Tried: f(...), seed 7." for a request of one call. For several: with `call` known (the
// reply names the call that threw or ran out of memory), "Tried: f(...), call 3 of 5, seed 7.";
// otherwise every call, runs of calls with the same arguments as one line ("calls 2-40: ...").
std::string tried_text(const api::Schema& schema, const api::json& request, std::uint64_t seed,
                       std::optional<std::size_t> call = std::nullopt);

}  // namespace grader
