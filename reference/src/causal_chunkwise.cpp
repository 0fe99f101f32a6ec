// Causal linear attention, chunkwise: the parallel form inside each chunk of tokens, the
// recurrence from one chunk to the next. Nearly all of the work is in a few dense matrix
// products per chunk, so it runs at matrix-multiplication speed while its cost stays linear
// in T (for a fixed chunk size).
#include "linref/attention.hpp"

#include "causal_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace linref {

Matrix causal_chunkwise_from_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                      Eigen::Index chunk, double eps) {
  detail::check_causal_features(FQ, FK, V, "causal_chunkwise_from_features");
  if (chunk < 1) throw std::invalid_argument("causal_chunkwise_from_features: chunk must be >= 1");
  const Eigen::Index T = FQ.rows();
  const Eigen::Index d_phi = FQ.cols();
  const Eigen::Index d_v = V.cols();
  const Eigen::Index C = std::max<Eigen::Index>(1, std::min(chunk, T));

  Matrix O(T, d_v);
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v), all tokens of earlier chunks
  Vector z = Vector::Zero(d_phi);       // z: (d_phi),      likewise
  // Kernel values inside one chunk. Only the lower triangle (s <= t) is ever written or read;
  // the zeros above it are never touched.
  Matrix A = Matrix::Zero(C, C);
  Vector denominator(C);

  for (Eigen::Index start = 0; start < T; start += C) {
    const Eigen::Index c = std::min(C, T - start);  // the last chunk may be shorter
    const auto Qc = FQ.middleRows(start, c);        // (c, d_phi)
    const auto Kc = FK.middleRows(start, c);        // (c, d_phi)
    const auto Vc = V.middleRows(start, c);         // (c, d_v)
    auto Oc = O.middleRows(start, c);               // (c, d_v)
    auto Ac = A.topLeftCorner(c, c);                // (c, c)
    auto dc = denominator.head(c);                  // (c)

    // Within the chunk: the masked quadratic form. Eigen computes only the lower triangle of
    // the product and multiplies by it as a triangular matrix, skipping the masked half.
    Ac.triangularView<Eigen::Lower>() = Qc * Kc.transpose();
    // Numerators: what earlier chunks left in S, plus the chunk's own tokens.
    Oc.noalias() = Qc * S;
    Oc.noalias() += Ac.triangularView<Eigen::Lower>() * Vc;
    // Denominators: the same two parts with every value replaced by 1.
    dc.noalias() = Qc * z;
    dc += Ac.triangularView<Eigen::Lower>() * Vector::Ones(c);
    Oc.array().colwise() /= (dc.array() + eps);

    // Across chunks: fold this chunk into the state for the chunks after it.
    S.noalias() += Kc.transpose() * Vc;
    z.noalias() += Kc.transpose() * Vector::Ones(c);
  }
  return O;
}

Matrix causal_linear_attention_chunkwise(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, Eigen::Index chunk, double eps) {
  return causal_chunkwise_from_features(phi(Q), phi(K), V, chunk, eps);
}

}  // namespace linref
