// Oracle half of the `causal` checks (judge half: grader/checks/causal.cpp): the inputs of
// each check, and per call the reference's outputs with the outputs of the usual mistakes.
#include "../common/wire.hpp"
#include "../src/oracle_half.hpp"
#include "causal_mistakes.hpp"
#include "makers.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

// ---- the two whole-sequence forms --------------------------------------------------------

struct AttnCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  json phi;
  double eps;
};

json attn_calls(const std::vector<AttnCase>& cases) {
  json calls = json::array();
  for (const AttnCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)}, {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)}, {"phi", c.phi}, {"eps", c.eps}});
  return calls;
}

CallExpect expect_attention(bool parallel) {
  return [parallel](const json& a) {
    const Matrix Q = wire::to_matrix(a.at("Q")), K = wire::to_matrix(a.at("K")),
                 V = wire::to_matrix(a.at("V"));
    const double eps = a.at("eps").get<double>();
    const linref::FeatureMap phi = feature_map(a.at("phi"));
    const Matrix O = parallel ? linref::causal_linear_attention_parallel(Q, K, V, phi, eps)
                              : linref::causal_linear_attention_recurrent(Q, K, V, phi, eps);
    const Matrix FQ = phi(Q), FK = phi(K);
    return json{{"O", wire::from_matrix(O)},
                {"d_phi", FQ.cols()},
                {"suspects", suspects_json(causal::sequence_suspects(
                     FQ, FK, V, eps, parallel ? causal::Form::Parallel : causal::Form::Recurrent))}};
  };
}

AttnCase hand_example() {
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;
  return {Q, K, V, phi_spec("elu_plus_one"), 0.0};
}

AttnCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v,
                     json phi, double eps, double scale) {
  Matrix Q = random_matrix(rng, T, d_k, scale), K = random_matrix(rng, T, d_k, scale);
  return {Q, K, random_matrix(rng, T, d_v), std::move(phi), eps};
}

// The inputs shared by the recurrent and the parallel form's probes.
void add_sequence_calls(OracleTable& t, const std::string& prefix) {
  t.calls[prefix + "/hand-example"] = [](std::uint64_t) { return attn_calls({hand_example()}); };
  t.calls[prefix + "/single-token"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    return attn_calls({random_case(rng, 1, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0)});
  };
  t.calls[prefix + "/random-taylor"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    return attn_calls({random_case(rng, 9, 2, 3, phi_spec("taylor"), 0.0, 0.7)});
  };
  t.calls[prefix + "/random-features"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    const Matrix Omega = linref::gaussian_omega(6, 3, rng);
    return attn_calls({random_case(rng, 8, 3, 4, phi_spec_random(Omega), 0.0, 0.5)});
  };
  t.calls[prefix + "/elu-and-relu"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    std::vector<AttnCase> cases{random_case(rng, 7, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0)};
    // relu on strictly positive queries and keys, so that no denominator is zero.
    Matrix Q = random_positive_matrix(rng, 6, 3), K = random_positive_matrix(rng, 6, 3);
    cases.push_back({Q, K, random_matrix(rng, 6, 5), phi_spec("relu"), 0.0});
    return attn_calls(cases);
  };
  t.calls[prefix + "/constant-values"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    AttnCase c = random_case(rng, 10, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0);
    const Vector value = random_vector(rng, 4);
    for (Eigen::Index t = 0; t < c.V.rows(); ++t) c.V.row(t) = value.transpose();
    return attn_calls({c});
  };
  t.calls[prefix + "/large-eps"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    return attn_calls({random_case(rng, 6, 3, 2, phi_spec("elu_plus_one"), 10.0, 1.0)});
  };
  t.calls[prefix + "/random-hidden"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    const Matrix Omega = linref::orthogonal_omega(20, 5, rng);
    return attn_calls({random_case(rng, 25, 3, 7, phi_spec("taylor"), 0.0, 0.6),
                       random_case(rng, 30, 5, 4, phi_spec_random(Omega), 0.0, 0.4)});
  };
}

// ---- the decode step ---------------------------------------------------------------------

struct StepCase {
  Matrix S;  // (d_phi, d_v)
  Vector z;  // (d_phi)
  Vector q, k, v;
  json phi;
  double eps;
};

json step_calls(const std::vector<StepCase>& cases) {
  json calls = json::array();
  for (const StepCase& c : cases)
    calls.push_back(json{{"S", wire::from_matrix(c.S)}, {"z", wire::from_vector(c.z)},
                         {"q", wire::from_vector(c.q)}, {"k", wire::from_vector(c.k)},
                         {"v", wire::from_vector(c.v)}, {"phi", c.phi}, {"eps", c.eps}});
  return calls;
}

Vector features_of(const linref::FeatureMap& phi, const Vector& x) {
  return phi(x.transpose()).row(0).transpose();
}

json expect_step(const json& a) {
  const Matrix S = wire::to_matrix(a.at("S"));
  const Vector z = wire::to_vector(a.at("z")), q = wire::to_vector(a.at("q")),
               k = wire::to_vector(a.at("k")), v = wire::to_vector(a.at("v"));
  const double eps = a.at("eps").get<double>();
  const linref::FeatureMap phi = feature_map(a.at("phi"));
  const linref::DecodeStep ref = linref::linear_attention_step(S, z, q, k, v, phi, eps);
  const causal::StepSuspects sus =
      causal::step_suspects(S, z, features_of(phi, q), features_of(phi, k), k, v, eps);
  return json{{"o", wire::from_vector(ref.o)},
              {"S", wire::from_matrix(ref.S)},
              {"z", wire::from_vector(ref.z)},
              {"suspects", {{"o", suspects_json(sus.o)}, {"S", suspects_json(sus.S)},
                            {"z", suspects_json(sus.z)}}}};
}

// The reference state after `n` random tokens, then one more token to decode.
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
  return {S, z, random_vector(rng, d_k, scale), random_vector(rng, d_k, scale),
          random_vector(rng, d_v), std::move(phi_json), eps};
}

void add_step_calls(OracleTable& t) {
  t.calls["step/from-zero"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    std::vector<StepCase> cases{step_after(rng, 0, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0),
                                step_after(rng, 0, 2, 3, phi_spec("taylor"), 0.0, 0.8)};
    return step_calls(cases);
  };
  t.calls["step/reproduces-recurrent"] = [](std::uint64_t s) {
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
  };
  t.calls["step/unequal-sizes"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    const Matrix Omega = linref::gaussian_omega(9, 3, rng);
    return step_calls({step_after(rng, 5, 3, 4, phi_spec_random(Omega), 0.0, 0.5)});
  };
  t.calls["step/large-eps"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    return step_calls({step_after(rng, 3, 3, 2, phi_spec("elu_plus_one"), 10.0, 1.0)});
  };
  t.calls["step/random-hidden"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    std::vector<StepCase> cases;
    for (int i = 0; i < 3; ++i) cases.push_back(step_after(rng, 6 + i, 3, 5, phi_spec("taylor"), 0.0, 0.6));
    return step_calls(cases);
  };
}

OracleTable make_causal_oracle() {
  OracleTable t;
  t.by_function["causal_linear_attention_recurrent"] = expect_attention(false);
  t.by_function["causal_linear_attention_parallel"] = expect_attention(true);
  t.by_function["linear_attention_step"] = expect_step;
  add_sequence_calls(t, "recurrent");
  add_sequence_calls(t, "parallel");
  // The memory rule's sizes (T = 8192, d_k = d_v = 64) are stated in the judge half's table.
  t.calls["recurrent/memory-budget"] = [](std::uint64_t s) {
    linref::Rng rng(s);
    return attn_calls({random_case(rng, 8192, 64, 64, phi_spec("elu_plus_one"), 0.0, 0.5)});
  };
  add_step_calls(t);
  // The runner gets Taylor and random features as tables (see with_feature_tables).
  for (auto& [name, maker] : t.calls)
    maker = [make = maker](std::uint64_t seed) { return with_feature_tables(make(seed)); };
  return t;
}

}  // namespace
}  // namespace grader

static grader::OracleRegistrar causal_oracle{"causal", grader::make_causal_oracle};
