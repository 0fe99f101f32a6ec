// The pipe between the judge and a runner packs each matrix's numbers into one byte string
// (grader/common/wire.hpp): what the judge decodes is the same JSON as before packing, every
// double exact, and a byte string anywhere else, or of a broken length, is refused.
#include "common/wire.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using json = nlohmann::json;

TEST_CASE("wire: a packed request or reply decodes to the JSON it was made from") {
  Eigen::MatrixXd m(2, 3);
  m << 1.0 / 3.0, -0.0, 1e-310, std::numeric_limits<double>::infinity(), -2.5e300, 7.0;
  const json call{{"Q", wire::from_matrix(m)},
                  {"f", {0.5, 0.25}},
                  {"eps", 1e-6},
                  {"phi", {{"name", "taylor"}, {"rows", wire::from_matrix(m)}}}};
  const json request{{"function", "f"}, {"calls", {call, call}}};
  const json packed = wire::pack(request);
  CHECK(packed["calls"][1]["Q"]["data"].is_binary());
  CHECK(packed["calls"][1]["phi"]["rows"]["data"].is_binary());
  CHECK(packed["calls"][1]["f"].is_array());  // vectors stay arrays
  CHECK(wire::decode(wire::encode_packed(request)) == request);
  // The runner reads packed matrices as they come.
  const Eigen::MatrixXd back =
      wire::to_matrix(wire::decode_packed(wire::encode_packed(request))["calls"][0]["Q"]);
  CHECK(back.rows() == 2);
  CHECK(back.cols() == 3);
  CHECK(std::memcmp(back.data(), m.data(), sizeof(double) * 6) == 0);
  json nan_matrix = wire::from_matrix(Eigen::MatrixXd::Constant(1, 1, std::nan("")));
  CHECK(std::isnan(wire::decode(wire::encode_packed(nan_matrix))["data"][0].get<double>()));
}

TEST_CASE("wire: a byte string that is not a matrix's numbers is refused") {
  auto bytes = [](std::size_t n) { return json::binary(std::vector<std::uint8_t>(n, 0)); };
  CHECK_THROWS(wire::decode(json::to_cbor(json{{"rows", 1}, {"cols", 1}, {"data", bytes(7)}})));
  CHECK_THROWS(wire::decode(json::to_cbor(json{{"results", {bytes(8)}}})));
  CHECK_THROWS(wire::decode(json::to_cbor(json{{"what", bytes(8)}})));
  CHECK_THROWS(wire::to_matrix(json{{"rows", 2}, {"cols", 1}, {"data", bytes(8)}}));
  CHECK(wire::decode(json::to_cbor(json{{"rows", 1}, {"cols", 1}, {"data", bytes(8)}}))["data"] ==
        json::array({0.0}));
}

// The split form (wire::encode_split): the request a runner reads and the oracle's kept cases.
// It gives back what decode_packed gives for the packed message, and refuses a reference that
// points outside its block or a byte string left in its CBOR.
TEST_CASE("wire: a split message decodes to the packed JSON it was made from") {
  Eigen::MatrixXd m(3, 2);
  m << 1.0 / 3.0, -0.0, 1e-310, std::numeric_limits<double>::infinity(), -2.5e300, 7.0;
  const json call{{"Q", wire::from_matrix(m)},
                  {"K", wire::from_matrix(m.transpose())},
                  {"f", {0.5, 0.25}},
                  {"eps", 1e-6},
                  {"name", "two words"}};
  const json request{{"function", "f"}, {"calls", {call, wire::pack(call)}}};
  const std::vector<std::uint8_t> split = wire::encode_split(request);
  CHECK(split[0] == 0xFF);
  const json back = wire::decode_split(split);
  CHECK(back == wire::decode_packed(wire::encode_packed(request)));
  const Eigen::MatrixXd q = wire::to_matrix(back["calls"][1]["K"]);
  CHECK(std::memcmp(q.data(), Eigen::MatrixXd(m.transpose()).data(), sizeof(double) * 6) == 0);
  // Plain CBOR (a request file written by hand) is read as it is.
  CHECK(wire::decode_split(wire::encode_packed(request)) == back);
}

TEST_CASE("wire: a split message that points outside its numbers is refused") {
  const json request{{"Q", wire::from_matrix(Eigen::MatrixXd::Ones(2, 2))}};
  std::vector<std::uint8_t> split = wire::encode_split(request);
  // Cut short: the last number is missing, so the reference runs past the end.
  std::vector<std::uint8_t> cut(split.begin(), split.end() - 1);
  CHECK_THROWS(wire::decode_split(cut));
  CHECK_THROWS(wire::decode_split(std::vector<std::uint8_t>(split.begin(), split.begin() + 8)));
  // A header length beyond the message.
  std::vector<std::uint8_t> long_header = split;
  long_header[4] = 0xFF;
  long_header[11] = 0x7F;
  CHECK_THROWS(wire::decode_split(long_header));
  // A byte string in the CBOR itself, not a reference.
  const std::vector<std::uint8_t> cbor = json::to_cbor(wire::pack(request));
  std::vector<std::uint8_t> raw(wire::kSplitMagic, wire::kSplitMagic + 4);
  const std::uint64_t length = cbor.size();
  raw.insert(raw.end(), reinterpret_cast<const std::uint8_t*>(&length),
             reinterpret_cast<const std::uint8_t*>(&length) + 8);
  raw.insert(raw.end(), cbor.begin(), cbor.end());
  CHECK_THROWS(wire::decode_split(raw));
  // A reference whose offset and length add up past 2^64: the sum wraps to a small number
  // inside the block (a bounds check written as offset + length > size lets it through).
  const std::uint8_t ref[16] = {0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0};
  const auto at = std::search(split.begin(), split.end(), std::begin(ref), std::end(ref));
  REQUIRE(at != split.end());  // offset 0, length 32: the four numbers of Q
  std::vector<std::uint8_t> wrapped = split;
  const std::uint64_t huge = ~std::uint64_t{0} - 7;  // + 32 wraps to 24
  std::memcpy(&wrapped[static_cast<std::size_t>(at - split.begin())], &huge, sizeof huge);
  CHECK_THROWS(wire::decode_split(wrapped));
}

// The split form's bytes, spelled out for a small message: its block holds each byte string,
// or plain matrix's numbers, in the order of the keys (B before Q), written from the value
// itself; the CBOR keeps a reference (offset, length) in each one's place.
TEST_CASE("wire: a split message's bytes are its head and then its block, in key order") {
  const std::vector<std::uint8_t> b = {1, 2, 3};
  Eigen::MatrixXd q(2, 1);
  q << 0.5, -7.0;
  const json message{{"Q", wire::from_matrix(q)}, {"B", json::binary(b)}, {"n", 3}};
  auto ref = [](std::uint64_t offset, std::uint64_t length) {
    std::vector<std::uint8_t> r(16);
    std::memcpy(r.data(), &offset, 8);
    std::memcpy(r.data() + 8, &length, 8);
    return json::binary(r, wire::kBlobTag);
  };
  const json header{
      {"B", ref(0, 3)}, {"Q", {{"rows", 2}, {"cols", 1}, {"data", ref(3, 16)}}}, {"n", 3}};
  const std::vector<std::uint8_t> cbor = json::to_cbor(header);
  std::vector<std::uint8_t> expected(wire::kSplitMagic, wire::kSplitMagic + 4);
  const std::uint64_t length = cbor.size();
  expected.insert(expected.end(), reinterpret_cast<const std::uint8_t*>(&length),
                  reinterpret_cast<const std::uint8_t*>(&length) + 8);
  expected.insert(expected.end(), cbor.begin(), cbor.end());
  expected.insert(expected.end(), b.begin(), b.end());
  expected.insert(expected.end(), reinterpret_cast<const std::uint8_t*>(q.data()),
                  reinterpret_cast<const std::uint8_t*>(q.data()) + 16);
  CHECK(wire::encode_split(message) == expected);
  // The same bytes in pieces, as a request is written to the runner's file.
  const wire::SplitMessage m = wire::split_message(message);
  std::vector<std::uint8_t> pieces = m.head;
  wire::write_block(
      m, [&](const std::uint8_t* p, std::size_t n) { pieces.insert(pieces.end(), p, p + n); });
  CHECK(m.block_size == 19);
  CHECK(pieces == expected);
}

// A matrix of numbers, not yet packed, goes into the block a few thousand numbers at a time:
// every one arrives, in order, across the pieces' seams.
TEST_CASE("wire: a plain matrix longer than one piece arrives whole in the split form") {
  Eigen::MatrixXd m(3001, 3);  // 9003 numbers: two whole pieces of 4096 and a part
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = 1.0 / static_cast<double>(i + 3);
  const json back = wire::decode_split(wire::encode_split(json{{"X", wire::from_matrix(m)}}));
  const Eigen::MatrixXd x = wire::to_matrix(back["X"]);
  REQUIRE(x.rows() == 3001);
  REQUIRE(x.cols() == 3);
  CHECK(x == m);
}

// The judge's own large messages skip encode_packed's copies, never its bytes: a call already
// packed, one not packed yet, and one with both.
TEST_CASE("wire: encode_packed_once writes encode_packed's bytes") {
  Eigen::MatrixXd m(40, 3);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = std::sin(static_cast<double>(i));
  const json plain{{"Q", wire::from_matrix(m)}, {"eps", 1e-6}, {"f", {1.0, 2.0}}};
  const json packed = wire::pack(plain);
  const json both{{"a", plain}, {"b", packed}, {"name", "x"}};
  CHECK_FALSE(wire::has_plain_matrix(packed));
  CHECK(wire::has_plain_matrix(both));
  CHECK(wire::byte_string_bytes(packed) == 40 * 3 * sizeof(double));
  for (const json& j : {plain, packed, both})
    CHECK(wire::encode_packed_once(j) == wire::encode_packed(j));
}
