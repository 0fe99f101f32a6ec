// The feature maps a request can hand to the student's code, built from its "phi" spec (see
// wire.hpp). The runner's own small copies: the reference library is the judge's and is never
// linked into a runner, so these are written again here from the formulas.
#pragma once

#include "linattn.hpp"

#include <nlohmann/json.hpp>

namespace runner {

// {"name": "elu_plus_one" | "relu" | "identity"}, computed here; or any spec with a table
// {"rows": <matrix (m, d_k)>, "features": <matrix (m, d_phi)>} (Taylor and random features),
// looked up row by row. Throws std::invalid_argument for anything else (a fault of the
// request, reported as harness_error).
linattn::FeatureMap feature_map_from_spec(const nlohmann::json& spec);

}  // namespace runner
