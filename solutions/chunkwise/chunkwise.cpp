// BEGIN SOLUTION
// Verified solution of exercise 6 (core): causal linear attention, chunkwise.
// The stub exercises/chunkwise/chunkwise.cpp is generated from this file (see
// tests/exercises/README.md).
// END SOLUTION
// STUB: // Exercise 6 (core): the chunkwise form of causal linear attention. The hand-out is
// STUB: // README.md next to this file. Replace the `throw` with your code; chunkwise.hpp belongs to
// STUB: // the kit and stays as it is.
// STUB: // Parameter names are commented out only so that the unfinished file compiles without
// STUB: // warnings: restore a name when you use it.
#include "chunkwise.hpp"

#include <algorithm>

namespace linattn {

// BEGIN SOLUTION
Matrix causal_linear_attention_chunkwise(const Matrix& Q, const Matrix& K, const Matrix& V,
                                         const FeatureMap& phi, Eigen::Index chunk, double eps) {
  const Matrix FQ = phi(Q);  // (T, d_phi)
  const Matrix FK = phi(K);  // (T, d_phi)
  const Eigen::Index T = V.rows();
  const Eigen::Index d_phi = FK.cols();
  const Eigen::Index d_v = V.cols();

  // Everything the chunks before the current one wrote; nothing before the first.
  Matrix S = Matrix::Zero(d_phi, d_v);  // S: (d_phi, d_v)
  Vector z = Vector::Zero(d_phi);       // z: (d_phi)
  Matrix O(T, d_v);
  for (Eigen::Index start = 0; start < T; start += chunk) {
    // The last chunk takes what is left; a chunk >= T is a single chunk of T tokens.
    const Eigen::Index c = std::min(chunk, T - start);
    const Matrix Qc = FQ.middleRows(start, c);  // (c, d_phi)
    const Matrix Kc = FK.middleRows(start, c);  // (c, d_phi)
    const Matrix Vc = V.middleRows(start, c);   // (c, d_v)

    // Inside the chunk, query t sees key s when s <= t: the diagonal stays.
    Matrix A = Qc * Kc.transpose();  // (c, c)
    A.triangularView<Eigen::StrictlyUpper>().setZero();

    // Earlier chunks arrive through the state, this chunk's own tokens through A.
    const Matrix numerator = Qc * S + A * Vc;               // (c, d_v)
    const Vector denominator = Qc * z + A.rowwise().sum();  // (c)
    O.middleRows(start, c) = numerator.array().colwise() / (denominator.array() + eps);

    // Only after its own outputs does the chunk join the state, for the chunks after it.
    S += Kc.transpose() * Vc;
    z += Kc.colwise().sum().transpose();
  }
  return O;
}
// END SOLUTION
// STUB: Matrix causal_linear_attention_chunkwise(const Matrix& /*Q*/, const Matrix& /*K*/,
// STUB:                                          const Matrix& /*V*/, const FeatureMap& /*phi*/,
// STUB:                                          Eigen::Index /*chunk*/, double /*eps*/) {
// STUB:   throw NotImplemented("causal_linear_attention_chunkwise");
// STUB: }

}  // namespace linattn
