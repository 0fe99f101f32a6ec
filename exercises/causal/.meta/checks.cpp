// Checks of exercise 2, `causal` (35 points): the recurrent form (16), the parallel form (10)
// and the decode step (9). The inputs, the expected outputs and the outputs of the usual
// mistakes come from the reference, in oracle/ (the mistakes themselves are written
// in oracle/mistakes.cpp, which the chunkwise exercise shares, and most checks'
// calls in oracle/probes.cpp).
//
// The two whole-sequence forms get the same correctness probes; the recurrent form also has
// the memory rule. Every probe except the large-eps ones runs with eps = 0; the maps used are
// all positive, so no denominator is zero. Where eps goes is then the large-eps checks' one
// question, and an eps in the wrong place fails those checks alone.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "checks/shared/answer_gate.hpp"
#include "checks/shared/feature_map_specs.hpp"
#include "checks/shared/memory_hints.hpp"
#include "checks/shared/time_rule.hpp"
#include "checks/shared/token_rows.hpp"
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"
#include "util/byte_units.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace grader {
namespace {

// ---- the two whole-sequence forms --------------------------------------------------------

// expected per call: {"O": (T, d_v), "d_phi": width of the features, "suspects"}
Verdict judge_attention(const std::string& function, const std::string& note, const json& request,
                        const json& expected_all, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const json& e = expected_of(request, expected_all, i);
    const Matrix Q = wire::to_matrix(a.at("Q")), V = wire::to_matrix(a.at("V"));
    const double eps = a.at("eps").get<double>();
    const Matrix expected = wire::to_matrix(e.at("O"));
    const Matrix got = wire::to_matrix(result_of(request, reply, i).at("O"));
    const Comparison cmp = compare_matrices(expected, got, kTight, "O", "T x d_v");
    if (cmp.ok) continue;

    std::string tried = call_label(i, calls.size()) + function + "(Q, K: " + shape_of(Q) +
                        ", V: " + shape_of(V) + ", phi = " + describe_phi(a.at("phi")) +
                        " with d_phi = " + std::to_string(e.at("d_phi").get<long>()) +
                        ", eps = " + fmt(eps) + ")";
    if (!note.empty()) tried += "\n" + note;
    std::optional<std::string> mistake = diagnose(got, e.at("suspects"), kTight);
    if (!mistake) mistake = cmp.unwritten;  // rows left as allocated
    if (!mistake && shifted_by_one(expected, got, kTight))
      mistake =
          "the outputs are one token late: row t holds what row t-1 should. Write o_t "
          "in the same step that adds token t to the state.";
    if (!mistake && !cmp.shape_ok && got.rows() == V.cols() && got.cols() == V.rows())
      mistake = "the output is transposed; it has one row per token, (T, d_v).";
    return failure(tried, cmp.report, mistake);
  }
  return Verdict::pass();
}

// Where d_phi != d_v a transposed state stops on Eigen's shape check instead of giving wrong
// numbers; the crash then names it.
const char* const kShapeHint =
    "a shape mismatch, most often the state used transposed: S is (d_phi, d_v), built from "
    "phi(k) v^T, and read as S^T phi(q). With d_phi = d_v the shapes fit either way, so only the "
    "checks with unequal widths stop here.";

Check attention_check(const char* function, const std::string& name, double points, Visibility vis,
                      std::uint64_t seed, std::string note = "") {
  Check c = make_check(
      function, name, points, vis, seed,
      [function = std::string(function), note](const json& rq, const json& ex, const json& rp) {
        return judge_attention(function, note, rq, ex, rp);
      });
  c.crash_hint = kShapeHint;
  return c;
}

// The probes shared by the recurrent and the parallel form. `pts` lists the points of
// hand-example, single-token, random-taylor, random-features, elu-and-relu, constant-values,
// large-eps and random-hidden, in that order.
void add_sequence_checks(std::vector<Check>& out, const char* fn, const std::string& prefix,
                         const std::vector<double>& pts) {
  out.push_back(attention_check(
      fn, prefix + "/hand-example", pts[0], Visibility::Visible, 1,
      "The textbook's three tokens with elu+1 and eps = 0; the exact outputs are (1, 0), "
      "(5/9, 4/9) = (0.5555555556, 0.4444444444) and (7/12, 2/3) = (0.5833333333, 0.6666666667)."));
  out.push_back(attention_check(
      fn, prefix + "/single-token", pts[1], Visibility::Visible, 1,
      "With one token and eps = 0 the only key gets all the weight: O must equal V."));
  out.push_back(attention_check(
      fn, prefix + "/random-taylor", pts[2], Visibility::Visible, 1,
      "Taylor features make d_phi = 7 while d_v = 3, so a transposed state cannot fit."));
  out.push_back(attention_check(fn, prefix + "/random-features", pts[3], Visibility::Visible, 1,
                                "Positive random features with d_phi = 6, d_k = 3, d_v = 4."));
  out.push_back(attention_check(
      fn, prefix + "/elu-and-relu", pts[4], Visibility::Visible, 1,
      "Call 1 uses elu+1 (d_k = 4, d_v = 3); call 2 uses relu on positive inputs (d_k = 3, "
      "d_v = 5)."));
  out.push_back(attention_check(
      fn, prefix + "/constant-values", pts[5], Visibility::Visible, 1,
      "Every row of V is the same vector and eps = 0. The weights of each output add up to "
      "one, so every output row must be that vector."));
  out.push_back(attention_check(
      fn, prefix + "/large-eps", pts[6], Visibility::Visible, 1,
      "eps = " + fmt(kLargeEps) +
          " is about as large as the denominators, so the output shows "
          "exactly how eps is used: o_t = S_t^T phi(q_t) / (z_t^T phi(q_t) + eps)."));
  out.push_back(attention_check(fn, prefix + "/random-hidden", pts[7], Visibility::Hidden, 17));
}

// The memory rule at kMemT tokens: room for the O(T) arrays twice over, far less than T x T.
std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d_k = kMemD, d_phi = kMemD, d_v = kMemD;
  return 2 * 8 * (2 * T * d_phi + T * d_v + T * d_k) + 4 * 8 * d_phi * d_v + (4ull << 20);
}

// "512 MiB, about 14 times that": what a wrong layout would take, against the budget.
std::string times_the_budget(std::uint64_t bytes) {
  const double ratio = static_cast<double>(bytes) / static_cast<double>(memory_budget());
  return mib(static_cast<double>(bytes)) + ", about " + std::to_string(std::lround(ratio)) +
         " times";
}

Check memory_check() {
  const std::string T = std::to_string(kMemT), d = std::to_string(kMemD);
  Check c = attention_check(kRecurrent, "recurrent/memory-budget", 1.5, Visibility::Visible, 1,
                            "T = " + T + " tokens, d_k = d_v = " + d +
                                ", elu+1: the recurrent form must keep one state.");
  // It judges memory alone: the values are the other checks' business (answer_gate.hpp).
  c.judge = guarded(answers_only({"O"}));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (2 T d_phi + T d_v + T d_k), room for phi(Q), phi(K), the output "
      "and one T x d_k array twice over, + 4 states of d_phi x d_v doubles + 4 MiB of slack = " +
      std::to_string(memory_budget()) + " bytes at T = " + T + ", d_k = d_phi = d_v = " + d +
      "; a T x T matrix of doubles (" + times_the_budget(8 * kMemT * kMemT) +
      " that) or the T states of the cumulative-sum form (" +
      times_the_budget(8 * kMemT * kMemD * kMemD) + ") cannot pass";
  // The heap meter runs inside the student's process, so it gives the message but could be
  // lied to. The kernel's address-space limit cannot: the runner holds about 100 MiB before
  // the call (code and decoded inputs), so 240 MiB leaves room for the budget and then some,
  // yet neither T x T (512 MiB at these sizes) nor the stored states (256 MiB) fit.
  c.limits.address_space_bytes = 240ull << 20;
  c.limits.wall_seconds = 10.0;
  return c;
}

// ---- the decode step ---------------------------------------------------------------------

// expected per call: {"o", "S", "z": the reference's step, "suspects": {"o", "S", "z"}}
Verdict judge_step(const std::string& note, const json& request, const json& expected,
                   const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const json& e = expected_of(request, expected, i);
    const Matrix S = wire::to_matrix(a.at("S"));
    const Vector z = wire::to_vector(a.at("z")), q = wire::to_vector(a.at("q")),
                 v = wire::to_vector(a.at("v"));
    const double eps = a.at("eps").get<double>();
    const json& r = result_of(request, reply, i);
    const Vector got_o = wire::to_vector(r.at("o")), got_z = wire::to_vector(r.at("z"));
    const Matrix got_S = wire::to_matrix(r.at("S"));

    const json& sus = e.at("suspects");
    std::string report;
    std::optional<std::string> mistake;
    auto part = [&](const Comparison& cmp, const Matrix& got, const json& s) {
      if (cmp.ok) return;
      report += (report.empty() ? "" : "\n") + cmp.report;
      if (!mistake) mistake = diagnose(got, s, kTight);
    };
    part(compare_vectors(wire::to_vector(e.at("o")), got_o, kTight, "o", "d_v"), Matrix(got_o),
         sus.at("o"));
    part(compare_matrices(wire::to_matrix(e.at("S")), got_S, kTight, "S", "d_phi x d_v"), got_S,
         sus.at("S"));
    part(compare_vectors(wire::to_vector(e.at("z")), got_z, kTight, "z", "d_phi"), Matrix(got_z),
         sus.at("z"));
    if (report.empty()) continue;
    std::string tried = call_label(i, calls.size()) + kStep + "(S: " + shape_of(S) +
                        ", z: " + std::to_string(z.size()) + ", q, k: " + std::to_string(q.size()) +
                        ", v: " + std::to_string(v.size()) +
                        ", phi = " + describe_phi(a.at("phi")) + ", eps = " + fmt(eps) + ")";
    if (!note.empty()) tried += "\n" + note;
    return failure(tried, report, mistake);
  }
  return Verdict::pass();
}

Check step_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                 std::string note) {
  Check c = make_check(kStep, name, points, vis, seed,
                       [note](const json& rq, const json& ex, const json& rp) {
                         return judge_step(note, rq, ex, rp);
                       });
  c.crash_hint = kShapeHint;
  return c;
}

void add_step_checks(std::vector<Check>& out) {
  out.push_back(
      step_check("step/from-zero", 2.0, Visibility::Visible, 1,
                 "From the zero state with eps = 0, the step must return o = v, S = phi(k) v^T and "
                 "z = phi(k)."));
  out.push_back(step_check(
      "step/reproduces-recurrent", 3.0, Visibility::Visible, 1,
      "Eight tokens decoded one at a time with Taylor features (d_phi = 7, d_v = 3). Call t "
      "is given the reference's state after t-1 tokens; its o is row t of the recurrent form's "
      "output."));
  out.push_back(
      step_check("step/unequal-sizes", 2.0, Visibility::Visible, 1,
                 "A state after 5 tokens with d_phi = 9 and d_v = 4: S must stay (d_phi, d_v)."));
  out.push_back(step_check("step/large-eps", 1.5, Visibility::Visible, 1,
                           "eps = " + fmt(kLargeEps) +
                               ", so o = S_t^T phi(q_t) / (z_t^T phi(q_t) + " + fmt(kLargeEps) +
                               ") visibly differs from any other placement of eps."));
  out.push_back(step_check("step/random-hidden", 0.5, Visibility::Hidden, 19, ""));
}

std::vector<Check> make_causal_checks() {
  std::vector<Check> checks;
  // recurrent: 13.5 here + 1.5 for the memory rule + 1 for the time rule = 16.
  add_sequence_checks(checks, kRecurrent, "recurrent", {3, 1, 2.5, 2, 1.5, 1.5, 1.5, 0.5});
  checks.push_back(memory_check());
  checks.push_back(linear_time_check(kRecurrent, "recurrent/linear-time", 1.0, {}));
  // parallel: 10.
  add_sequence_checks(checks, kParallel, "parallel", {2, 1, 2, 1.5, 1, 1, 1, 0.5});
  // step: 9.
  add_step_checks(checks);
  // A heap that grew too far, or an allocation that failed, is compared with T x T matrices
  // and stored states in the message.
  for (Check& c : checks) c.memory_hint = token_axis_memory_hint;
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration causal_checks{"causal", grader::make_causal_checks};
