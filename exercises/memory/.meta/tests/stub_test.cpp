// The memory stub as handed out: the seed's starters K^T V and S q, computed here
// independently by plain loops, and a crosstalk that throws linattn::NotImplemented.
#include "helpers.hpp"
#include "memory.hpp"

using extest::Matrix;
using extest::Vector;

TEST_CASE("stubs/memory: the starters return K^T V and S q") {
  // Keys that are not unit length, so the missing normalization shows.
  Matrix K(3, 2), V(3, 3);
  K << 2, 0, 0, 3, 1, 1;
  V << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Matrix want = Matrix::Zero(2, 3);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want(i, j) += K(s, i) * V(s, j);
  const Matrix S = linattn::write(K, V);
  EX_CHECK_CLOSE(S, want, 0.0);
  CHECK(extest::rel_error(S, linref::memory_write(K, V)) > 0.1);

  Matrix S2(2, 2);
  S2 << 1, 2, 3, 4;
  Vector q(2), want_q(2);
  q << 3, 4;
  want_q << 1 * 3 + 2 * 4, 3 * 3 + 4 * 4;  // S q, neither transposed nor normalized
  const Vector r = linattn::read(S2, q);
  EX_CHECK_CLOSE(r, want_q, 0.0);
  CHECK(extest::rel_error(r, linref::memory_read(S2, q)) > 0.1);
}

TEST_CASE("stubs/memory: crosstalk is not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::crosstalk_energy(Matrix::Identity(3, 3)), "crosstalk_energy");
}
