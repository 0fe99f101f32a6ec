// The Taylor stub as handed out: the first-order starter [1, x], computed here independently,
// and two counts that throw linattn::NotImplemented.
#include "helpers.hpp"
#include "taylor.hpp"

using extest::Matrix;

TEST_CASE("stubs/taylor: the starter returns [1, x] (first order only)") {
  Matrix X(2, 2);
  X << 1, 2, 3, 1;  // the seed's q and k
  Matrix want(2, 3);
  want << 1, 1, 2, 1, 3, 1;
  EX_CHECK_CLOSE(linattn::taylor_features(X), want, 0.0);
  linref::Rng rng(2);
  const Matrix Y = rng.normal_matrix(5, 4);
  Matrix want_y(5, 5);
  for (int i = 0; i < 5; ++i) {
    want_y(i, 0) = 1.0;
    for (int c = 0; c < 4; ++c) want_y(i, 1 + c) = Y(i, c);
  }
  EX_CHECK_CLOSE(linattn::taylor_features(Y), want_y, 0.0);
}

TEST_CASE("stubs/taylor: the two counts are not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::taylor_state_bytes(16, 64, 1), "taylor_state_bytes");
  EX_CHECK_NOT_IMPLEMENTED(linattn::kv_cache_tokens(4096, 8, 128), "kv_cache_tokens");
}
