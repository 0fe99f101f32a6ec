// Checks of exercise 8, `modern` (35 points): mlstm (17.5) and decayed_normalized_attention
// (17.5). The expected outputs, and the outputs of the usual slips, come from the reference and
// from slipped copies of the recurrences (oracle/mistakes.*), in the oracle
// regions; each check's calls are made in oracle/probes.*.
//
// Both layers divide by something that hides mistakes. mlstm's max(|n_t^T q_t|, 1) cancels any
// common scale of C_t and n_t while the floor is idle, and RMSNorm cancels any scale of y_t
// except through eps. So each probe is built to make its slips visible: mlstm's probes have
// tokens with n_t^T q_t below -1 and with |n_t^T q_t| below 1, and the decayed form's probes
// use an eps as large as mean(y_t^2) wherever a slip would otherwise hide behind the norm.
//
// The file has three parts: the API description (compiled into the runner harness as well,
// see grader/common/api.hpp), the judge (not in the runner), and the oracle regions marked
// `#ifdef LINATTN_ORACLE` (they call the reference; the student kit's judge is built without
// them, in every build, so nothing outside them may use the reference).
#include "../../common/api.hpp"
#include "modern.hpp"

// ==== API =====================================================================================

// Q, K: (T, d_k); V: (T, d_v); f, i: (T); gain: (d_v) -> H, O: (T, d_v).
static const api::Exercise modern_api{"modern", {
    api::function(LINATTN_SIGNATURE(mlstm), {"Q", "K", "V", "f", "i"}, {"H"}),
    api::function(LINATTN_SIGNATURE(decayed_normalized_attention),
                  {"Q", "K", "V", "gamma", "gain", {"eps", 1e-6}}, {"O"}),
}};

#ifndef LINATTN_RUNNER
// ==== the judge ===============================================================================

#include "../../common/wire.hpp"
#include "../../src/check.hpp"
#include "../../src/compare.hpp"
#include "../../checks/shared/memory_hints.hpp"
#include "../../checks/shared/time_rule.hpp"
#include "../../checks/shared/token_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#ifdef LINATTN_ORACLE
#include "../../oracle/makers.hpp"
#include "oracle/mistakes.hpp"
#include "oracle/probes.hpp"
#include "../../src/api_registry.hpp"

#include <stdexcept>
#endif

#ifdef LINATTN_ORACLE
// The reference's functions, called through the API description above.
static const api::References modern_reference{
    api::reference("mlstm", &linref::mlstm),
    api::reference("decayed_normalized_attention", &linref::decayed_normalized_attention),
};
#endif

namespace grader {
namespace {

const char* kMlstm = "mlstm";
const char* kDecayed = "decayed_normalized_attention";

#ifdef LINATTN_ORACLE
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
     "n_{t-1}), i_t weighs the new pair v_t k_t^T and the new key k_t."},
    {MlstmSlip::ForgetAfterWrite,
     "the forget gate was applied after the write, C_t = f_t (C_{t-1} + i_t v_t k_t^T), so it "
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
     "the input gate is missing from the normalizer: n_t = f_t n_{t-1} + i_t k_t, with the "
     "same gates as the cell."},
    {MlstmSlip::NoForgetGateOnN,
     "the forget gate is missing from the normalizer: n_t = f_t n_{t-1} + i_t k_t, with the "
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
     "the decay was applied after the write, S_t = gamma (S_{t-1} + silu(k_t) silu(v_t)^T). "
     "That makes every y_t gamma times too small, which RMSNorm hides except through eps. "
     "Decay the old state first, then add the new pair at full weight."},
    {DecayedSlip::NoDecay,
     "the decay is missing: S_t = gamma S_{t-1} + silu(k_t) silu(v_t)^T, with gamma on the "
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
    {DecayedSlip::NoEps,
     "eps is missing from the RMS: divide by sqrt(mean(y_t^2) + eps)."},
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
#endif  // LINATTN_ORACLE

// ---- the judge -----------------------------------------------------------------------------

std::string range_of(const Vector& x) {
  if (x.size() == 0) return "empty";
  if (x.minCoeff() == x.maxCoeff()) return "all " + fmt(x(0));
  return "in [" + fmt(x.minCoeff()) + ", " + fmt(x.maxCoeff()) + "]";
}

// What is said about the worst row besides the comparison: the denominator there, which is
// where the two layers' slips show.
std::string worst_row_account(const std::string& function, const json& e, Eigen::Index row,
                              const json& call) {
  if (row < 0) return "";
  if (function == kMlstm && e.contains("dots")) {
    const Vector dots = wire::to_vector(e.at("dots"));
    if (row >= dots.size()) return "";
    const double d = dots(row);
    return "\n  At token t = " + std::to_string(row + 1) + " (row " + std::to_string(row) +
           "): n_t^T q_t = " + fmt(d) +
           ", so the denominator is max(|n_t^T q_t|, 1) = " + fmt(std::max(std::abs(d), 1.0)) +
           (std::abs(d) < 1.0 ? " (the floor acts here)"
            : d < 0           ? " (the absolute value matters here)"
                              : "") +
           ".";
  }
  if (function == kDecayed && e.contains("mean_squares")) {
    const Vector m = wire::to_vector(e.at("mean_squares"));
    if (row >= m.size()) return "";
    const double eps = call.at("eps").get<double>();
    return "\n  At token t = " + std::to_string(row + 1) + " (row " + std::to_string(row) +
           "): mean(y_t^2) = " + fmt(m(row)) + " over its d_v entries, so y_t is divided by sqrt(" +
           fmt(m(row)) + " + " + fmt(eps) + ") = " + fmt(std::sqrt(m(row) + eps)) + ".";
  }
  return "";
}

std::string describe_call(const std::string& function, const json& a) {
  const Matrix Q = wire::to_matrix(a.at("Q")), V = wire::to_matrix(a.at("V"));
  std::string s = function + "(Q, K: " + shape_of(Q) + ", V: " + shape_of(V);
  if (function == kMlstm)
    return s + ", f " + range_of(wire::to_vector(a.at("f"))) + ", i " +
           range_of(wire::to_vector(a.at("i"))) + ")";
  return s + ", gamma = " + fmt(a.at("gamma").get<double>()) + ", gain " +
         range_of(wire::to_vector(a.at("gain"))) + ", eps = " + fmt(a.at("eps").get<double>()) +
         ")";
}

// expected per call: {"H" or "O": (T, d_v), and on small probes "dots" (mlstm) or
// "mean_squares" (decayed) per token, and "suspects"}
Verdict judge_sequence(const std::string& function, const std::string& note, const json& request,
                       const json& expected, const json& reply) {
  const std::string out = function == kMlstm ? "H" : "O";
  return each_call(
      request, expected, reply,
      [&](std::size_t, const json& a, const json& e, const json& r) -> std::optional<Verdict> {
        const Matrix want = wire::to_matrix(e.at(out));
        const Matrix got = wire::to_matrix(r.at(out));
        const Comparison cmp = compare_matrices(want, got, kTight, out, "T x d_v");
        if (cmp.ok) return std::nullopt;
        std::string tried = describe_call(function, a);
        if (!note.empty()) tried += "\n" + note;
        std::optional<std::string> mistake;
        if (e.contains("suspects")) mistake = diagnose(got, e.at("suspects"), kTight);
        if (!mistake) mistake = cmp.unwritten;  // rows left as allocated
        if (!mistake && shifted_by_one(want, got, kTight))
          mistake =
              "the outputs are one token late: row t holds what row t-1 should. Write token t "
              "into the state, then read it, in the same step.";
        if (!mistake && !cmp.shape_ok && got.rows() == want.cols() && got.cols() == want.rows())
          mistake = "the output is transposed; it has one row per token, (T, d_v).";
        return failure(
            tried,
            cmp.report + (cmp.shape_ok ? worst_row_account(function, e, cmp.worst_row, a) : ""),
            mistake);
      });
}

// With d_k != d_v, a state of the wrong shape stops on Eigen's shape check instead of giving
// wrong numbers; the crash then says so.
const char* const kMlstmShapeHint =
    "a shape mismatch, most often the cell built the other way round: C is (d_v, d_k), made of "
    "v_t k_t^T, and read as C_t q_t; n is (d_k). The probes with d_k != d_v stop here.";
const char* const kDecayedShapeHint =
    "a shape mismatch, most often the state built the other way round: S is (d_k, d_v), made of "
    "silu(k_t) silu(v_t)^T, and read as S_t^T silu(q_t); gain has d_v entries.";

Check sequence_check(const char* function, const std::string& name, double points, Visibility vis,
                     std::uint64_t seed, std::string note, Oracle oracle) {
  Check c = make_check(
      function, name, points, vis, seed,
      [function = std::string(function), note](const json& rq, const json& ex, const json& rp) {
        return judge_sequence(function, note, rq, ex, rp);
      });
  c.crash_hint = std::string(function) == kMlstm ? kMlstmShapeHint : kDecayedShapeHint;
  return with_oracle(std::move(c), std::move(oracle));
}

// The memory rule, as for causal's recurrent form: T = 8192, d_k = d_v = 64.
constexpr std::uint64_t kMemT = 8192, kMemD = 64;

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d_k = kMemD, d_v = kMemD;
  return 2 * 8 * (2 * T * d_k + 2 * T * d_v) + 4 * 8 * d_k * d_v + (4ull << 20);
}

Check memory_check(const char* function, const std::string& name, std::string note, Oracle oracle) {
  Check c = sequence_check(function, name, 2.5, Visibility::Visible, 1, std::move(note),
                           std::move(oracle));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (2 T d_k + 2 T d_v), room for the features of Q, K and V and the "
      "output twice over, + 4 states of d_k x d_v doubles + 4 MiB of slack = " +
      std::to_string(memory_budget()) + " bytes at T = 8192, d_k = d_v = 64; a T x T matrix of "
      "doubles (512 MiB, about 14 times that) or the T states of a cumulative sum (256 MiB, "
      "about 7 times) cannot pass";
  // As for causal's memory check: the runner holds about 100 MiB before the call, so 240 MiB
  // of address space leaves room for the budget, and none for T x T or T stored states.
  c.limits.address_space_bytes = 240ull << 20;
  c.memory_hint = token_axis_memory_hint;
  return c;
}

std::vector<Check> make_modern_checks() {
  std::vector<Check> checks;
  // mlstm: 17.5.
  checks.push_back(sequence_check(
      kMlstm, "mlstm/by-hand", 3.0, Visibility::Visible, 1,
      "The hand-out's four tokens (f = 1/2, i = (1, 2, 1, 1)); the outputs are (1, 0), "
      "(0.2, 1.6), (-0.5, -1.5) and (0.625, 0.5). Token 3 has n_t^T q_t = -8, token 4 has "
      "n_t^T q_t = 0.625, where the floor acts.",
      LINATTN_ORACLE_OF(calls_mlstm_by_hand, expect_mlstm)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/linear-attention-limit", 2.5, Visibility::Visible, 1,
      "f = i = 1 and positive queries and keys, so every |n_t^T q_t| >= 1 and the floor never "
      "acts: the output must be causal linear attention's with identity features and eps = 0 "
      "(d_k = 4, d_v = 3).",
      LINATTN_ORACLE_OF(calls_linear_attention_limit, expect_linear_attention_limit)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/floor-and-sign", 3.5, Visibility::Visible, 1,
      "Gates in (0.3, 0.95), d_k = 4, d_v = 3, 16 tokens: at least three have n_t^T q_t < -1, "
      "three have |n_t^T q_t| < 1 (the floor acts) and three have n_t^T q_t > 1.",
      LINATTN_ORACLE_OF(calls_floor_and_sign, expect_mlstm)));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/random-gates", 3.0, Visibility::Visible, 1,
      "Three calls with seeded gates: over most of (0, 1) with d_k = 3, d_v = 5; close to 1 "
      "(slow forgetting) over 40 tokens with d_k = 6, d_v = 2; and small (fast forgetting) with "
      "d_k = 2, d_v = 4.",
      LINATTN_ORACLE_OF(calls_random_gates, expect_mlstm)));
  checks.push_back(memory_check(
      kMlstm, "mlstm/memory-budget",
      "T = 8192 tokens, d_k = d_v = 64: mlstm must keep one cell and one normalizer.",
      LINATTN_ORACLE_OF(calls_mlstm_memory, expect_mlstm)));
  // The time rule: the same problem at T and 8 T must cost about 8 times as much, not 64.
  checks.push_back(
      linear_time_check(kMlstm, "mlstm/linear-time", 2.0,
                        LINATTN_ORACLE_OF(calls_mlstm_time, time_rule_expect(kMlstm, "Q")),
                        "the form does work for every pair of tokens, for example it multiplies "
                        "the forget gates of all earlier tokens again for each new one. Keep the "
                        "cell C and the normalizer n, and update each once per token: forget, "
                        "then write."));
  checks.push_back(sequence_check(kMlstm, "mlstm/random-hidden", 1.0, Visibility::Hidden, 23, "",
                                  LINATTN_ORACLE_OF(calls_mlstm_hidden, expect_mlstm)));
  // decayed_normalized_attention: 17.5.
  checks.push_back(sequence_check(
      kDecayed, "decayed/by-hand", 2.5, Visibility::Visible, 1,
      "The hand-out's three tokens (d_k = 1, gamma = 1/2, gain = (1, 2), eps = 0); the outputs "
      "are (1.4142135624, 0), (1.3525673113, -0.8259822479) and (-0.1482013470, -2.8128536121).",
      LINATTN_ORACLE_OF(calls_decayed_by_hand, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/single-token", 1.0, Visibility::Visible, 1,
      "One token: S_1 = silu(k_1) silu(v_1)^T, whatever gamma is.",
      LINATTN_ORACLE_OF(calls_decayed_single_token, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/small-gamma", 2.5, Visibility::Visible, 1,
      "gamma = 0.1 (fast forgetting), d_k = 3, d_v = 5, eps = 0.5: with eps this large, a "
      "scale that RMSNorm would otherwise cancel shows in the output.",
      LINATTN_ORACLE_OF(calls_small_gamma, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/large-gamma", 2.5, Visibility::Visible, 1,
      "Slow forgetting: gamma = 0.99 over 50 tokens (d_k = 4, d_v = 3, eps = 1e-6), then "
      "gamma = 0.9 over 30 tokens (d_k = 2, d_v = 6, eps = 0.25).",
      LINATTN_ORACLE_OF(calls_large_gamma, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/no-decay", 1.5, Visibility::Visible, 1,
      "gamma = 1: no forgetting: TransNormer's normalized causal form, with MiniMax-01's SiLU features.",
      LINATTN_ORACLE_OF(calls_no_decay, expect_decayed)));
  checks.push_back(sequence_check(
      kDecayed, "decayed/rms-and-eps", 2.5, Visibility::Visible, 1,
      "Call 1: small inputs, d_k = 2, d_v = 6, eps = 0.2, so eps weighs on every row; call 2: "
      "d_k = 5, d_v = 2. Each row is divided by the RMS of its own d_v entries.",
      LINATTN_ORACLE_OF(calls_rms_and_eps, expect_decayed)));
  checks.push_back(memory_check(
      kDecayed, "decayed/memory-budget",
      "T = 8192 tokens, d_k = d_v = 64: the decayed form must keep one state.",
      LINATTN_ORACLE_OF(calls_decayed_memory, expect_decayed)));
  checks.push_back(
      linear_time_check(kDecayed, "decayed/linear-time", 2.0,
                        LINATTN_ORACLE_OF(calls_decayed_time, time_rule_expect(kDecayed, "Q")),
                        "the form does work for every pair of tokens, for example it weighs each "
                        "earlier token s by the decay to the power t - s for every new token t. "
                        "Keep the state S, scale it by the decay once per token, then add the "
                        "new token."));
  checks.push_back(sequence_check(kDecayed, "decayed/random-hidden", 0.5, Visibility::Hidden, 29,
                                  "", LINATTN_ORACLE_OF(calls_decayed_hidden, expect_decayed)));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::Registrar modern_registrar{"modern", grader::make_modern_checks};

#endif  // LINATTN_RUNNER
