// What the oracle halves of the checks share: the feature-map specs of a request and the
// reference's map for each, and seeded input makers. Oracle side only: this calls the
// reference, and the student hand-out has neither it nor this folder.
#pragma once

#include "../src/judge/compare.hpp"

#include <linref/linref.hpp>

namespace grader {

// ---- feature-map specs -------------------------------------------------------------------
// {"name": "elu_plus_one" | "relu" | "identity" | "taylor"} or
// {"name": "positive_random", "Omega": <matrix>}; the reference builds the same map.

json phi_spec(const std::string& name);
json phi_spec_random(const Matrix& Omega);
linref::FeatureMap feature_map(const json& spec);  // throws std::invalid_argument on a bad spec

// Adds to every call's Taylor or random-feature "phi" spec a table of the features of the rows
// the student's code may apply it to (Q and K, or q and k): {"rows": M, "features": F}. The
// runner then looks features up instead of computing them, so it never contains the code of
// exercises 3 and 4 (the student hand-out ships the runner's source).
json with_feature_tables(json calls);

// ---- seeded inputs -----------------------------------------------------------------------

Matrix random_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols, double scale = 1.0);
Vector random_vector(linref::Rng& rng, Eigen::Index n, double scale = 1.0);
// Entries |N(0, 1)| * scale + floor: strictly positive.
Matrix random_positive_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols,
                              double floor = 0.1, double scale = 1.0);
// Rows in random directions with lengths spread evenly over [min_len, max_len].
Matrix random_rows_of_lengths(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols,
                              double min_len, double max_len);
// A random size in [lo, hi].
Eigen::Index random_size(linref::Rng& rng, Eigen::Index lo, Eigen::Index hi);

}  // namespace grader
