// A check's note is what the student reads about its inputs: where it states sizes, the request
// must have them (a probe edited without its note, or the other way round, fails here).
#include "fake_runner.hpp"

#include <vector>

namespace {

struct StatedCall {
  long T;      // tokens: rows of Q
  long d_v;    // columns of V (0: not stated)
  long chunk;  // the chunk size asked for
};

struct StatedSizes {
  const char* exercise;
  const char* check;
  std::vector<StatedCall> calls;  // in the request's order
};

// Each line quotes its check's note (exercises/<ex>/.meta/checks.cpp).
const std::vector<StatedSizes> kStated = {
    // "chunk >= T (T = 8 with chunk 8 and 9, T = 5 with chunk 1000)"
    {"chunkwise", "chunkwise/chunk-at-least-T", {{8, 0, 8}, {8, 0, 9}, {5, 0, 1000}}},
    // "One sequence of T = 13 tokens (..., d_v = 4) in chunks of 2, 3, 5, 6 and 12"
    {"chunkwise",
     "chunkwise/many-chunk-sizes",
     {{13, 4, 2}, {13, 4, 3}, {13, 4, 5}, {13, 4, 6}, {13, 4, 12}}},
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
      CHECK(calls[i].at("Q").at("rows").get<long>() == s.calls[i].T);
      CHECK(calls[i].at("chunk").get<long>() == s.calls[i].chunk);
      if (s.calls[i].d_v) CHECK(calls[i].at("V").at("cols").get<long>() == s.calls[i].d_v);
    }
  }
}
