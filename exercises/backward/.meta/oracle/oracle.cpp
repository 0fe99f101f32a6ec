// The oracle of exercise 7, `backward`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "checks/shared/time_rule.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "mistakes.hpp"
#include "oracle/makers.hpp"
#include "probes.hpp"
#include <linref/gradients.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace api {
template <>
struct Fields<linref::LinearAttentionGrads> {
  static auto of(const linref::LinearAttentionGrads& g) { return std::tie(g.dQ, g.dK, g.dV); }
};
}  // namespace api
static const api::References backward_reference{
    api::reference("causal_linear_attention_backward", &linref::causal_grad_running_features),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================
// The two passes with their slips are in oracle/mistakes.*, and most checks'
// calls are made in oracle/probes.*; here, what each slip is called when the
// judge names it, the central differences, and the memory rule's probe, beside its sizes.
using namespace backward;

json grad_suspects(const Matrix& FQ, const Matrix& FK, const Matrix& V, const Matrix& dO,
                   double eps) {
  std::vector<Suspect> dFQ, dFK, dV;
  auto add = [&](const std::string& text, const Slip& slip) {
    const Grads g = two_pass(FQ, FK, V, dO, eps, slip);
    dFQ.push_back({text, g.dFQ});
    dFK.push_back({text, g.dFK});
    dV.push_back({text, g.dV});
  };
  Slip s;
  s.no_normalizer = true;
  add("the normalizer's derivative is left out. o_t = N_t / D_t depends on FQ_t and on every "
      "FK_s (s <= t) through the denominator D_t = z_t . FQ_t + eps too; dL/dD_t = -(dO_t . o_t) / "
      "D_t "
      "adds w_t z_t to dFQ_t and the sum of w_t FQ_t over t >= s to dFK_s.",
      s);
  // Each part names its own missing term only: a dFQ that is right must not be sent for a fix.
  const std::string denominator = "the normalizer's derivative is left out of ";
  dFQ.back().mistake =
      denominator +
      "dFQ. o_t = N_t / D_t depends on FQ_t through the denominator "
      "D_t = z_t . FQ_t + eps too; dL/dD_t = -(dO_t . o_t) / D_t adds w_t z_t to dFQ_t.";
  dFK.back().mistake =
      denominator +
      "dFK. o_t = N_t / D_t depends on every FK_s (s <= t) through the "
      "denominator D_t = z_t . FQ_t + eps too; dL/dD_t = -(dO_t . o_t) / D_t adds the sum "
      "of w_t FQ_t over t >= s to dFK_s.";
  // dV_s sums (FQ_t . FK_s / D_t) dO_t: the normalizer's derivative w_t never reaches it, so this
  // slip's dV is the right one and no dV can be diagnosed by it.
  dV.pop_back();
  s = Slip{};
  s.normalizer_sign = true;
  add("the normalizer's term has the wrong sign: the derivative of 1/D is -1/D^2, so "
      "dL/dD_t = -(dO_t . o_t) / D_t.",
      s);
  s = Slip{};
  s.forward_reversed = true;
  add("the sums for dFQ run the wrong way in time: query t saw the keys s <= t, so dFQ_t needs the "
      "prefix sums S_t, z_t of the forward pass, not the sums over s >= t.",
      s);
  s = Slip{};
  s.backward_reversed = true;
  add("the sums for dFK and dV run the wrong way in time: key s is read by the queries t >= s, so "
      "they need sums over later tokens, built backward from t = T; these are sums over t <= s.",
      s);
  s = Slip{};
  s.strict_backward = true;
  add("a strict inequality where t >= s is meant: the sums for dFK_s and dV_s leave out t = s, "
      "yet query s reads key s (every token is part of its own output). Add token s to the "
      "backward sums before using them.",
      s);
  s = Slip{};
  s.strict_forward = true;
  add("a strict inequality where s <= t is meant: dFQ_t uses the state before token t (S_{t-1}, "
      "z_{t-1}), yet query t reads key t too. Add token t to S and z before using them.",
      s);
  if (FQ.cols() == V.cols()) {
    s = Slip{};
    s.transposed = true;
    add("a state is used transposed (S^T u_t for dFQ, R^T v_s for dFK, R FK_s for dV); with "
        "d_phi = d_v the shapes fit either way.",
        s);
  }
  if (eps != 0.0) {
    s = Slip{};
    s.eps_times = 0;
    add("eps is left out of the denominator D_t = z_t . FQ_t + eps in the gradients; the forward "
        "pass that dO belongs to has it.",
        s);
  }
  const Grads right = two_pass(FQ, FK, V, dO, eps, Slip{});
  const std::string swapped =
      "dFQ and dFK are swapped: dFQ is the gradient for the queries' "
      "features FQ (running sums forward in time), dFK for the keys' "
      "features FK (sums backward in time).";
  dFQ.push_back({swapped, right.dFK});
  dFK.push_back({swapped, right.dFQ});
  return json{{"dFQ", suspects_json(dFQ)}, {"dFK", suspects_json(dFK)}, {"dV", suspects_json(dV)}};
}

json grads_json(const Matrix& dFQ, const Matrix& dFK, const Matrix& dV) {
  return json{{"dFQ", wire::from_matrix(dFQ)},
              {"dFK", wire::from_matrix(dFK)},
              {"dV", wire::from_matrix(dV)}};
}

json expect_backward(const json& a) {
  const Matrix FQ = wire::to_matrix(a.at("FQ")), FK = wire::to_matrix(a.at("FK")),
               V = wire::to_matrix(a.at("V")), dO = wire::to_matrix(a.at("dO"));
  const double eps = a.at("eps").get<double>();
  json out = api::call_reference(kBackward, a);
  out["suspects"] =
      FQ.rows() <= kMaxSuspectTokens
          ? grad_suspects(FQ, FK, V, dO, eps)
          : json{{"dFQ", json::array()}, {"dFK", json::array()}, {"dV", json::array()}};
  return out;
}

// dL/dX by central differences of the reference's forward pass, L = sum(O .* dO).
constexpr double kStep = 1e-5;
Matrix central(Matrix FQ, Matrix FK, Matrix V, const Matrix& dO, double eps, int which) {
  Matrix* args[3] = {&FQ, &FK, &V};
  Matrix& X = *args[which];
  auto loss = [&] {
    return linref::causal_recurrent_from_features(FQ, FK, V, eps).cwiseProduct(dO).sum();
  };
  Matrix D(X.rows(), X.cols());
  for (Eigen::Index i = 0; i < X.size(); ++i) {
    const double keep = X(i);
    X(i) = keep + kStep;
    const double up = loss();
    X(i) = keep - kStep;
    const double down = loss();
    X(i) = keep;
    D(i) = (up - down) / (2 * kStep);
  }
  return D;
}

json expect_central(const json& a) {
  const Matrix FQ = wire::to_matrix(a.at("FQ")), FK = wire::to_matrix(a.at("FK")),
               V = wire::to_matrix(a.at("V")), dO = wire::to_matrix(a.at("dO"));
  const double eps = a.at("eps").get<double>();
  const Matrix dFQ = central(FQ, FK, V, dO, eps, 0), dFK = central(FQ, FK, V, dO, eps, 1),
               dV = central(FQ, FK, V, dO, eps, 2);
  const linref::LinearAttentionGrads ref = linref::causal_grad_running_features(FQ, FK, V, dO, eps);
  const double agreement =
      std::max({(ref.dQ - dFQ).cwiseAbs().maxCoeff(), (ref.dK - dFK).cwiseAbs().maxCoeff(),
                (ref.dV - dV).cwiseAbs().maxCoeff()});
  json out = grads_json(dFQ, dFK, dV);
  out["agreement"] = agreement;
  out["suspects"] = grad_suspects(FQ, FK, V, dO, eps);
  return out;
}

json calls_memory(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, kMemT, kMemD, kMemD, 0.0)});
}

OracleTable make_backward_oracles() {
  return {
      {"backward/single-token", {calls_single_token, expect_backward}},
      {"backward/hand-example", {calls_hand_example, expect_backward}},
      {"backward/constant-values", {calls_constant_values, expect_backward}},
      {"backward/random", {calls_random, expect_backward}},
      {"backward/central-differences", {calls_central, expect_central}},
      {"backward/square-state", {calls_square_state, expect_backward}},
      {"backward/large-eps", {calls_large_eps, expect_backward}},
      {"backward/memory-budget", {calls_memory, expect_backward}},
      {"backward/random-hidden", {calls_random_hidden, expect_backward}},
      {"backward/linear-time", time_rule_oracle({calls_time, time_rule_expect(kBackward, "FQ")})},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration backward_oracles{"backward", grader::make_backward_oracles};
