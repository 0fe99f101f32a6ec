// Causal linear attention, chunkwise: the parallel form inside each chunk of tokens, the
// recurrence from one chunk to the next. Nearly all of the work is in a few dense matrix
// products per chunk, so it runs at matrix-multiplication speed while its cost stays linear
// in T (for a fixed chunk size).
#include "linref/attention.hpp"

#include "causal_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace linref {

namespace {

using ConstRows = Eigen::Ref<const Matrix>;
using Rows = Eigen::Ref<Matrix>;

// Tokens are copied this many at a time (rounded to whole chunks) into compact matrices. The
// inputs are column-major (T, d): the rows of one chunk lie in d pieces, T doubles apart, and
// when T is a power of two all those pieces fall into the same few cache sets. Every product
// of a chunk then reads compact memory, and the copy itself reads long runs the hardware
// prefetcher can follow.
constexpr Eigen::Index kSlabRows = 128;

// What carries over from chunk to chunk, and scratch reused by every chunk.
struct ChunkState {
  Matrix S;                    // (d_phi, d_v): all tokens of earlier chunks
  Vector z;                    // (d_phi):      likewise
  Matrix A;                    // (C, C): kernel values inside a chunk; only the lower
                               // triangle is ever written, the rest stays zero
  Vector inverse_denominator;  // (C)
};

// One chunk: Oc gets the chunk's outputs, from the earlier chunks' S and z and the chunk's
// own tokens; then the chunk is folded into S and z.
void chunk_step(const ConstRows& Qc, const ConstRows& Kc, const ConstRows& Vc, double eps,
                ChunkState& state, Rows Oc) {
  const Eigen::Index c = Qc.rows();
  auto Ac = state.A.topLeftCorner(c, c);                 // (c, c)
  auto inverse_den = state.inverse_denominator.head(c);  // (c)

  // Within the chunk: the masked quadratic form. Eigen computes only the lower triangle of
  // the product and multiplies by it as a triangular matrix, skipping the masked half.
  Ac.triangularView<Eigen::Lower>() = Qc * Kc.transpose();
  // Numerators: what earlier chunks left in S, plus the chunk's own tokens.
  Oc.noalias() = Qc * state.S;
  Oc.noalias() += Ac.triangularView<Eigen::Lower>() * Vc;
  // Denominators: the same two parts with every value replaced by 1 (a row sum of Ac is the
  // sum of its lower triangle). One division per row; the entries are multiplied.
  inverse_den.noalias() = Qc * state.z;
  inverse_den += Ac.rowwise().sum();
  inverse_den = (inverse_den.array() + eps).inverse().matrix();
  Oc.array().colwise() *= inverse_den.array();

  // Across chunks: fold this chunk into the state for the chunks after it.
  state.S.noalias() += Kc.transpose() * Vc;
  state.z += Kc.colwise().sum().transpose();
}

}  // namespace

Matrix causal_chunkwise_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                      Eigen::Index chunk, double eps) {
  detail::check_causal_features(FQ, FK, V, "causal_chunkwise_from_features");
  if (chunk < 1) throw std::invalid_argument("causal_chunkwise_from_features: chunk must be >= 1");
  const Eigen::Index T = FQ.rows();
  const Eigen::Index d_phi = FQ.cols();
  const Eigen::Index d_v = V.cols();
  const Eigen::Index C = std::max<Eigen::Index>(1, std::min(chunk, T));
  const Eigen::Index slab = std::max<Eigen::Index>(1, kSlabRows / C) * C;  // whole chunks

  Matrix O(T, d_v);
  ChunkState state{Matrix::Zero(d_phi, d_v), Vector::Zero(d_phi), Matrix::Zero(C, C), Vector(C)};
  Matrix Q_slab, K_slab, V_slab, O_slab;  // compact copies of `slab` rows, (n, d)

  for (Eigen::Index slab_start = 0; slab_start < T; slab_start += slab) {
    const Eigen::Index n = std::min(slab, T - slab_start);  // the last slab may be shorter
    Q_slab = FQ.middleRows(slab_start, n);
    K_slab = FK.middleRows(slab_start, n);
    V_slab = V.middleRows(slab_start, n);
    O_slab.resize(n, d_v);
    for (Eigen::Index start = 0; start < n; start += C) {
      const Eigen::Index c = std::min(C, n - start);  // the last chunk may be shorter
      chunk_step(Q_slab.middleRows(start, c), K_slab.middleRows(start, c),
                 V_slab.middleRows(start, c), eps, state, O_slab.middleRows(start, c));
    }
    O.middleRows(slab_start, n) = O_slab;
  }
  return O;
}

Matrix causal_linear_attention_chunkwise(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, Eigen::Index chunk, double eps) {
  return causal_chunkwise_from_features(phi(Q), phi(K), V, chunk, eps);
}

}  // namespace linref
