// The feature maps a request can hand to the student's code, built from its "phi" spec (see
// wire.hpp). The runner's own small copies: the reference library is the judge's and is never
// linked into a runner, so these are written again here from the formulas.
#pragma once

#include "linattn.hpp"

#include <nlohmann/json.hpp>

namespace runner {

// {"name": "elu_plus_one" | "relu" | "identity" | "taylor"} or
// {"name": "positive_random", "Omega": <matrix (d_phi, d_k)>}. Throws std::invalid_argument
// for anything else (a fault of the request, reported as harness_error).
linattn::FeatureMap feature_map_from_spec(const nlohmann::json& spec);

}  // namespace runner
