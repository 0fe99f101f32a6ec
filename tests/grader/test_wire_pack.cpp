// The pipe between the judge and a runner packs each matrix's numbers into one byte string
// (grader/common/wire.hpp): what the judge decodes is the same JSON as before packing, every
// double exact, and a byte string anywhere else, or of a broken length, is refused.
#include "common/wire.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using json = nlohmann::json;

TEST_CASE("wire: a packed request or reply decodes to the JSON it was made from") {
  Eigen::MatrixXd m(2, 3);
  m << 1.0 / 3.0, -0.0, 1e-310, std::numeric_limits<double>::infinity(), -2.5e300, 7.0;
  const json call{{"Q", wire::from_matrix(m)}, {"f", {0.5, 0.25}}, {"eps", 1e-6},
                  {"phi", {{"name", "taylor"}, {"rows", wire::from_matrix(m)}}}};
  const json request{{"function", "f"}, {"calls", {call, call}}};
  const json packed = wire::pack(request);
  CHECK(packed["calls"][1]["Q"]["data"].is_binary());
  CHECK(packed["calls"][1]["phi"]["rows"]["data"].is_binary());
  CHECK(packed["calls"][1]["f"].is_array());  // vectors stay arrays
  CHECK(wire::decode(wire::encode_packed(request)) == request);
  // The runner reads packed matrices as they come.
  const Eigen::MatrixXd back = wire::to_matrix(wire::decode_packed(wire::encode_packed(request))["calls"][0]["Q"]);
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
  CHECK(wire::decode(json::to_cbor(json{{"rows", 1}, {"cols", 1}, {"data", bytes(8)}}))["data"] == json::array({0.0}));
}
