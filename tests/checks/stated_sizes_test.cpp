// A check's note is what the student reads about its inputs: where it states sizes, the request
// must have them (a probe edited without its note, or the other way round, fails here).
#include "fake_runner.hpp"

#include <vector>

namespace {

struct StatedCall {
  long T;      // tokens: rows of Q
  long d_k;    // columns of Q (0: not stated)
  long d_v;    // columns of V (0: not stated)
  long chunk;  // the chunk size asked for (0: the function takes none)
  double eps;  // the eps asked for (negative: not stated)
};

struct StatedSizes {
  const char* exercise;
  const char* check;
  std::vector<StatedCall> calls;  // in the request's order
};

// Each line quotes its check's note (exercises/<ex>/.meta/checks.cpp).
const std::vector<StatedSizes> kStated = {
    // "chunk >= T (T = 8, d_k = 3, d_v = 4 with chunk 8 and 9; T = 5, d_k = 2, d_v = 3 with
    // chunk 1000)"
    {"chunkwise",
     "chunkwise/chunk-at-least-T",
     {{8, 3, 4, 8, -1}, {8, 3, 4, 9, -1}, {5, 2, 3, 1000, -1}}},
    // "One sequence of T = 13 tokens (..., d_v = 4) in chunks of 2, 3, 5, 6 and 12"
    {"chunkwise",
     "chunkwise/many-chunk-sizes",
     {{13, 0, 4, 2, -1},
      {13, 0, 4, 3, -1},
      {13, 0, 4, 5, -1},
      {13, 0, 4, 6, -1},
      {13, 0, 4, 12, -1}}},
    // "Taylor features (d_k = 2, so d_phi = 7; d_v = 3, T = 12, chunks of 5), then random
    // features (d_k = 3, d_phi = 9, d_v = 2, T = 10, chunks of 4)"
    {"chunkwise", "chunkwise/unequal-widths", {{12, 2, 3, 5, -1}, {10, 3, 2, 4, -1}}},
    // "One token (d_k = 3, d_v = 4, gamma = 0.5, eps = 1e-6)"
    {"modern", "decayed/single-token", {{1, 3, 4, 0, 1e-6}}},
};

}  // namespace

TEST_CASE("checks/stated sizes: the sizes a note states are the sizes its request asks for") {
  for (const StatedSizes& s : kStated) {
    const grader::Check& c = fake::check(s.exercise, s.check);
    INFO(s.check);
    const fake::json request = c.request(c.seed);
    const fake::json& calls = request.at("calls");
    REQUIRE(calls.size() == s.calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
      INFO("call " << i + 1);
      const StatedCall& stated = s.calls[i];
      CHECK(calls[i].at("Q").at("rows").get<long>() == stated.T);
      if (stated.d_k) CHECK(calls[i].at("Q").at("cols").get<long>() == stated.d_k);
      if (stated.d_v) CHECK(calls[i].at("V").at("cols").get<long>() == stated.d_v);
      if (stated.chunk) CHECK(calls[i].at("chunk").get<long>() == stated.chunk);
      if (stated.eps >= 0) CHECK(calls[i].at("eps").get<double>() == stated.eps);
    }
  }
}
