// The oracle of exercise 8, `modern`: each check's calls and what the reference says of
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
#include <stdexcept>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The reference's functions, called through the API description above.
static const api::References modern_reference{
    api::reference("mlstm", &linref::mlstm),
    api::reference("decayed_normalized_attention", &linref::decayed_normalized_attention),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================
// Each check's calls are made in oracle/probes.*, and the slipped copies of
// both layers are in oracle/mistakes.*; here, what each slip is called when the
// judge names it, and what the judge is told of each call.
using namespace modern;

// ---- mlstm ---------------------------------------------------------------------------------

// Each slip of oracle/mistakes.hpp, as the judge names it.
const SlipNames<MlstmSlip> kMlstmSlips{
    {MlstmSlip::SwappedGates,
     "the gates f and i are swapped: f_t scales what the cell already holds (C_{t-1} and "
     "n_{t-1}), i_t weighs the new pair, outer(v_t, k_t), and the new key k_t."},
    {MlstmSlip::ForgetAfterWrite,
     "the forget gate was applied after the write, C(t) = f(t) (C(t-1) + i(t) outer(v(t), k(t))), "
     "so it "
     "shrinks token t's own pair too. Scale the old cell first, then add i_t v_t k_t^T (and "
     "the same for n_t)."},
    {MlstmSlip::NoAbsolute,
     "the absolute value is missing: max(n_t^T q_t, 1) turns every negative n_t^T q_t into 1. "
     "The denominator is max(|n_t^T q_t|, 1)."},
    {MlstmSlip::NoFloor,
     "the floor is missing: dividing by n_t^T q_t alone is plain causal linear attention's "
     "normalizer, which can be near zero or negative. Divide by max(|n_t^T q_t|, 1)."},
    {MlstmSlip::AbsoluteNoFloor,
     "the floor of 1 is missing: |n_t^T q_t| alone blows the output up wherever it is small. "
     "Divide by max(|n_t^T q_t|, 1)."},
    {MlstmSlip::PlusOne,
     "1 was added to the denominator instead of used as a floor: the denominator is "
     "max(|n_t^T q_t|, 1), not |n_t^T q_t| + 1."},
    {MlstmSlip::FloorOnEntries,
     "max(., 1) was put on the entries of n_t rather than on the one number |n_t^T q_t|: the "
     "floor bounds the dot product, after it is taken."},
    {MlstmSlip::ReadBeforeWrite,
     "the cell was read before token t was written (h_t from C_{t-1} and n_{t-1}), so h_1 is "
     "0. Update C_t and n_t first, then read with q_t."},
    {MlstmSlip::NoInputGateOnN,
     "the input gate is missing from the normalizer: n(t) = f(t) n(t-1) + i(t) k(t), with the "
     "same gates as the cell."},
    {MlstmSlip::NoForgetGateOnN,
     "the forget gate is missing from the normalizer: n(t) = f(t) n(t-1) + i(t) k(t), with the "
     "same gates as the cell."},
};

// Large calls (the memory rule) carry only the outputs: slips are told apart on small probes.
constexpr Eigen::Index kDetailUpTo = kMaxSuspectTokens;

json expect_mlstm(const json& a) {
  const MlstmCase c = mlstm_case_of(a);
  const Matrix H = linref::mlstm(c.Q, c.K, c.V, c.f, c.i);
  json e{{"H", wire::from_matrix(H)}};
  if (c.Q.rows() <= kDetailUpTo) {
    e["dots"] = wire::from_vector(mlstm_dots(c));
    e["suspects"] = suspects_json(mlstm_suspects(c, H, kMlstmSlips));
  }
  return e;
}

// The seed's remark, as a check: f = i = 1 makes mlstm causal linear attention with identity
// features, apart from the floor; on inputs where the floor is idle, the two must agree, so
// the expected output here is the causal reference's.
json expect_linear_attention_limit(const json& a) {
  const MlstmCase c = mlstm_case_of(a);
  const Vector dots = mlstm_dots(c);
  if ((c.f.array() != 1.0).any() || (c.i.array() != 1.0).any() || dots.cwiseAbs().minCoeff() < 1.0)
    throw std::logic_error(
        "modern: the linear-attention-limit probe needs f = i = 1 and |n_t^T q_t| >= 1");
  const Matrix H = linref::causal_linear_attention_recurrent(c.Q, c.K, c.V, linref::identity, 0.0);
  return json{{"H", wire::from_matrix(H)},
              {"dots", wire::from_vector(dots)},
              {"suspects", suspects_json(mlstm_suspects(c, H, kMlstmSlips))}};
}

// ---- decayed_normalized_attention ----------------------------------------------------------

// Each slip of oracle/mistakes.hpp, as the judge names it.
const SlipNames<DecayedSlip> kDecayedSlips{
    {DecayedSlip::Sigmoid,
     "the logistic sigmoid was used as the feature map. SiLU is x sigma(x) = x / (1 + e^-x); "
     "sigma(x) = 1 / (1 + e^-x) alone is another function."},
    {DecayedSlip::NoSiluOnV,
     "SiLU was applied to Q and K only; this recipe applies it to V as well: the state adds "
     "silu(k_t) silu(v_t)^T."},
    {DecayedSlip::DecayAfterWrite,
     "the decay was applied after the write, S(t) = gamma (S(t-1) + outer(silu(k(t)), "
     "silu(v(t)))). "
     "That makes every y_t gamma times too small, which RMSNorm hides except through eps. "
     "Decay the old state first, then add the new pair at full weight."},
    {DecayedSlip::NoDecay,
     "the decay is missing: S(t) = gamma S(t-1) + outer(silu(k(t)), silu(v(t))), with gamma on the "
     "old state (gamma on the new pair alone is a common scale that RMSNorm removes)."},
    {DecayedSlip::ReadBeforeWrite,
     "y_t was read from S_{t-1}, before token t was added, so the first output is 0. Add the "
     "token's pair first, then read with silu(q_t)."},
    {DecayedSlip::RmsOverTokens,
     "the root mean square was taken over the wrong axis, down each column over the T tokens. "
     "Each token's output is divided by the RMS of its own d_v entries (one row)."},
    {DecayedSlip::RmsOverAll,
     "the root mean square was taken over the whole T x d_v output at once. Each token's "
     "output is divided by the RMS of its own d_v entries (one row)."},
    {DecayedSlip::NoEps, "eps is missing from the RMS: divide by sqrt(mean(y_t^2) + eps)."},
    {DecayedSlip::EpsOutsideRoot,
     "eps was added outside the square root: divide by sqrt(mean(y_t^2) + eps), not by "
     "sqrt(mean(y_t^2)) + eps."},
    {DecayedSlip::SumNotMean,
     "the sum of squares was used where their mean belongs: the RMS is "
     "sqrt((y_t1^2 + ... + y_td_v^2) / d_v + eps)."},
    {DecayedSlip::NoGain,
     "the gains are missing: multiply the normalized y_t entry by entry by gain."},
};

json expect_decayed(const json& a) {
  const DecayedCase c = decayed_case_of(a);
  const Matrix O = linref::decayed_normalized_attention(c.Q, c.K, c.V, c.gamma, c.gain, c.eps);
  json e{{"O", wire::from_matrix(O)}};
  if (c.Q.rows() <= kDetailUpTo) {
    e["mean_squares"] = wire::from_vector(decayed_mean_squares(c));
    e["suspects"] = suspects_json(decayed_suspects(c, O, kDecayedSlips));
  }
  return e;
}

OracleTable make_modern_oracles() {
  return {
      {"mlstm/by-hand", {calls_mlstm_by_hand, expect_mlstm}},
      {"mlstm/linear-attention-limit",
       {calls_linear_attention_limit, expect_linear_attention_limit}},
      {"mlstm/floor-and-sign", {calls_floor_and_sign, expect_mlstm}},
      {"mlstm/random-gates", {calls_random_gates, expect_mlstm}},
      {"mlstm/memory-budget", {calls_mlstm_memory, expect_mlstm}},
      {"mlstm/linear-time", time_rule_oracle({calls_mlstm_time, time_rule_expect(kMlstm, "Q")})},
      {"mlstm/random-hidden", {calls_mlstm_hidden, expect_mlstm}},
      {"decayed/by-hand", {calls_decayed_by_hand, expect_decayed}},
      {"decayed/single-token", {calls_decayed_single_token, expect_decayed}},
      {"decayed/small-gamma", {calls_small_gamma, expect_decayed}},
      {"decayed/large-gamma", {calls_large_gamma, expect_decayed}},
      {"decayed/no-decay", {calls_no_decay, expect_decayed}},
      {"decayed/rms-and-eps", {calls_rms_and_eps, expect_decayed}},
      {"decayed/memory-budget", {calls_decayed_memory, expect_decayed}},
      {"decayed/linear-time",
       time_rule_oracle({calls_decayed_time, time_rule_expect(kDecayed, "Q")})},
      {"decayed/random-hidden", {calls_decayed_hidden, expect_decayed}},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration modern_oracles{"modern", grader::make_modern_oracles};
