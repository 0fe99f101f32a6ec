// The feature maps a request names, as a judge's message names them. Exercise knowledge (which
// maps the kit's exercises use), so it sits with the checks rather than in the generic
// comparison code. Judge side: no reference needed.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace grader {

// In a request, phi is {"name": "elu_plus_one" | "relu" | "identity" | "taylor"} or
// {"name": "positive_random", "Omega": <matrix>} (see grader/common/wire.hpp).
// Returns "elu+1", "Taylor features", "positive random features with Omega 4 x 2", ...
std::string describe_phi(const nlohmann::json& spec);

}  // namespace grader
