#include "probes.hpp"

#include "common/wire.hpp"

namespace grader::causal {
namespace {

AttnCase hand_example() {
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;
  return {Q, K, V, phi_spec("elu_plus_one"), 0.0};
}

}  // namespace

// ---- the two whole-sequence forms --------------------------------------------------------

json attn_calls(const std::vector<AttnCase>& cases) {
  json calls = json::array();
  for (const AttnCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)},
                         {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)},
                         {"phi", c.phi},
                         {"eps", c.eps}});
  return with_feature_tables(std::move(calls));
}

AttnCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v, json phi,
                     double eps, double scale) {
  Matrix Q = random_matrix(rng, T, d_k, scale), K = random_matrix(rng, T, d_k, scale);
  return {Q, K, random_matrix(rng, T, d_v), std::move(phi), eps};
}

// The calls of each probe, the same for both forms.
json calls_hand_example(std::uint64_t) { return attn_calls({hand_example()}); }
json calls_single_token(std::uint64_t s) {
  linref::Rng rng(s);
  return attn_calls({random_case(rng, 1, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0)});
}
json calls_random_taylor(std::uint64_t s) {
  linref::Rng rng(s);
  return attn_calls({random_case(rng, 9, 2, 3, phi_spec("taylor"), 0.0, 0.7)});
}
json calls_random_features(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix Omega = linref::gaussian_omega(6, 3, rng);
  return attn_calls({random_case(rng, 8, 3, 4, phi_spec_random(Omega), 0.0, 0.5)});
}
json calls_elu_and_relu(std::uint64_t s) {
  linref::Rng rng(s);
  std::vector<AttnCase> cases{random_case(rng, 7, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0)};
  // relu on strictly positive queries and keys, so that no denominator is zero.
  Matrix Q = random_positive_matrix(rng, 6, 3), K = random_positive_matrix(rng, 6, 3);
  cases.push_back({Q, K, random_matrix(rng, 6, 5), phi_spec("relu"), 0.0});
  return attn_calls(cases);
}
json calls_constant_values(std::uint64_t s) {
  linref::Rng rng(s);
  AttnCase c = random_case(rng, 10, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0);
  const Vector value = random_vector(rng, 4);
  for (Eigen::Index t = 0; t < c.V.rows(); ++t) c.V.row(t) = value.transpose();
  return attn_calls({c});
}
json calls_random_hidden(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix Omega = linref::orthogonal_omega(20, 5, rng);
  return attn_calls({random_case(rng, 25, 3, 7, phi_spec("taylor"), 0.0, 0.6),
                     random_case(rng, 30, 5, 4, phi_spec_random(Omega), 0.0, 0.4)});
}

// ---- the decode step ---------------------------------------------------------------------

json step_calls(const std::vector<StepCase>& cases) {
  json calls = json::array();
  for (const StepCase& c : cases)
    calls.push_back(json{{"S", wire::from_matrix(c.S)},
                         {"z", wire::from_vector(c.z)},
                         {"q", wire::from_vector(c.q)},
                         {"k", wire::from_vector(c.k)},
                         {"v", wire::from_vector(c.v)},
                         {"phi", c.phi},
                         {"eps", c.eps}});
  return with_feature_tables(std::move(calls));
}

Vector features_of(const linref::FeatureMap& phi, const Vector& x) {
  return phi(x.transpose()).row(0).transpose();
}

StepCase step_after(linref::Rng& rng, Eigen::Index n, Eigen::Index d_k, Eigen::Index d_v,
                    json phi_json, double eps, double scale) {
  const linref::FeatureMap phi = feature_map(phi_json);
  const Eigen::Index d_phi = phi(Matrix::Zero(1, d_k)).cols();
  Matrix S = Matrix::Zero(d_phi, d_v);
  Vector z = Vector::Zero(d_phi);
  for (Eigen::Index t = 0; t < n; ++t) {
    const Vector kt = random_vector(rng, d_k, scale), vt = random_vector(rng, d_v);
    const Vector fk = features_of(phi, kt);
    S += fk * vt.transpose();
    z += fk;
  }
  return {S,
          z,
          random_vector(rng, d_k, scale),
          random_vector(rng, d_k, scale),
          random_vector(rng, d_v),
          std::move(phi_json),
          eps};
}

json calls_step_from_zero(std::uint64_t s) {
  linref::Rng rng(s);
  std::vector<StepCase> cases{step_after(rng, 0, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0),
                              step_after(rng, 0, 2, 3, phi_spec("taylor"), 0.0, 0.8)};
  return step_calls(cases);
}
json calls_step_reproduces_recurrent(std::uint64_t s) {
  linref::Rng rng(s);
  const json phi_json = phi_spec("taylor");
  const linref::FeatureMap phi = feature_map(phi_json);
  const Eigen::Index T = 8, d_k = 2, d_v = 3, d_phi = 7;
  const Matrix Q = random_matrix(rng, T, d_k, 0.7), K = random_matrix(rng, T, d_k, 0.7),
               V = random_matrix(rng, T, d_v);
  Matrix S = Matrix::Zero(d_phi, d_v);
  Vector z = Vector::Zero(d_phi);
  std::vector<StepCase> cases;
  for (Eigen::Index t = 0; t < T; ++t) {
    const Vector q = Q.row(t).transpose(), k = K.row(t).transpose(), v = V.row(t).transpose();
    cases.push_back({S, z, q, k, v, phi_json, 0.0});
    const linref::DecodeStep next = linref::linear_attention_step(S, z, q, k, v, phi, 0.0);
    S = next.S;
    z = next.z;
  }
  return step_calls(cases);
}
json calls_step_unequal_sizes(std::uint64_t s) {
  linref::Rng rng(s);
  const Matrix Omega = linref::gaussian_omega(9, 3, rng);
  return step_calls({step_after(rng, 5, 3, 4, phi_spec_random(Omega), 0.0, 0.5)});
}
json calls_step_random_hidden(std::uint64_t s) {
  linref::Rng rng(s);
  std::vector<StepCase> cases;
  for (int i = 0; i < 3; ++i)
    cases.push_back(step_after(rng, 6 + i, 3, 5, phi_spec("taylor"), 0.0, 0.6));
  return step_calls(cases);
}

}  // namespace grader::causal
