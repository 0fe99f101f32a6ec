// Checks of exercise 7, `backward` (30 points): the gradients of causal linear attention with
// respect to the features and the values, as running sums: 24.5 points for the values, 3.5 for
// the memory rule, 2 for the time rule (grader/checks/shared/time_rule.hpp). The expected
// gradients and those of the usual slips come from the reference, in oracle/ (the
// slipped copies of the two passes are in oracle/mistakes.cpp, most checks'
// calls in oracle/probes.cpp); one check instead compares with central
// differences of the reference's forward pass, worked out by the oracle.
//
// The loss is L = sum(O .* dO) for a given dO, so dL/dO = dO. Each part (dFQ, dFK, dV) is
// compared on its own and each wrong part is matched against the usual slips: the normalizer's
// derivative left out, sums running the wrong way in time, a strict inequality where t >= s is
// meant, dFQ and dFK swapped or transposed, a state used transposed.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "checks/shared/answer_gate.hpp"
#include "checks/shared/time_rule.hpp"
#include "common/wire.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "sizes.hpp"
#include "util/byte_units.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace grader {
namespace {

// The three parts of a reply, with the words that say what each one is.
struct Part {
  const char* name;
  const char* dims;
};
const Part kParts[] = {{"dFQ", "T x d_phi"}, {"dFK", "T x d_phi"}, {"dV", "T x d_v"}};

// expected per call: {"dFQ", "dFK", "dV", "suspects": {"dFQ": [...], "dFK": [...], "dV": [...]}}
// and, for the central-differences check, "agreement": how far the reference's two-pass
// gradients are from those differences.
Verdict judge_backward(const std::string& note, const Tolerance& tol, const json& request,
                       const json& expected_all, const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const json& e = expected_of(request, expected_all, i);
    const json& r = result_of(request, reply, i);
    const Matrix FQ = wire::to_matrix(a.at("FQ")), V = wire::to_matrix(a.at("V"));
    const double eps = a.at("eps").get<double>();

    std::string report;
    std::vector<std::string> mistakes;
    for (const Part& p : kParts) {
      const Matrix want = wire::to_matrix(e.at(p.name));
      const Matrix got = wire::to_matrix(r.at(p.name));
      const Comparison cmp = compare_matrices(want, got, tol, p.name, p.dims);
      if (cmp.ok) continue;
      report += (report.empty() ? "" : "\n") + cmp.report;
      std::optional<std::string> m = diagnose(got, e.at("suspects").at(p.name), kTight);
      if (!m) m = cmp.unwritten;  // rows left as allocated
      if (!m && !cmp.shape_ok && want.rows() != want.cols() && got.rows() == want.cols() &&
          got.cols() == want.rows() && same_values(want.transpose(), got, tol))
        m = std::string(p.name) + " is transposed: it has one row per token, (" + p.dims + ").";
      if (m && std::find(mistakes.begin(), mistakes.end(), *m) == mistakes.end())
        mistakes.push_back(*m);
    }
    if (report.empty()) continue;
    std::string tried = call_label(i, calls.size()) + kBackward + "(FQ, FK: " + shape_of(FQ) +
                        ", V, dO: " + shape_of(V) + ", eps = " + fmt(eps) + ")";
    if (!note.empty()) tried += "\n" + note;
    if (e.contains("agreement"))
      tried += "\nThe reference's own two-pass gradients are within " +
               fmt(e.at("agreement").get<double>()) + " of these central differences.";
    std::optional<std::string> mistake;
    for (const std::string& m : mistakes) mistake = mistake ? *mistake + "\n  and: " + m : m;
    return failure(tried, report, mistake);
  }
  return Verdict::pass();
}

const char* const kShapeHint =
    "a shape mismatch. dFQ and dFK have the shape of FQ, (T, d_phi), and dV that of V, (T, d_v); "
    "the running sums S and R are (d_phi, d_v). Where d_phi != d_v a product written the wrong way "
    "round (a state used transposed, dFK and dV mixed up) stops on Eigen's shape check.";

Check grad_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                 std::string note, Tolerance tol = kTight) {
  Check c = make_check(kBackward, name, points, vis, seed,
                       [note, tol](const json& rq, const json& ex, const json& rp) {
                         return judge_backward(note, tol, rq, ex, rp);
                       });
  c.crash_hint = kShapeHint;
  return c;
}

// ---- the memory rule ---------------------------------------------------------------------

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d = kMemD;
  // Two copies of: the three gradients, two more T x d arrays (dO / D per token, the outputs);
  // of four d_phi x d_v states. Then 4 MiB of slack.
  return 2 * 8 * (5 * T * d) + 2 * 8 * 4 * d * d + (4ull << 20);
}

std::string backward_memory_hint(const json& request, std::uint64_t peak) {
  const json& call = request.at("calls").at(0);
  if (!call.contains("FQ") || !call.contains("V")) return "";
  const double T = call["FQ"]["rows"].get<double>(), d_phi = call["FQ"]["cols"].get<double>();
  const double d_v = call["V"]["cols"].get<double>();
  const double tt = T * T * 8, states = T * d_phi * d_v * 8;
  std::ostringstream o;
  o.precision(2);
  o << " For scale, at T = " << static_cast<long long>(T) << ": a T x T matrix of doubles is "
    << mib(tt) << " (the peak is " << peak / tt << " times that), and a state for every token, as "
    << "autograd through the cumulative-sum form keeps, is " << mib(states) << " (" << peak / states
    << " times). Two passes need neither: one forward with S and z, one backward "
    << "with the sums over later tokens.";
  return o.str();
}

Check memory_check() {
  Check c = grad_check("backward/memory-budget", 3.5, Visibility::Visible, 1,
                       "T = 8192 tokens, d_phi = d_v = 64: two passes with running sums, no T x T "
                       "matrix and no state per token.");
  // It judges memory alone: the values are the other checks' business (answer_gate.hpp).
  c.judge = guarded(answers_only({"dFQ", "dFK", "dV"}));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule =
      "8 bytes x 2 copies x (5 T d: the three gradients and two more T x d arrays, such as "
      "dO_t / D_t and the outputs; + 4 states of d_phi x d_v) + 4 MiB of slack = " +
      std::to_string(memory_budget()) +
      " bytes at T = 8192, d_phi = d_v = 64; a T x T matrix of "
      "doubles (512 MiB) or a state for every token (256 MiB) cannot pass";
  c.memory_hint = backward_memory_hint;
  // The runner holds code and four decoded T x 64 inputs before the call; 256 MiB leaves room
  // for the budget and none for 512 MiB of T x T or 256 MiB of per-token states.
  c.limits.address_space_bytes = 256ull << 20;
  return c;
}

std::vector<Check> make_backward_checks() {
  std::vector<Check> checks;
  checks.push_back(
      grad_check("backward/single-token", 2.0, Visibility::Visible, 1,
                 "One token and eps = 0: o_1 = v_1 whatever the features are, so dFQ = dFK = 0 and "
                 "dV = dO."));
  checks.push_back(grad_check(
      "backward/hand-example", 4.0, Visibility::Visible, 1,
      "The textbook's three tokens as features (FQ rows (1,1), (2,1), (1,2); FK rows "
      "(2,1), (1,2), (1,1)), eps = 0. Call 1 takes dO rows (1, 0), the loss being the sum "
      "of the outputs' first coordinates: dFQ = (0, 0), (1/27, -2/27), (1/18, -1/36); "
      "dFK = (173/1296, 154/1296), (-223/1296, -206/1296), (5/144, 10/144); dV = (17/9, 0), "
      "(31/36, 0), (1/4, 0). Call 2 takes dO rows (0, 1)."));
  checks.push_back(
      grad_check("backward/constant-values", 3.0, Visibility::Visible, 1,
                 "Every row of V is the same vector and eps = 0, so every output is that vector "
                 "whatever FQ and FK are: dFQ and dFK must be 0. Leaving out the normalizer's "
                 "derivative breaks exactly that."));
  checks.push_back(
      grad_check("backward/random", 5.0, Visibility::Visible, 1,
                 "Positive features, d_phi != d_v: T = 9, d_phi = 4, d_v = 3, eps = 0, then T = 7, "
                 "d_phi = 3, d_v = 5, eps = 1e-6."));
  checks.push_back(
      grad_check("backward/central-differences", 4.0, Visibility::Visible, 1,
                 "Compared with central differences of the reference's forward pass, computed by "
                 "the grader: (L(x + h) - L(x - h)) / 2h for every entry of FQ, FK and V, "
                 "h = 1e-5, L = sum(O .* dO). T = 5, d_phi = 3, d_v = 2, eps = 0.5, then T = 4, "
                 "d_phi = 2, d_v = 4, eps = 0.",
                 Tolerance{1e-6, 1e-6}));
  checks.push_back(
      grad_check("backward/square-state", 3.0, Visibility::Visible, 1,
                 "d_phi = d_v = 4, T = 10: a state used transposed fits the shapes here, and only "
                 "the values show it."));
  checks.push_back(
      grad_check("backward/large-eps", 2.0, Visibility::Visible, 1,
                 "eps = 10: D_t = z_t . FQ_t + eps in every derivative, as in the forward pass."));
  checks.push_back(memory_check());
  checks.push_back(grad_check("backward/random-hidden", 1.5, Visibility::Hidden, 29, ""));
  // The time rule (checks/shared/time_rule.hpp): at three sizes, each 4 times the last, the
  // cost must grow as the size does, not as its square.
  checks.push_back(linear_time_check(
      kBackward, "backward/linear-time", 2.0, {},
      "computing the gradients takes work for every pair of tokens: for example, for each token "
      "it sums over all later (or earlier) tokens again. Keep running sums instead: S and z "
      "forward in time, R and r backward in time, each updated once per token."));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration backward_checks{"backward", grader::make_backward_checks};
