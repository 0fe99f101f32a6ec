// Checks of exercise 8, `modern` (35 points): mlstm (17.5) and decayed_normalized_attention
// (17.5). The expected outputs, and the outputs of the usual slips, come from the reference and
// from slipped copies of the recurrences (oracle/mistakes.*), in oracle/; each
// check's calls are made in oracle/probes.*.
//
// Both layers divide by something that hides mistakes. mlstm's max(|n_t^T q_t|, 1) cancels any
// common scale of C_t and n_t while the floor is idle, and RMSNorm cancels any scale of y_t
// except through eps. So each probe is built to make its slips visible: mlstm's probes have
// tokens with n_t^T q_t below -1 and with |n_t^T q_t| below 1, and the decayed form's probes
// use an eps as large as mean(y_t^2) wherever a slip would otherwise hide behind the norm.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "checks/shared/answer_gate.hpp"
#include "checks/shared/memory_hints.hpp"
#include "checks/shared/time_rule.hpp"
#include "checks/shared/token_rows.hpp"
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grader {
namespace {

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
                     std::uint64_t seed, std::string note) {
  Check c = make_check(
      function, name, points, vis, seed,
      [function = std::string(function), note](const json& rq, const json& ex, const json& rp) {
        return judge_sequence(function, note, rq, ex, rp);
      });
  c.crash_hint = std::string(function) == kMlstm ? kMlstmShapeHint : kDecayedShapeHint;
  return c;
}

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d_k = kMemD, d_v = kMemD;
  return 2 * 8 * (2 * T * d_k + 2 * T * d_v) + 4 * 8 * d_k * d_v + (4ull << 20);
}

Check memory_check(const char* function, const std::string& name, std::string note) {
  Check c = sequence_check(function, name, 2.5, Visibility::Visible, 1, std::move(note));
  // It judges memory alone: the values are the other checks' business (answer_gate.hpp).
  c.judge = guarded(answers_only({std::string(function) == kMlstm ? "H" : "O"}));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (2 T d_k + 2 T d_v), room for the features of Q, K and V and the "
      "output twice over, + 4 states of d_k x d_v doubles + 4 MiB of slack = " +
      std::to_string(memory_budget()) +
      " bytes at T = 8192, d_k = d_v = 64; a T x T matrix of "
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
      "n_t^T q_t = 0.625, where the floor acts."));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/linear-attention-limit", 2.5, Visibility::Visible, 1,
      "f = i = 1 and positive queries and keys, so every |n_t^T q_t| >= 1 and the floor never "
      "acts: the output must be causal linear attention's with identity features and eps = 0 "
      "(d_k = 4, d_v = 3)."));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/floor-and-sign", 3.5, Visibility::Visible, 1,
      "Gates in (0.3, 0.95), d_k = 4, d_v = 3, 16 tokens: at least three have n_t^T q_t < -1, "
      "three have |n_t^T q_t| < 1 (the floor acts) and three have n_t^T q_t > 1."));
  checks.push_back(sequence_check(
      kMlstm, "mlstm/random-gates", 3.0, Visibility::Visible, 1,
      "Three calls with seeded gates: over most of (0, 1) with d_k = 3, d_v = 5; close to 1 "
      "(slow forgetting) over 40 tokens with d_k = 6, d_v = 2; and small (fast forgetting) with "
      "d_k = 2, d_v = 4."));
  checks.push_back(memory_check(
      kMlstm, "mlstm/memory-budget",
      "T = 8192 tokens, d_k = d_v = 64: mlstm must keep one cell and one normalizer."));
  // The time rule (checks/shared/time_rule.hpp): at three sizes, each 4 times the last, the
  // cost must grow as the size does, not as its square.
  checks.push_back(
      linear_time_check(kMlstm, "mlstm/linear-time", 2.0, {},
                        "the form does work for every pair of tokens, for example it multiplies "
                        "the forget gates of all earlier tokens again for each new one. Keep the "
                        "cell C and the normalizer n, and update each once per token: forget, "
                        "then write."));
  checks.push_back(sequence_check(kMlstm, "mlstm/random-hidden", 1.0, Visibility::Hidden, 23, ""));
  // decayed_normalized_attention: 17.5.
  checks.push_back(sequence_check(
      kDecayed, "decayed/by-hand", 2.5, Visibility::Visible, 1,
      "The hand-out's three tokens (d_k = 1, gamma = 1/2, gain = (1, 2), eps = 0); the outputs "
      "are (1.4142135624, 0), (1.3525673113, -0.8259822479) and (-0.1482013470, -2.8128536121)."));
  checks.push_back(sequence_check(kDecayed, "decayed/single-token", 1.0, Visibility::Visible, 1,
                                  "One token (d_k = 3, d_v = 4, gamma = 0.5, eps = 1e-6): S_1 = "
                                  "silu(k_1) silu(v_1)^T, whatever gamma is."));
  checks.push_back(sequence_check(
      kDecayed, "decayed/small-gamma", 2.5, Visibility::Visible, 1,
      "gamma = 0.1 (fast forgetting), d_k = 3, d_v = 5, eps = 0.5: with eps this large, a "
      "scale that RMSNorm would otherwise cancel shows in the output."));
  checks.push_back(sequence_check(
      kDecayed, "decayed/large-gamma", 2.5, Visibility::Visible, 1,
      "Slow forgetting: gamma = 0.99 over 50 tokens (d_k = 4, d_v = 3, eps = 1e-6), then "
      "gamma = 0.9 over 30 tokens (d_k = 2, d_v = 6, eps = 0.25)."));
  checks.push_back(sequence_check(kDecayed, "decayed/no-decay", 1.5, Visibility::Visible, 1,
                                  "gamma = 1: no forgetting: TransNormer's normalized causal form, "
                                  "with MiniMax-01's SiLU features."));
  checks.push_back(sequence_check(
      kDecayed, "decayed/rms-and-eps", 2.5, Visibility::Visible, 1,
      "Call 1: small inputs, d_k = 2, d_v = 6, eps = 0.2, so eps weighs on every row; call 2: "
      "d_k = 5, d_v = 2. Each row is divided by the RMS of its own d_v entries."));
  checks.push_back(
      memory_check(kDecayed, "decayed/memory-budget",
                   "T = 8192 tokens, d_k = d_v = 64: the decayed form must keep one state."));
  checks.push_back(
      linear_time_check(kDecayed, "decayed/linear-time", 2.0, {},
                        "the form does work for every pair of tokens, for example it weighs each "
                        "earlier token s by the decay to the power t - s for every new token t. "
                        "Keep the state S, scale it by the decay once per token, then add the "
                        "new token."));
  checks.push_back(
      sequence_check(kDecayed, "decayed/random-hidden", 0.5, Visibility::Hidden, 29, ""));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration modern_checks{"modern", grader::make_modern_checks};
