// Where the oracle stops working out suspects: up to kMaxSuspectTokens tokens it names a
// student's mistake, beyond it (the memory and time rules' long calls) it sends none. The
// boundary is inclusive, as diagnosis.hpp states it: a call of exactly kMaxSuspectTokens tokens
// still gets its diagnosis.
#include "fake_runner.hpp"
#include "judge/diagnosis.hpp"

#include <string>
#include <vector>

namespace {

struct Reach {
  const char* exercise;
  const char* check;  // a check whose first call is grown to the tokens asked for
};

const std::vector<Reach> kReach = {
    {"causal", "recurrent/random-features"},
    {"causal", "parallel/random-features"},
    {"chunkwise", "chunkwise/uneven-last-chunk"},
    {"backward", "backward/random"},
};

// The first call of `c`'s request with every per-token matrix (the rows of its first matrix)
// replaced by `tokens` rows of values in [0.1, 1]: positive, so no denominator is near zero.
fake::json grown_call(const grader::Check& c, long tokens) {
  fake::json call = c.request(c.seed).at("calls").at(0);
  long T = -1;
  linref::Rng rng(7);
  for (auto it = call.begin(); it != call.end(); ++it) {
    if (!it->is_object() || !it->contains("rows") || !it->contains("cols")) continue;
    const long rows = it->at("rows").get<long>();
    if (T < 0) T = rows;
    if (rows != T) continue;
    fake::Matrix m(tokens, it->at("cols").get<long>());
    for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = 0.1 + 0.9 * rng.uniform();
    *it = wire::from_matrix(m);
  }
  REQUIRE(T > 0);
  return call;
}

// Whether the expected values of a one-call request carry at least one named mistake.
bool has_suspects(const grader::Check& c, const fake::json& call) {
  const fake::json expected = c.expect(fake::json{{"calls", fake::json::array({call})}});
  const fake::json& e = expected.at("calls").at(0);
  if (!e.contains("suspects")) return false;
  const fake::json& s = e.at("suspects");
  if (s.is_array()) return !s.empty();
  for (auto it = s.begin(); it != s.end(); ++it)
    if (!it->empty()) return true;
  return false;
}

}  // namespace

TEST_CASE("checks/suspects reach: named up to kMaxSuspectTokens tokens, inclusive, none beyond") {
  for (const Reach& r : kReach) {
    const grader::Check& c = fake::check(r.exercise, r.check);
    INFO(std::string(r.check));
    CHECK(has_suspects(c, grown_call(c, grader::kMaxSuspectTokens)));
    CHECK_FALSE(has_suspects(c, grown_call(c, grader::kMaxSuspectTokens + 1)));
  }
}
