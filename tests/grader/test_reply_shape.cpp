// The judge walks a runner's reply against the function's results before decoding it
// (grader/src/engine/cbor_shape.cpp): unknown fields, misplaced items and counts over their bounds
// are refused at the header that announces them, before anything is built.
#include "src/engine/cbor_shape.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;
using grader::reply_shape_problem;
using grader::ReplyShape;

// linattn::linear_attention_step's results: o (vector), S (matrix), z (vector), 2 calls.
ReplyShape step_shape() {
  ReplyShape s;
  s.result_names = {"o", "S", "z"};
  s.result_kinds = {"vector", "matrix", "vector"};
  s.calls = 2;
  s.watched = 5;
  s.max_numbers = 100;
  return s;
}

std::string cbor(const json& j) {
  const std::vector<std::uint8_t> bytes = json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

json matrix(int rows, int cols) {
  return json{{"rows", rows}, {"cols", cols}, {"data", std::vector<double>(rows * cols, 0.5)}};
}

json good_reply() {
  const json result{{"o", {1.0, 2.0}}, {"S", matrix(3, 2)}, {"z", {1.0, 2.0, 3.0}}};
  return json{{"outcome", "returned"},           {"results", {result, result}},
              {"cpu_seconds", {0.01, 0.02}},     {"peak_heap_bytes", 512},
              {"inputs_changed", json::array()}, {"resident_growth_bytes", 0}};
}

// A CBOR array header announcing `n` items (major type 4, four-byte length).
std::string array_header(std::uint32_t n) {
  return std::string{char(0x9a), char(n >> 24), char((n >> 16) & 0xff), char((n >> 8) & 0xff),
                     char(n & 0xff)};
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

}  // namespace

TEST_CASE("reply shape: the harness's own replies pass") {
  CHECK(reply_shape_problem(cbor(good_reply()), step_shape()) == "");
  json threw{{"outcome", "exception"},
             {"what", "boom"},
             {"call", 1},
             {"results", json::array({good_reply()["results"][0]})},
             {"cpu_seconds", {0.1}},
             {"peak_heap_bytes", 0},
             {"inputs_changed", {"S", "q"}}};
  CHECK(reply_shape_problem(cbor(threw), step_shape()) == "");
  json alloc{{"outcome", "bad_alloc"},
             {"what", "std::bad_alloc"},
             {"call", 0},
             {"results", json::array()},
             {"failed_allocation_bytes", 1u << 30},
             {"peak_heap_bytes", 0}};
  CHECK(reply_shape_problem(cbor(alloc), step_shape()) == "");
  ReplyShape scalar;
  scalar.result_names = {"value"};
  scalar.result_kinds = {"integer"};
  scalar.calls = 1;
  scalar.max_numbers = 10;
  CHECK(reply_shape_problem(cbor(json{{"outcome", "returned"}, {"results", {{{"value", 42}}}}}),
                            scalar) == "");
}

TEST_CASE("reply shape: unknown fields and misplaced items are refused") {
  json extra = good_reply();
  extra["surprise"] = 1;
  CHECK(reply_shape_problem(cbor(extra), step_shape()).find("unknown field \"surprise\"") !=
        std::string::npos);
  json unknown_result = good_reply();
  unknown_result["results"][0]["T"] = 1.0;
  CHECK(reply_shape_problem(cbor(unknown_result), step_shape()).find("unknown field \"T\"") !=
        std::string::npos);
  json map_for_vector = good_reply();
  map_for_vector["results"][0]["o"] = json::object();
  CHECK(reply_shape_problem(cbor(map_for_vector), step_shape()).find("a map") != std::string::npos);
  json nested = good_reply();
  nested["results"][0]["S"]["data"][0] = json::array();
  CHECK(reply_shape_problem(cbor(nested), step_shape()) != "");
  CHECK(reply_shape_problem(cbor(json{{"outcome", 42}}), step_shape()).find("a number") !=
        std::string::npos);
  CHECK(reply_shape_problem(cbor(json::array()), step_shape()) != "");
  CHECK(reply_shape_problem(cbor(good_reply()) + "x", step_shape()) !=
        "");  // bytes after the reply
  CHECK(reply_shape_problem("", step_shape()) != "");
}

TEST_CASE("reply shape: counts are checked at their headers") {
  json three = good_reply();
  three["results"].push_back(three["results"][0]);
  CHECK(reply_shape_problem(cbor(three), step_shape()).find("3 results where at most 2") !=
        std::string::npos);
  json wrong_size = good_reply();
  wrong_size["results"][0]["S"]["data"].push_back(1.0);
  CHECK(reply_shape_problem(cbor(wrong_size), step_shape()).find("3 x 2 matrix with 7 numbers") !=
        std::string::npos);
  json names = good_reply();
  names["inputs_changed"] = std::vector<std::string>(6, "S");
  CHECK(reply_shape_problem(cbor(names), step_shape()).find("6 names") != std::string::npos);
  // Two calls of 2 + 6 + 3 numbers fit in 22; a budget of 21 does not.
  ReplyShape tight = step_shape();
  tight.max_numbers = 22;
  CHECK(reply_shape_problem(cbor(good_reply()), tight) == "");
  tight.max_numbers = 21;
  CHECK(reply_shape_problem(cbor(good_reply()), tight).find("where at most") != std::string::npos);
}

// The reply of issue 23: 16 MiB of empty maps, which nlohmann's decoder made into 2.9 GB.
// Refused at the array's header: neither the time nor the memory of a decode is spent.
TEST_CASE("reply shape: sixteen million empty maps are refused at their header") {
  const std::uint32_t n = 16u << 20;
  std::string bytes = cbor(json{{"outcome", "returned"}});
  bytes[0] = char(0xa2);  // the map now holds two fields: the second is "results"
  bytes += cbor(json("results")) + array_header(n) + std::string(n, char(0xa0));
  const long before = peak_rss_kib();
  const std::string problem = reply_shape_problem(bytes, step_shape());
  CHECK(problem.find(std::to_string(n) + " results where at most 2") != std::string::npos);
  // The walk itself built nothing (a decode would take gigabytes).
  CHECK(peak_rss_kib() - before < 64 * 1024);
  // And as a bare top-level array: refused at the first byte.
  CHECK(reply_shape_problem(array_header(n) + std::string(n, char(0xa0)), step_shape()) != "");
}

TEST_CASE(
    "reply shape: results of unknown kind may be any of the wire's kinds, within the counts") {
  ReplyShape any = step_shape();
  any.result_kinds.clear();
  CHECK(reply_shape_problem(cbor(good_reply()), any) == "");
  json strings = good_reply();
  strings["results"][0]["o"] = "Left";
  CHECK(reply_shape_problem(cbor(strings), any) == "");
  json deeper = good_reply();
  deeper["results"][0]["o"] = json::array({json::array({1.0})});
  CHECK(reply_shape_problem(cbor(deeper), any) != "");
  json unknown = good_reply();
  unknown["results"][1]["w"] = 1.0;
  CHECK(reply_shape_problem(cbor(unknown), any).find("unknown field \"w\"") != std::string::npos);
  any.max_numbers = 21;
  CHECK(reply_shape_problem(cbor(good_reply()), any).find("where at most") != std::string::npos);
}

// Between the judge and a runner a matrix's numbers travel packed, as one byte string of
// doubles (grader/common/wire.hpp): counted as the numbers they stand for, held against rows x
// cols, and allowed nowhere but under a matrix's "data".
TEST_CASE("reply shape: a packed matrix counts its numbers") {
  auto packed = [](int rows, int cols, std::size_t bytes) {
    return json{{"rows", rows},
                {"cols", cols},
                {"data", json::binary(std::vector<std::uint8_t>(bytes, 0))}};
  };
  auto reply_with = [](const json& S) {
    json reply = good_reply();
    for (auto& result : reply["results"]) result["S"] = S;
    return reply;
  };
  CHECK(reply_shape_problem(cbor(reply_with(packed(3, 2, 48))), step_shape()) == "");
  // 2 x (2 + 3) numbers of o and z leave 90 for the two S: 45 each fit, 46 do not.
  CHECK(reply_shape_problem(cbor(reply_with(packed(9, 5, 45 * 8))), step_shape()) == "");
  CHECK(
      reply_shape_problem(cbor(reply_with(packed(23, 2, 46 * 8))), step_shape()).find("at most") !=
      std::string::npos);
  CHECK(reply_shape_problem(cbor(reply_with(packed(3, 2, 47))), step_shape())
            .find("whole number of doubles") != std::string::npos);
  CHECK(reply_shape_problem(cbor(reply_with(packed(3, 3, 48))), step_shape())
            .find("3 x 3 matrix with 6 numbers") != std::string::npos);
  json vector_bytes = good_reply();
  vector_bytes["results"][0]["o"] = json::binary(std::vector<std::uint8_t>(16, 0));
  CHECK(reply_shape_problem(cbor(vector_bytes), step_shape()).find("a byte string") !=
        std::string::npos);
}

// Issue 31: whatever passes the walk, the judge can use as it is. Each reply here once passed
// and then made the judge throw ("a fault of the grader ... please report it"); now the walk
// refuses it, and the check is lost as the submission's malformed reply.
TEST_CASE("reply shape: a reply the judge cannot use is refused") {
  // 0 x 2^63: rows x cols is 0, the count of its numbers, but no judge can build it.
  json forged = good_reply();
  forged["results"][0]["S"] =
      json{{"rows", 0}, {"cols", std::uint64_t{1} << 63}, {"data", json::array()}};
  CHECK(reply_shape_problem(cbor(forged), step_shape())
            .find("0 x 9223372036854775808 matrix, a side longer") != std::string::npos);
  // The same, packed as the runner packs it.
  forged["results"][0]["S"]["data"] = json::binary({});
  CHECK(reply_shape_problem(cbor(forged), step_shape()).find("a side longer") != std::string::npos);
  // rows x cols that overflows 64 bits to the count of its numbers.
  json overflow = good_reply();
  overflow["results"][0]["S"] = json{
      {"rows", std::uint64_t{1} << 32}, {"cols", std::uint64_t{1} << 32}, {"data", json::array()}};
  CHECK(reply_shape_problem(cbor(overflow), step_shape()).find("matrix with 0 numbers") !=
        std::string::npos);
  // Rows as a negative or a fractional number.
  json negative = good_reply();
  negative["results"][0]["S"]["rows"] = -3;
  CHECK(
      reply_shape_problem(cbor(negative), step_shape()).find("a negative number under \"rows\"") !=
      std::string::npos);
  json fraction = good_reply();
  fraction["results"][0]["S"]["cols"] = 2.0;
  CHECK(reply_shape_problem(cbor(fraction), step_shape()).find("floating-point") !=
        std::string::npos);
  // A key twice: the decoder keeps the last, the walk judged the first.
  const json one{{"rows", 3}, {"cols", 2}, {"data", std::vector<double>(6, 0.5)}};
  std::string twice = cbor(one);
  twice[0] = char(0xa4);  // the map now announces four pairs, the fourth "rows": 0
  twice += cbor(json("rows")) + cbor(json(0));
  json holder = good_reply();
  holder["results"][0]["S"] = "@";
  std::string bytes = cbor(holder);
  const std::string placeholder = cbor(json("@"));
  bytes.replace(bytes.find(placeholder), placeholder.size(), twice);
  CHECK(reply_shape_problem(bytes, step_shape()).find("\"rows\" twice") != std::string::npos);
}

TEST_CASE("reply shape: every result, and the reply's own fields, as the judge reads them") {
  json missing = good_reply();
  missing["results"][1].erase("z");
  CHECK(reply_shape_problem(cbor(missing), step_shape()).find("a result without \"z\"") !=
        std::string::npos);
  json short_of_calls = good_reply();
  short_of_calls["results"].erase(1);
  CHECK(reply_shape_problem(cbor(short_of_calls), step_shape())
            .find("1 results for 2 calls that returned") != std::string::npos);
  json no_outcome = good_reply();
  no_outcome.erase("outcome");
  CHECK(reply_shape_problem(cbor(no_outcome), step_shape()).find("without an outcome") !=
        std::string::npos);
  json unknown_outcome = good_reply();
  unknown_outcome["outcome"] = "passed";
  CHECK(reply_shape_problem(cbor(unknown_outcome), step_shape()).find("unknown outcome") !=
        std::string::npos);
  json heap = good_reply();
  heap["peak_heap_bytes"] = -1;
  CHECK(reply_shape_problem(cbor(heap), step_shape()).find("negative") != std::string::npos);
  heap["peak_heap_bytes"] = 1e300;
  CHECK(reply_shape_problem(cbor(heap), step_shape()).find("floating-point") != std::string::npos);
  json call = good_reply();
  call["outcome"] = "exception";
  call["call"] = 2;  // of calls 0 and 1
  CHECK(reply_shape_problem(cbor(call), step_shape()).find("call 2 of a request of 2") !=
        std::string::npos);

  ReplyShape scalar;
  scalar.result_names = {"value"};
  scalar.result_kinds = {"integer"};
  scalar.calls = 1;
  scalar.max_numbers = 10;
  auto value = [](const json& v) {
    return cbor(json{{"outcome", "returned"}, {"results", {{{"value", v}}}}});
  };
  CHECK(reply_shape_problem(value(-7), scalar) == "");
  CHECK(reply_shape_problem(value(1e300), scalar).find("floating-point") != std::string::npos);
  CHECK(reply_shape_problem(value(std::uint64_t{1} << 63), scalar).find("more than a 64-bit") !=
        std::string::npos);
  scalar.result_kinds = {"Left|Right"};
  CHECK(reply_shape_problem(value("Right"), scalar) == "");
  CHECK(reply_shape_problem(value("Up"), scalar).find("not one of Left|Right") !=
        std::string::npos);
}
