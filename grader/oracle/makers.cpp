#include "makers.hpp"

#include "../common/api.hpp"
#include "../common/wire.hpp"

#include <stdexcept>
#include <vector>

namespace grader {

// ---- feature-map specs -------------------------------------------------------------------

json phi_spec(const std::string& name) { return json{{"name", name}}; }

json phi_spec_random(const Matrix& Omega) {
  return json{{"name", "positive_random"}, {"Omega", wire::from_matrix(Omega)}};
}

linref::FeatureMap feature_map(const json& spec) {
  const std::string name = spec.at("name").get<std::string>();
  if (name == "elu_plus_one") return [](const Matrix& X) { return linref::elu_plus_one(X); };
  if (name == "relu") return [](const Matrix& X) { return linref::relu(X); };
  if (name == "identity") return [](const Matrix& X) { return linref::identity(X); };
  if (name == "taylor") return [](const Matrix& X) { return linref::taylor_features(X); };
  if (name == "positive_random") {
    Matrix Omega = wire::to_matrix(spec.at("Omega"));
    return [Omega](const Matrix& X) { return linref::positive_random_features(X, Omega); };
  }
  throw std::invalid_argument("unknown feature map '" + name + "'");
}

json with_feature_tables(json calls) {
  for (json& call : calls) {
    if (!call.contains("phi")) continue;
    json& spec = call["phi"];
    const std::string name = spec.at("name").get<std::string>();
    if (name != "taylor" && name != "positive_random") continue;  // the runner computes the rest
    std::vector<Matrix> parts;                                    // each (m, d_k)
    for (const char* m : {"Q", "K"})
      if (call.contains(m)) parts.push_back(wire::to_matrix(call[m]));
    for (const char* v : {"q", "k"})
      if (call.contains(v)) parts.push_back(wire::to_vector(call[v]).transpose());
    if (parts.empty()) continue;
    // The zero row too: code that calls phi on zeros to learn d_phi gets its answer.
    parts.push_back(Matrix::Zero(1, parts.front().cols()));
    Eigen::Index total = 0;
    for (const Matrix& p : parts) total += p.rows();
    Matrix rows(total, parts.front().cols());
    Eigen::Index at = 0;
    for (const Matrix& p : parts) {
      rows.middleRows(at, p.rows()) = p;
      at += p.rows();
    }
    spec["rows"] = wire::from_matrix(rows);
    spec["features"] = wire::from_matrix(feature_map(spec)(rows));
  }
  return calls;
}

// ---- seeded inputs -----------------------------------------------------------------------

Matrix random_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols, double scale) {
  return rng.normal_matrix(rows, cols) * scale;
}

Vector random_vector(linref::Rng& rng, Eigen::Index n, double scale) {
  return rng.normal_vector(n) * scale;
}

Matrix random_positive_matrix(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols, double floor,
                              double scale) {
  Matrix m = rng.normal_matrix(rows, cols);
  return (m.array().abs() * scale + floor).matrix();
}

Matrix random_rows_of_lengths(linref::Rng& rng, Eigen::Index rows, Eigen::Index cols,
                              double min_len, double max_len) {
  Matrix m = rng.unit_rows(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r) {
    const double t = rows > 1 ? static_cast<double>(r) / static_cast<double>(rows - 1) : 0.0;
    m.row(r) *= min_len + t * (max_len - min_len);
  }
  return m;
}

Eigen::Index random_size(linref::Rng& rng, Eigen::Index lo, Eigen::Index hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  return lo + static_cast<Eigen::Index>(rng.next_u64() % span);
}

}  // namespace grader

// The oracle side's answer to api.hpp: a "phi" spec becomes the reference's map, so that the
// reference functions bound through the API descriptions get the same map a runner builds.
api::FeatureMap api::feature_map(const json& spec) { return grader::feature_map(spec); }
