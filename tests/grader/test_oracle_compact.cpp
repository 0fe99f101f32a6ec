// The student kit's compact recording (grader/src/engine/oracle_compact.hpp): large calls kept as
// pools of tokens and rebuilt the same way every time, large expected matrices kept as some
// rows and checksums of every row, and the judge that completes them from a reply.
#include <doctest/doctest.h>

#include "common/wire.hpp"
#include "src/engine/oracle_compact.hpp"
#include "src/judge/numeric_comparison.hpp"

#include <cmath>
#include <limits>

using grader::json;

namespace {

// A (rows x cols) matrix as the wire carries it, entry (r, c) = f(r, c).
template <class F>
json matrix(std::size_t rows, std::size_t cols, F f) {
  json data = json::array();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) data.push_back(f(r, c));
  return json{{"rows", rows}, {"cols", cols}, {"data", data}};
}

double smooth(std::size_t r, std::size_t c) {
  return std::sin(0.37 * static_cast<double>(r) + 1.3 * static_cast<double>(c));
}

// One call of 8192 tokens: Q (T x 16), a gate per token, a 16-vector that is not per token, a
// scalar. 8192 x 17 numbers: a large call.
json large_request() {
  json call{{"Q", matrix(8192, 16, smooth)},
            {"f", json::array()},
            {"gain", json::array()},
            {"eps", 1e-6}};
  for (int t = 0; t < 8192; ++t) call["f"].push_back(0.5 + 0.001 * (t % 97));
  for (int j = 0; j < 16; ++j) call["gain"].push_back(1.0 + j);
  json small{{"Q", matrix(4, 3, smooth)}, {"eps", 0.0}};
  return json{{"function", "f"}, {"calls", json::array({small, call})}};
}

// Expected values with one large output (O, 4096 x 16) and a small one, and a reply that matches.
json large_expected() {
  return json{{"calls", json::array({json{{"O", matrix(4096, 16, smooth)}, {"d_phi", 16}}})}};
}
json reply_with(json O) { return json{{"results", json::array({json{{"O", std::move(O)}}})}}; }

// A judge as the checks write them: every entry of O within kTight.
grader::Check matrix_check() {
  grader::Check c;
  c.function = std::string("f");  // not = "f": GCC 12 warns falsely (-Wrestrict) on that at -O2
  c.judge = [](const json&, const json& expected, const json& reply) {
    const auto e = wire::to_matrix(expected.at("calls").at(0).at("O"));
    const auto g = wire::to_matrix(reply.at("results").at(0).at("O"));
    const auto cmp = grader::compare_matrices(e, g, grader::kTight, "O");
    return cmp.ok ? grader::Verdict::pass() : grader::Verdict::fail(cmp.report);
  };
  return c;
}

}  // namespace

TEST_CASE(
    "oracle compact: a large call is recorded as a pool and rebuilt the same way every time") {
  const json request = large_request();
  const json shrunk = grader::shrink_request(request, 7);
  CHECK(json::to_cbor(shrunk).size() * 20 < json::to_cbor(request).size());
  CHECK(shrunk["calls"][0] == request["calls"][0]);  // a small call stays as it is
  const json& pooled = shrunk["calls"][1];
  CHECK(pooled["Q"]["rows"] == grader::kPoolTokens);
  CHECK(pooled["f"].size() == grader::kPoolTokens);
  CHECK(pooled["gain"] == request["calls"][1]["gain"]);  // not per token: kept whole

  const json full = grader::expand_request(shrunk);
  CHECK(full == grader::expand_request(shrunk));  // the same doubles every time
  const json& call = full["calls"][1];
  CHECK_FALSE(call.contains("$pool"));
  REQUIRE(call["Q"]["rows"] == 8192);
  REQUIRE(call["f"].size() == 8192);
  CHECK(call["eps"] == 1e-6);
  const json& Q = call["Q"]["data"];
  const json& original = request["calls"][1]["Q"]["data"];
  for (std::size_t i = 0; i < grader::kPoolTokens * 16; ++i) REQUIRE(Q[i] == original[i]);
  // Every later token is a pool token, Q's row and f's entry the same one, and the pools are
  // not just repeated in order.
  std::size_t in_order = 0;
  for (std::size_t t = grader::kPoolTokens; t < 8192; ++t) {
    std::size_t found = grader::kPoolTokens;
    for (std::size_t p = 0; p < grader::kPoolTokens && found == grader::kPoolTokens; ++p)
      if (Q[t * 16] == original[p * 16] && Q[t * 16 + 15] == original[p * 16 + 15]) found = p;
    REQUIRE(found < grader::kPoolTokens);
    REQUIRE(call["f"][t] == request["calls"][1]["f"][found]);
    in_order += found == t % grader::kPoolTokens;
  }
  CHECK(in_order < 500);
  // Another check's salt: another order.
  CHECK(grader::expand_request(grader::shrink_request(request, 8)) != full);
}

TEST_CASE("oracle compact: a request with no large call passes through unchanged") {
  json request = large_request();
  request["calls"].erase(1);
  CHECK(grader::shrink_request(request, 7) == request);
  CHECK(grader::expand_request(request) == request);
}

TEST_CASE(
    "oracle compact: a large expected matrix keeps some rows and the checksums of every row") {
  const json expected = large_expected();
  const json shrunk = grader::shrink_expected(expected);
  CHECK(grader::has_shrunk_values(shrunk));
  CHECK_FALSE(grader::has_shrunk_values(expected));
  CHECK(json::to_cbor(shrunk).size() * 4 < json::to_cbor(expected).size());
  CHECK(shrunk["calls"][0]["d_phi"] == 16);

  SUBCASE("the right reply: no mismatch, and the judge sees the whole matrix") {
    const auto done = grader::complete_expected(shrunk, reply_with(expected["calls"][0]["O"]));
    CHECK(done.mismatches.empty());
    CHECK(done.expected == expected);
  }
  SUBCASE("a row that is not kept, wrong by 1e-4: named") {
    json O = expected["calls"][0]["O"];
    O["data"][5 * 16 + 3] = O["data"][5 * 16 + 3].get<double>() + 1e-4;
    const auto done = grader::complete_expected(shrunk, reply_with(O));
    REQUIRE(done.mismatches.size() == 1);
    CHECK(done.mismatches[0].find("O: 1 of its 4096 rows") == 0);
    CHECK(done.mismatches[0].find("row 5,") != std::string::npos);
  }
  SUBCASE("two entries of a row swapped: the weighted sum sees it") {
    json O = expected["calls"][0]["O"];
    std::swap(O["data"][9 * 16 + 1], O["data"][9 * 16 + 2]);
    CHECK(grader::complete_expected(shrunk, reply_with(O)).mismatches.size() == 1);
  }
  SUBCASE("rounding noise far below the tolerance passes") {
    json O = expected["calls"][0]["O"];
    for (auto& x : O["data"]) x = x.get<double>() * (1 + 1e-13);
    CHECK(grader::complete_expected(shrunk, reply_with(O)).mismatches.empty());
  }
  SUBCASE("NaN in a row that is not kept: named") {
    json O = expected["calls"][0]["O"];
    O["data"][100 * 16] = std::numeric_limits<double>::quiet_NaN();
    CHECK(grader::complete_expected(shrunk, reply_with(O)).mismatches.size() == 1);
  }
  SUBCASE("the wrong shape: left to the judge, which reports it") {
    const auto done = grader::complete_expected(shrunk, reply_with(matrix(16, 4096, smooth)));
    CHECK(done.mismatches.empty());
    CHECK(done.expected["calls"][0]["O"]["rows"] == 4096);
    // Still a whole 4096 x 16 matrix for the judge to read: the kept rows as they were, the
    // others NaN (never read: the judge stops at the shape).
    const json& data = done.expected["calls"][0]["O"]["data"];
    REQUIRE(data.size() == 4096 * 16);
    CHECK(data[0] == expected["calls"][0]["O"]["data"][0]);
    std::size_t nan = 0;
    for (const auto& x : data)
      if (x.is_number() && std::isnan(x.get<double>())) ++nan;
    CHECK(nan > 0);
    CHECK(nan % 16 == 0);
  }
}

TEST_CASE(
    "oracle compact: judging shrunk values: kept rows by the judge, the others by their "
    "checksums") {
  const json expected = large_expected();
  const json shrunk = grader::shrink_expected(expected);
  const grader::Check check = matrix_check();
  const json request = json{{"function", "f"}, {"calls", json::array({json::object()})}};
  const json right = expected["calls"][0]["O"];

  CHECK(grader::judge_shrunk(check, request, shrunk, reply_with(right)).passed);

  json off_kept = right;  // row 64 is kept: the judge's own message, and the note
  off_kept["data"][64 * 16] = off_kept["data"][64 * 16].get<double>() + 0.5;
  const auto v1 = grader::judge_shrunk(check, request, shrunk, reply_with(off_kept));
  CHECK_FALSE(v1.passed);
  CHECK(v1.message.find("[64,0]") != std::string::npos);
  CHECK(v1.message.find("two sums each") != std::string::npos);

  json off_other = right;  // row 65 is not kept: the judge passes it, the checksums do not
  off_other["data"][65 * 16] = off_other["data"][65 * 16].get<double>() + 0.5;
  const auto v2 = grader::judge_shrunk(check, request, shrunk, reply_with(off_other));
  CHECK_FALSE(v2.passed);
  CHECK(v2.message.find("row 65,") != std::string::npos);

  // A time check's reply comes packed (wire::pack, as the runner sends it): judged the same.
  // (The student kit's causal time check failed the solutions when it was not unpacked.)
  CHECK(grader::judge_shrunk(check, request, shrunk, wire::pack(reply_with(right))).passed);
  const auto v3 = grader::judge_shrunk(check, request, shrunk, wire::pack(reply_with(off_other)));
  CHECK_FALSE(v3.passed);
  CHECK(v3.message.find("row 65,") != std::string::npos);
}

TEST_CASE("oracle compact: a reply cannot widen the checksums' tolerance with huge entries") {
  // Red-team: the slack was taken from the reply's own entries, so a row of +L in column 0
  // and -L in column 7 (the same weight: both sums exactly 0) had a slack of about 1e-8 * 2L,
  // and passed for any expected row. Computing only every 32nd row was enough to pass.
  const json expected = large_expected();
  const json shrunk = grader::shrink_expected(expected);
  const grader::Check check = matrix_check();
  const json request = json{{"function", "f"}, {"calls", json::array({json::object()})}};
  for (const double L : {1e9, 1e300}) {
    CAPTURE(L);
    json O = expected["calls"][0]["O"];
    for (std::size_t r = 0; r < 4096; ++r) {
      if (r % grader::kKeptRowEvery == 0 || r + 1 == 4096) continue;  // the kept rows: right
      for (std::size_t c = 0; c < 16; ++c) O["data"][r * 16 + c] = 0.0;
      O["data"][r * 16 + 0] = L;
      O["data"][r * 16 + 7] = -L;
    }
    const auto done = grader::complete_expected(shrunk, reply_with(O));
    REQUIRE(done.mismatches.size() == 1);
    CHECK(done.mismatches[0].find("O: 3967 of its 4096 rows") == 0);
    CHECK_FALSE(grader::judge_shrunk(check, request, shrunk, reply_with(O)).passed);
    // A recording made before row_abs_sums: the kept rows' largest entry sets the scale.
    json old = shrunk;
    old["calls"][0]["O"].erase("row_abs_sums");
    CHECK(grader::complete_expected(old, reply_with(expected["calls"][0]["O"])).mismatches.empty());
    CHECK(grader::complete_expected(old, reply_with(O)).mismatches.size() == 1);
  }
}
