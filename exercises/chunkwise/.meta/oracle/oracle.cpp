// The oracle of exercise 6, `chunkwise`: each check's calls and what the reference says of
// them, by check name (the checks, and what they tell the student, are in ../checks.cpp).
// Oracle side only: it calls the reference, and no student kit has it.
#include "../sizes.hpp"
#include "causal/.meta/oracle/mistakes.hpp"
#include "checks/shared/time_rule.hpp"
#include "common/wire.hpp"
#include "judge/api_schemas.hpp"
#include "judge/check.hpp"
#include "judge/compare.hpp"
#include "mistakes.hpp"
#include "oracle/makers.hpp"
#include "probes.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

static const api::References chunkwise_reference{
    api::reference("causal_linear_attention_chunkwise", &linref::causal_linear_attention_chunkwise),
};

namespace grader {
namespace {

// ==== oracle: calls, and what the reference says of each ====================================
// The chunked loop with its slips is in oracle/mistakes.*, and most checks'
// calls are made in oracle/probes.*; here, what each slip is called when the
// judge names it, and the memory rule's probe, beside the sizes above.
using namespace chunkwise;

// The slips of eps's place in the denominator, in the order they are tried (none when eps is
// 0: they would give the right outputs).
template <class Add>
void add_eps_slips(const Add& add, double eps) {
  if (eps == 0.0) return;
  Slip s;
  s.eps_times = 0;
  add("eps is not in the denominator; it is added once to each row's denominator, "
      "phi(q_t)^T z + (row sum of the block) + eps.",
      s);
  s = Slip{};
  s.eps_times = 2;
  add("eps is added twice, once to the state's part of the denominator and once to the "
      "chunk's part; it belongs once to their sum.",
      s);
  s = Slip{};
  s.eps_num = eps;
  add("eps is added to the numerator as well; only the denominator gets it.", s);
}

std::vector<Suspect> chunk_suspects(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                    Eigen::Index chunk, double eps) {
  const Eigen::Index T = FQ.rows();
  const Chunking ch = chunking(T, chunk);
  std::vector<Suspect> out;
  auto add = [&](std::string text, const Slip& slip) {
    out.push_back({std::move(text), chunked(FQ, FK, V, chunk, eps, slip)});
  };
  Slip s;
  s.fold_first = true;
  add("the chunk was folded into the state before its own outputs were read, so its tokens "
      "are counted twice (once through S and z, once through the masked block), and its later "
      "tokens leak into earlier outputs through S. Read the state first, then add the chunk to it.",
      s);
  s = Slip{};
  s.strict = true;
  add("the mask inside a chunk drops the diagonal (keeps s < t instead of s <= t), so no token "
      "is part of its own output (with eps = 0 a chunk's first row is 0/0 = NaN). Zero only the "
      "entries above the diagonal of the chunk x chunk block.",
      s);
  s = Slip{};
  s.carry_z = false;
  add("z is not carried across chunks: the denominators count only the chunk's own tokens while "
      "the numerators count all earlier ones through S. Add each chunk's phi(k) rows to z, as you "
      "add its outer products to S.",
      s);
  s = Slip{};
  s.carry_S = false;
  add("S is not carried across chunks: the numerators count only the chunk's own tokens while the "
      "denominators count all earlier ones through z. Add each chunk's phi(K_c)^T V_c to S.",
      s);
  s = Slip{};
  s.carry_S = s.carry_z = false;
  add("neither S nor z is carried across chunks: each chunk attends to its own tokens only. After "
      "a chunk's outputs, add its tokens to the state that the next chunk reads.",
      s);
  if (ch.last < ch.size) {
    s = Slip{};
    s.drop_last = true;
    add("the last, shorter chunk (" + tokens(ch.last) +
            ") was dropped: it was never "
            "computed, so its rows are left at 0. With T not a multiple of chunk, the last chunk "
            "holds "
            "the T - start tokens left over.",
        s);
  }
  out.push_back({chunk >= T
                     ? "nothing was computed: with chunk >= T the whole sequence is one "
                       "chunk of T tokens, but the number of chunks or the chunk's size came "
                       "out as 0 (T / chunk rounds down to 0 when chunk > T, and T mod chunk "
                       "is 0 when chunk = T). Give each chunk min(chunk, T - start) tokens."
                     : "nothing was computed: every row of O is 0.",
                 Matrix::Zero(T, V.cols())});
  s = Slip{};
  s.no_mask = true;
  add("the chunk x chunk block is not masked: inside a chunk, query t also sees the later keys "
      "s > t. Zero the entries above the diagonal.",
      s);
  s = Slip{};
  s.upper = true;
  add("the mask inside a chunk keeps the wrong triangle (s >= t instead of s <= t).", s);
  if (FQ.cols() == V.cols()) {
    s = Slip{};
    s.transposed = true;
    add("the state is read transposed, S phi(q) instead of S^T phi(q) (phi(Q_c) S^T for a chunk); "
        "with d_phi = d_v the shapes fit either way.",
        s);
  }
  add_eps_slips(add, eps);
  // The slips of any causal form (denominators over the wrong axis, no division, ...), but not
  // those with the outputs of a slip worded for chunks above (a strict mask, eps left out):
  // the first match names the mistake, so such a copy could never be named.
  for (Suspect& x : causal::sequence_suspects(FQ, FK, V, eps, causal::Form::Parallel))
    if (!diagnose(x.value, out, kTight)) out.push_back(std::move(x));
  return out;
}

json expect_chunkwise(const json& a) {
  const Matrix Q = wire::to_matrix(a.at("Q")), K = wire::to_matrix(a.at("K")),
               V = wire::to_matrix(a.at("V"));
  const Eigen::Index chunk = a.at("chunk").get<Eigen::Index>();
  const double eps = a.at("eps").get<double>();
  const linref::FeatureMap phi = feature_map(a.at("phi"));
  const Matrix FQ = phi(Q), FK = phi(K);
  return json{
      {"O", wire::from_matrix(linref::causal_linear_attention_chunkwise(Q, K, V, phi, chunk, eps))},
      {"d_phi", FQ.cols()},
      {"suspects", FQ.rows() <= kMaxSuspectTokens
                       ? suspects_json(chunk_suspects(FQ, FK, V, chunk, eps))
                       : json::array()}};
}

json calls_memory(std::uint64_t seed) {
  linref::Rng rng(seed);
  return chunk_calls(
      {random_case(rng, kMemT, kMemD, kMemD, phi_spec("elu_plus_one"), kMemChunk, 0.0, 0.5)});
}

OracleTable make_chunkwise_oracles() {
  return {
      {"chunkwise/hand-example", {calls_hand_example, expect_chunkwise}},
      {"chunkwise/uneven-last-chunk", {calls_uneven_last_chunk, expect_chunkwise}},
      {"chunkwise/chunk-one", {calls_chunk_one, expect_chunkwise}},
      {"chunkwise/chunk-at-least-T", {calls_chunk_at_least_T, expect_chunkwise}},
      {"chunkwise/many-chunk-sizes", {calls_many_chunk_sizes, expect_chunkwise}},
      {"chunkwise/unequal-widths", {calls_unequal_widths, expect_chunkwise}},
      {"chunkwise/constant-values", {calls_constant_values, expect_chunkwise}},
      {"chunkwise/large-eps", {calls_large_eps, expect_chunkwise}},
      {"chunkwise/memory-budget", {calls_memory, expect_chunkwise}},
      {"chunkwise/random-hidden", {calls_random_hidden, expect_chunkwise}},
      {"chunkwise/linear-time", time_rule_oracle({calls_time, time_rule_expect(kChunkwise, "Q")})},
  };
}

}  // namespace
}  // namespace grader

static grader::OracleRegistration chunkwise_oracles{"chunkwise", grader::make_chunkwise_oracles};
