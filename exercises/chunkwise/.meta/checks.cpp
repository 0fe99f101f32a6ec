// Checks of exercise 6, `chunkwise` (35 points): causal linear attention computed chunk by
// chunk: 29 points for the values, 4 for the memory rule, 2 for the time rule (shared by every
// linear-time form, grader/checks/shared/time_rule.hpp). The expected outputs and the outputs of
// the usual slips come from the reference, in oracle/ (the slipped copies of the
// chunked loop are in oracle/mistakes.cpp, most checks' calls in
// oracle/probes.cpp).
//
// The output must equal exercise 2's for every chunk >= 1, so each probe runs several chunk
// sizes, T is mostly not a multiple of the chunk, and d_phi differs from d_v where a
// transposed state would otherwise go unseen. A wrong answer is named when it matches one of
// the usual slips (the state folded in before the chunk's own product, a strict mask inside
// the chunk, z not carried, ...); failing that, the judge says which chunks are wrong (only
// the last one, or every one after the first), which points at the same places.
//
// This file is the judge: the checks, what each asks and tells the student. The API
// description is in api.cpp; the oracle (calls, the reference's answers, slipped copies)
// in oracle/, joined with the checks by name; no student kit has oracle/.
#include "checks/shared/answer_gate.hpp"
#include "checks/shared/feature_map_specs.hpp"
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

std::string describe_chunking(Eigen::Index T, Eigen::Index chunk) {
  const Chunking c = chunking(T, chunk);
  std::string s = "T = " + tokens(T) + ", chunk = " + std::to_string(chunk) + ": ";
  if (c.n == 1) return s + "a single chunk of " + tokens(T);
  s += std::to_string(c.n) + " chunks";
  if (c.last == c.size) return s + " of " + tokens(c.size);
  return s + ", " + std::to_string(c.n - 1) + " of " + tokens(c.size) + " and a last one of " +
         tokens(c.last);
}

// When no named slip matches: which rows are wrong, said in chunks. Rows are counted from 0,
// as in the comparison's report.
std::optional<std::string> chunk_pattern(const Matrix& expected, const Matrix& got,
                                         Eigen::Index chunk) {
  const Eigen::Index T = expected.rows();
  const Chunking c = chunking(T, chunk);
  const Eigen::Index last_start = (c.n - 1) * c.size;
  if (got.cols() == expected.cols() && got.rows() < T && got.rows() == last_start &&
      same_values(expected.topRows(last_start), got, kTight))
    return "the output stops after " + std::to_string(last_start) + " rows: the last chunk (" +
           tokens(c.last) +
           ") was left out. Run the loop while start < T and give "
           "each chunk min(chunk, T - start) tokens.";
  if (got.rows() != T || got.cols() != expected.cols()) return std::nullopt;
  Eigen::Index first_wrong = T;
  for (Eigen::Index t = 0; t < T && first_wrong == T; ++t)
    if (!same_values(expected.row(t), got.row(t), kTight)) first_wrong = t;
  if (first_wrong == T || c.n < 2) return std::nullopt;
  if (first_wrong >= last_start)
    return "every row before the last chunk is right, and rows " + std::to_string(last_start) +
           ".." + std::to_string(T - 1) + " (the last chunk, " + tokens(c.last) +
           ") are not: the last chunk was dropped or given the wrong size. It holds "
           "min(chunk, T - start) tokens, which is a full chunk when chunk divides T (T mod chunk "
           "is then 0) and the T - start tokens left over when it does not.";
  if (first_wrong >= c.size)
    return "the first chunk (rows 0.." + std::to_string(c.size - 1) + ") is right and row " +
           std::to_string(first_wrong) + " of chunk " + std::to_string(first_wrong / c.size + 1) +
           " is the first wrong one: what a chunk takes from the chunks before it is wrong. The "
           "state S and the normalizer z must both hold every token of every earlier chunk when a "
           "chunk reads them, and the chunk itself is added only after its outputs are written.";
  return std::nullopt;
}

// expected per call: {"O": (T, d_v), "d_phi", "suspects"}
Verdict judge_chunkwise(const std::string& note, const json& request, const json& expected_all,
                        const json& reply) {
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const json& a = calls[i];
    const json& e = expected_of(request, expected_all, i);
    const Matrix Q = wire::to_matrix(a.at("Q")), V = wire::to_matrix(a.at("V"));
    const Eigen::Index chunk = a.at("chunk").get<Eigen::Index>();
    const double eps = a.at("eps").get<double>();
    const Matrix expected = wire::to_matrix(e.at("O"));
    const Matrix got = wire::to_matrix(result_of(request, reply, i).at("O"));
    const Comparison cmp = compare_matrices(expected, got, kTight, "O", "T x d_v");
    if (cmp.ok) continue;

    std::string tried = call_label(i, calls.size()) + kChunkwise + "(Q, K: " + shape_of(Q) +
                        ", V: " + shape_of(V) + ", phi = " + describe_phi(a.at("phi")) +
                        " with d_phi = " + std::to_string(e.at("d_phi").get<long>()) +
                        ", chunk = " + std::to_string(chunk) + ", eps = " + fmt(eps) + ")\n" +
                        describe_chunking(Q.rows(), chunk) + ".";
    if (!note.empty()) tried += "\n" + note;
    std::optional<std::string> mistake = diagnose(got, e.at("suspects"), kTight);
    if (!mistake) mistake = chunk_pattern(expected, got, chunk);
    if (!mistake) mistake = cmp.unwritten;  // rows left as allocated
    if (!mistake && !cmp.shape_ok && got.rows() == V.cols() && got.cols() == V.rows())
      mistake = "the output is transposed; it has one row per token, (T, d_v).";
    return failure(tried, cmp.report, mistake);
  }
  return Verdict::pass();
}

const char* const kShapeHint =
    "a shape mismatch. Most often the state used transposed: S is (d_phi, d_v), built from "
    "phi(K_c)^T V_c, and read as phi(Q_c) S; with d_phi = d_v the shapes fit either way. Or a "
    "block "
    "of rows taken past the end of Q, K or V: the last chunk holds only T - start tokens.";

Check chunk_check(const std::string& name, double points, Visibility vis, std::uint64_t seed,
                  std::string note, std::string crash_hint = kShapeHint) {
  Check c = make_check(kChunkwise, name, points, vis, seed,
                       [note](const json& rq, const json& ex, const json& rp) {
                         return judge_chunkwise(note, rq, ex, rp);
                       });
  c.crash_hint = std::move(crash_hint);
  return c;
}

// ---- the memory rule ---------------------------------------------------------------------

std::uint64_t memory_budget() {
  const std::uint64_t T = kMemT, d = kMemD, C = kMemChunk;
  // Two copies of: phi(Q), phi(K), the output and one more T x d array; of one state per
  // chunk and four more; of four chunk x chunk blocks. Then 4 MiB of slack.
  return 2 * 8 * (4 * T * d) + 2 * 8 * (T / C + 4) * d * d + 2 * 8 * 4 * C * C + (4ull << 20);
}

std::string memory_rule_text() {
  return "8 bytes x 2 copies x (2 T d_phi + T d_v + T d_k: phi(Q), phi(K), the output and one "
         "more T x d array; + (T/chunk + 4) states of d_phi x d_v: one per chunk, as the "
         "textbook's table allows, and four more; + 4 blocks of chunk x chunk) + 4 MiB of slack "
         "= " +
         std::to_string(memory_budget()) +
         " bytes at T = 8192, d_k = d_phi = d_v = 64, chunk = 64. "
         "A T x T matrix of doubles (512 MiB) or a state for every token (T x d_phi x d_v, "
         "256 MiB) cannot pass";
}

// What a peak of that size looks like here: T x T matrices, per-token states, per-chunk states.
std::string chunkwise_memory_hint(const json& request, std::uint64_t peak) {
  const json& call = request.at("calls").at(0);
  if (!call.contains("Q") || !call.contains("V") || !call.contains("chunk")) return "";
  const double T = call["Q"]["rows"].get<double>(), d_k = call["Q"]["cols"].get<double>();
  const double d_v = call["V"]["cols"].get<double>(), chunk = call["chunk"].get<double>();
  const double tt = T * T * 8, per_token = T * d_k * d_v * 8,
               per_chunk = (T / chunk) * d_k * d_v * 8;
  std::ostringstream o;
  o.precision(2);
  o << " For scale, at T = " << static_cast<long long>(T) << ": a T x T matrix of doubles is "
    << mib(tt) << " (the peak is " << peak / tt << " times that), a state for every token is "
    << mib(per_token) << " (" << peak / per_token << " times), and a state for every chunk, which "
    << "is allowed, is " << mib(per_chunk) << ". Build only one chunk x chunk block at a time and "
    << "carry one state from chunk to chunk.";
  return o.str();
}

Check memory_check() {
  Check c = chunk_check("chunkwise/memory-budget", 4.0, Visibility::Visible, 1,
                        "T = 8192 tokens, d_k = d_v = 64, elu+1, chunks of 64: one chunk x chunk "
                        "block at a time, the state carried across.");
  // It judges memory alone: the values are the other checks' business (answer_gate.hpp).
  c.judge = guarded(answers_only({"O"}));
  c.heap_budget_bytes = memory_budget();
  c.heap_budget_rule = memory_rule_text();
  c.memory_hint = chunkwise_memory_hint;
  // The heap meter is the message; the kernel's address-space limit is the guarantee. The
  // runner holds about 100 MiB before the call (code and decoded inputs): 240 MiB leaves room
  // for the budget, and none for 512 MiB of T x T or 256 MiB of per-token states.
  c.limits.address_space_bytes = 240ull << 20;
  return c;
}

std::vector<Check> make_chunkwise_checks() {
  std::vector<Check> checks;
  checks.push_back(
      chunk_check("chunkwise/hand-example", 4.0, Visibility::Visible, 1,
                  "The textbook's three tokens with elu+1 and eps = 0, in chunks of 1, 2, 3 and 4; "
                  "every chunk size gives the same outputs, (1, 0), (5/9, 4/9) = (0.5555555556, "
                  "0.4444444444) and (7/12, 2/3) = (0.5833333333, 0.6666666667)."));
  checks.push_back(
      chunk_check("chunkwise/uneven-last-chunk", 5.0, Visibility::Visible, 1,
                  "T is not a multiple of chunk: T = 10 in chunks of 4, T = 11 in chunks of 3, "
                  "T = 7 in chunks of 6; the last chunk is shorter than the others.",
                  "a block of rows taken past the end of Q, K or V: the last chunk holds only the "
                  "T - start tokens left over, min(chunk, T - start)."));
  checks.push_back(
      chunk_check("chunkwise/chunk-one", 3.0, Visibility::Visible, 1,
                  "chunk = 1 (T = 9, then T = 1): every chunk is one token, and the chunkwise form "
                  "is the recurrence itself; the 1 x 1 block is the token's own kernel value."));
  checks.push_back(
      chunk_check("chunkwise/chunk-at-least-T", 3.0, Visibility::Visible, 1,
                  "chunk >= T (T = 8, d_k = 3, d_v = 4 with chunk 8 and 9; T = 5, d_k = 2, d_v = 3 "
                  "with chunk 1000): one chunk holds the whole sequence, and the chunkwise form "
                  "is the parallel form.",
                  "with chunk >= T a block of `chunk` rows runs past the end of Q, K or V: the one "
                  "chunk holds T tokens, min(chunk, T - start)."));
  checks.push_back(
      chunk_check("chunkwise/many-chunk-sizes", 4.0, Visibility::Visible, 1,
                  "One sequence of T = 13 tokens (positive random features, d_phi = 6, d_v = 4) in "
                  "chunks of 2, 3, 5, 6 and 12: the output is the same every time."));
  checks.push_back(chunk_check(
      "chunkwise/unequal-widths", 4.0, Visibility::Visible, 1,
      "d_phi != d_v: Taylor features (d_k = 2, so d_phi = 7; d_v = 3, T = 12, chunks of "
      "5), then random features (d_k = 3, d_phi = 9, d_v = 2, T = 10, chunks of 4). "
      "A state used transposed cannot fit."));
  checks.push_back(
      chunk_check("chunkwise/constant-values", 2.5, Visibility::Visible, 1,
                  "Every row of V is the same vector, eps = 0, T = 12 in chunks of 5. Each output "
                  "is a weighted average whose weights add up to one, so every row of O must be "
                  "that vector, provided S and z count the same tokens."));
  checks.push_back(
      chunk_check("chunkwise/large-eps", 2.0, Visibility::Visible, 1,
                  "eps = 10 (T = 9, chunks of 4): eps is added once to each row's whole "
                  "denominator, phi(q_t)^T z + (the row's sum in the block) + eps."));
  checks.push_back(memory_check());
  checks.push_back(chunk_check("chunkwise/random-hidden", 1.5, Visibility::Hidden, 23, ""));
  // The time rule (checks/shared/time_rule.hpp): at three sizes, each 4 times the last, the
  // cost must grow as the size does, not as its square.
  checks.push_back(linear_time_check(
      kChunkwise, "chunkwise/linear-time", 2.0, {},
      "the form does work for every pair of tokens, for example it rebuilds the state from all "
      "earlier chunks for each new chunk, or masks a T x T matrix. Carry S and z from one chunk "
      "to the next and fold each chunk in once, after its outputs."));
  return checks;
}

}  // namespace
}  // namespace grader

static grader::ChecksRegistration chunkwise_checks{"chunkwise", grader::make_chunkwise_checks};
