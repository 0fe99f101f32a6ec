// Checks of exercise 2, `causal` (35 points): the recurrent form (16), the parallel form (10)
// and the decode step (9). The two whole-sequence forms get the same correctness probes; the
// recurrent form also has the memory rule. Wrong outputs are matched against the usual
// mistakes computed here (see causal_mistakes.cpp).
//
// Every probe except the large-eps ones runs with eps = 0; the maps used are all positive, so
// no denominator is zero. Where eps goes is then the large-eps checks' one question, and an
// eps in the wrong place fails those checks alone.
#include "../common/wire.hpp"
#include "../src/check.hpp"
#include "../src/compare.hpp"
#include "causal_mistakes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grader {
namespace {

const char* kRecurrent = "causal_linear_attention_recurrent";
const char* kParallel = "causal_linear_attention_parallel";
const char* kStep = "linear_attention_step";

// ---- the two whole-sequence forms --------------------------------------------------------

struct AttnCase {
  Matrix Q, K, V;  // Q, K: (T, d_k); V: (T, d_v)
  json phi;
  double eps;
};

json attn_call(const AttnCase& c) {
  return json{{"Q", wire::from_matrix(c.Q)}, {"K", wire::from_matrix(c.K)},
              {"V", wire::from_matrix(c.V)}, {"phi", c.phi}, {"eps", c.eps}};
}

Verdict judge_attention(const std::string& function, const std::string& note,
                        const json& request, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const Matrix Q = wire::to_matrix(a.at("Q")), K = wire::to_matrix(a.at("K")),
                 V = wire::to_matrix(a.at("V"));
    const double eps = a.at("eps").get<double>();
    const linref::FeatureMap phi = feature_map(a.at("phi"));
    const Matrix expected = function == kParallel
                                ? linref::causal_linear_attention_parallel(Q, K, V, phi, eps)
                                : linref::causal_linear_attention_recurrent(Q, K, V, phi, eps);
    const Matrix got = wire::to_matrix(result_of(request, reply, i).at("O"));
    const Comparison cmp = compare_matrices(expected, got, kTight, "O", "T x d_v");
    if (cmp.ok) continue;

    const Matrix FQ = phi(Q), FK = phi(K);
    std::string tried = call_label(i, calls.size()) + function + "(Q, K: " + shape_of(Q) +
                        ", V: " + shape_of(V) + ", phi = " + describe_phi(a.at("phi")) +
                        " with d_phi = " + std::to_string(FQ.cols()) + ", eps = " + fmt(eps) + ")";
    if (!note.empty()) tried += "\n" + note;
    std::optional<std::string> mistake =
        diagnose(got, causal::sequence_suspects(FQ, FK, V, eps), kTight);
    if (!mistake && causal::shifted_by_one(expected, got, kTight))
      mistake = "the outputs are one token late: row t holds what row t-1 should. Write o_t "
                "in the same step that adds token t to the state.";
    if (!mistake && !cmp.shape_ok && got.rows() == V.cols() && got.cols() == V.rows())
      mistake = "the output is transposed; it has one row per token, (T, d_v).";
    return failure(tried, cmp.report, mistake);
  }
  return Verdict::pass();
}

Check attention_check(const char* function, const std::string& name, double points,
                      Visibility vis, std::uint64_t seed,
                      std::function<std::vector<AttnCase>(std::uint64_t)> cases,
                      std::string note = "") {
  Check c;
  c.name = name;
  c.function = function;
  c.points = points;
  c.visibility = vis;
  c.seed = seed;
  c.request = [function, cases](std::uint64_t s) {
    json calls = json::array();
    for (const AttnCase& ac : cases(s)) calls.push_back(attn_call(ac));
    return json{{"function", function}, {"calls", calls}};
  };
  c.judge = guarded([function = std::string(function), note](const json& rq, const json& rp) {
    return judge_attention(function, note, rq, rp);
  });
  return c;
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

// The probes shared by the recurrent and the parallel form. `pts` lists the points of
// hand-example, single-token, random-taylor, random-features, elu-and-relu, constant-values,
// large-eps and random-hidden, in that order.
void add_sequence_checks(std::vector<Check>& out, const char* fn, const std::string& prefix,
                         const std::vector<double>& pts) {
  out.push_back(attention_check(
      fn, prefix + "/hand-example", pts[0], Visibility::Visible, 1,
      [](std::uint64_t) { return std::vector<AttnCase>{hand_example()}; },
      "The textbook's three tokens with elu+1 and eps = 0; the exact outputs are (1, 0), "
      "(5/9, 4/9) = (0.5555555556, 0.4444444444) and (7/12, 2/3) = (0.5833333333, 0.6666666667)."));
  out.push_back(attention_check(
      fn, prefix + "/single-token", pts[1], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return std::vector<AttnCase>{random_case(rng, 1, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0)};
      },
      "With one token and eps = 0 the only key gets all the weight: O must equal V."));
  out.push_back(attention_check(
      fn, prefix + "/random-taylor", pts[2], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return std::vector<AttnCase>{random_case(rng, 9, 2, 3, phi_spec("taylor"), 0.0, 0.7)};
      },
      "Taylor features make d_phi = 7 while d_v = 3, so a transposed state cannot fit."));
  out.push_back(attention_check(
      fn, prefix + "/random-features", pts[3], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix Omega = linref::gaussian_omega(6, 3, rng);
        return std::vector<AttnCase>{random_case(rng, 8, 3, 4, phi_spec_random(Omega), 0.0, 0.5)};
      },
      "Positive random features with d_phi = 6, d_k = 3, d_v = 4."));
  out.push_back(attention_check(
      fn, prefix + "/elu-and-relu", pts[4], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        std::vector<AttnCase> cases{random_case(rng, 7, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0)};
        // relu on strictly positive queries and keys, so that no denominator is zero.
        Matrix Q = random_positive_matrix(rng, 6, 3), K = random_positive_matrix(rng, 6, 3);
        cases.push_back({Q, K, random_matrix(rng, 6, 5), phi_spec("relu"), 0.0});
        return cases;
      },
      "Call 1 uses elu+1 (d_k = 4, d_v = 3); call 2 uses relu on positive inputs (d_k = 3, "
      "d_v = 5)."));
  out.push_back(attention_check(
      fn, prefix + "/constant-values", pts[5], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        AttnCase c = random_case(rng, 10, 3, 4, phi_spec("elu_plus_one"), 0.0, 1.0);
        const Vector value = random_vector(rng, 4);
        for (Eigen::Index t = 0; t < c.V.rows(); ++t) c.V.row(t) = value.transpose();
        return std::vector<AttnCase>{c};
      },
      "Every row of V is the same vector and eps = 0. The weights of each output add up to "
      "one, so every output row must be that vector."));
  out.push_back(attention_check(
      fn, prefix + "/large-eps", pts[6], Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return std::vector<AttnCase>{random_case(rng, 6, 3, 2, phi_spec("elu_plus_one"), 10.0, 1.0)};
      },
      "eps = 10 is about as large as the denominators, so the output shows exactly how eps is used: "
      "o_t = S_t^T phi(q_t) / (z_t^T phi(q_t) + eps)."));
  out.push_back(attention_check(
      fn, prefix + "/random-hidden", pts[7], Visibility::Hidden, 17,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix Omega = linref::orthogonal_omega(20, 5, rng);
        return std::vector<AttnCase>{
            random_case(rng, 25, 3, 7, phi_spec("taylor"), 0.0, 0.6),
            random_case(rng, 30, 5, 4, phi_spec_random(Omega), 0.0, 0.4)};
      }));
}

// The memory rule: T = 4096, d_k = d_v = 64 with elu+1 (d_phi = 64).
constexpr Eigen::Index kMemT = 4096, kMemD = 64;

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d_k = kMemD, d_phi = kMemD, d_v = kMemD;
  return 2 * 8 * (2 * T * d_phi + T * d_v + T * d_k) + 4 * 8 * d_phi * d_v + (4ull << 20);
}

Check memory_check() {
  Check c = attention_check(
      kRecurrent, "recurrent/memory-budget", 2.5, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return std::vector<AttnCase>{
            random_case(rng, kMemT, kMemD, kMemD, phi_spec("elu_plus_one"), 0.0, 0.5)};
      },
      "T = 4096 tokens, d_k = d_v = 64, elu+1: the recurrent form must keep one state.");
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (2 T d_phi + T d_v + T d_k), room for phi(Q), phi(K), the output "
      "and one T x d_k array twice over, + 4 states of d_phi x d_v doubles + 4 MiB of slack = " +
      std::to_string(memory_budget()) + " bytes at T = 4096, d_k = d_phi = d_v = 64; a T x T "
      "matrix of doubles or the T states of the cumulative-sum form (128 MiB each) is over 6 "
      "times that";
  c.limits.address_space_bytes = 1ull << 30;
  c.limits.wall_seconds = 10.0;
  return c;
}

// ---- the decode step ---------------------------------------------------------------------

struct StepCase {
  Matrix S;  // (d_phi, d_v)
  Vector z;  // (d_phi)
  Vector q, k, v;
  json phi;
  double eps;
};

json step_call(const StepCase& c) {
  return json{{"S", wire::from_matrix(c.S)}, {"z", wire::from_vector(c.z)},
              {"q", wire::from_vector(c.q)}, {"k", wire::from_vector(c.k)},
              {"v", wire::from_vector(c.v)}, {"phi", c.phi}, {"eps", c.eps}};
}

Vector features_of(const linref::FeatureMap& phi, const Vector& x) {
  return phi(x.transpose()).row(0).transpose();
}

Verdict judge_step(const std::string& note, const json& request, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const Matrix S = wire::to_matrix(a.at("S"));
    const Vector z = wire::to_vector(a.at("z")), q = wire::to_vector(a.at("q")),
                 k = wire::to_vector(a.at("k")), v = wire::to_vector(a.at("v"));
    const double eps = a.at("eps").get<double>();
    const linref::FeatureMap phi = feature_map(a.at("phi"));
    const linref::DecodeStep ref = linref::linear_attention_step(S, z, q, k, v, phi, eps);
    const json& r = result_of(request, reply, i);
    const Vector got_o = wire::to_vector(r.at("o")), got_z = wire::to_vector(r.at("z"));
    const Matrix got_S = wire::to_matrix(r.at("S"));

    const causal::StepSuspects sus =
        causal::step_suspects(S, z, features_of(phi, q), features_of(phi, k), k, v, eps);
    std::string report;
    std::optional<std::string> mistake;
    auto part = [&](const Comparison& cmp, const Matrix& got, const std::vector<Suspect>& s) {
      if (cmp.ok) return;
      report += (report.empty() ? "" : "\n") + cmp.report;
      if (!mistake) mistake = diagnose(got, s, kTight);
    };
    part(compare_vectors(ref.o, got_o, kTight, "o", "d_v"), Matrix(got_o), sus.o);
    part(compare_matrices(ref.S, got_S, kTight, "S", "d_phi x d_v"), got_S, sus.S);
    part(compare_vectors(ref.z, got_z, kTight, "z", "d_phi"), Matrix(got_z), sus.z);
    if (report.empty()) continue;
    std::string tried = call_label(i, calls.size()) + kStep + "(S: " + shape_of(S) +
                        ", z: " + std::to_string(z.size()) + ", q, k: " +
                        std::to_string(q.size()) + ", v: " + std::to_string(v.size()) +
                        ", phi = " + describe_phi(a.at("phi")) + ", eps = " + fmt(eps) + ")";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, report, mistake);
  }
  return Verdict::pass();
}

Check step_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                 std::function<std::vector<StepCase>(std::uint64_t)> cases, std::string note) {
  Check c;
  c.name = name;
  c.function = kStep;
  c.points = points;
  c.visibility = vis;
  c.seed = seed;
  c.request = [cases](std::uint64_t s) {
    json calls = json::array();
    for (const StepCase& sc : cases(s)) calls.push_back(step_call(sc));
    return json{{"function", kStep}, {"calls", calls}};
  };
  c.judge = guarded([note](const json& rq, const json& rp) { return judge_step(note, rq, rp); });
  return c;
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

void add_step_checks(std::vector<Check>& out) {
  out.push_back(step_check(
      "step/from-zero", 2.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        std::vector<StepCase> cases{step_after(rng, 0, 4, 3, phi_spec("elu_plus_one"), 0.0, 1.0),
                                    step_after(rng, 0, 2, 3, phi_spec("taylor"), 0.0, 0.8)};
        return cases;
      },
      "From the zero state with eps = 0, the step must return o = v, S = phi(k) v^T and "
      "z = phi(k)."));
  out.push_back(step_check(
      "step/reproduces-recurrent", 3.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
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
          const Vector q = Q.row(t).transpose(), k = K.row(t).transpose(),
                       v = V.row(t).transpose();
          cases.push_back({S, z, q, k, v, phi_json, 0.0});
          const linref::DecodeStep next = linref::linear_attention_step(S, z, q, k, v, phi, 0.0);
          S = next.S;
          z = next.z;
        }
        return cases;
      },
      "Eight tokens decoded one at a time with Taylor features (d_phi = 7, d_v = 3). Call t "
      "is given the reference's state after t-1 tokens; its o is row t of the recurrent form's "
      "output."));
  out.push_back(step_check(
      "step/unequal-sizes", 2.0, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        const Matrix Omega = linref::gaussian_omega(9, 3, rng);
        return std::vector<StepCase>{step_after(rng, 5, 3, 4, phi_spec_random(Omega), 0.0, 0.5)};
      },
      "A state after 5 tokens with d_phi = 9 and d_v = 4: S must stay (d_phi, d_v)."));
  out.push_back(step_check(
      "step/large-eps", 1.5, Visibility::Visible, 1,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        return std::vector<StepCase>{step_after(rng, 3, 3, 2, phi_spec("elu_plus_one"), 10.0, 1.0)};
      },
      "eps = 10, so o = S_t^T phi(q_t) / (z_t^T phi(q_t) + 10) visibly differs from any other "
      "placement of eps."));
  out.push_back(step_check(
      "step/random-hidden", 0.5, Visibility::Hidden, 19,
      [](std::uint64_t s) {
        linref::Rng rng(s);
        std::vector<StepCase> cases;
        for (int i = 0; i < 3; ++i)
          cases.push_back(step_after(rng, 6 + i, 3, 5, phi_spec("taylor"), 0.0, 0.6));
        return cases;
      },
      ""));
}

std::vector<Check> make_causal_checks() {
  std::vector<Check> checks;
  // recurrent: 13.5 here + 2.5 for the memory rule = 16.
  add_sequence_checks(checks, kRecurrent, "recurrent", {3, 1, 2.5, 2, 1.5, 1.5, 1.5, 0.5});
  checks.push_back(memory_check());
  // parallel: 10.
  add_sequence_checks(checks, kParallel, "parallel", {2, 1, 2, 1.5, 1, 1, 1, 0.5});
  // step: 9.
  add_step_checks(checks);
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar causal_registrar{
    "causal",
    {"causal_linear_attention_recurrent", "causal_linear_attention_parallel",
     "linear_attention_step"},
    grader::make_causal_checks};
