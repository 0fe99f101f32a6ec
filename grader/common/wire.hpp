// The messages between the judge and a runner. Both sides include this file; nothing else is
// shared between them. Messages are nlohmann::json values sent as CBOR, which round-trips
// every double exactly (NaN and infinities included), unlike JSON text.
//
// Request (judge -> runner), one per check:
//   { "function": "<API function>", "calls": [ {<arguments>}, ... ] }
// Reply (runner -> judge), written only if the runner got back from the student's code:
//   { "outcome": "returned" | "not_implemented" | "exception" | "bad_alloc",
//     "what": "<what() of the exception>", "call": <index of the call that threw>,
//     "results": [ {<outputs>}, ... ],           // one per call that returned
//     "peak_heap_bytes": <max over calls of the heap growth during the call>,
//     "inputs_changed": [ "<argument name>", ... ] }
//
// Matrices travel as {"rows": r, "cols": c, "data": [row-major]}, vectors as plain arrays.
#pragma once

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace wire {

using json = nlohmann::json;

inline json from_matrix(const Eigen::MatrixXd& m) {
  json data = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) data.push_back(m(r, c));
  return json{{"rows", m.rows()}, {"cols", m.cols()}, {"data", std::move(data)}};
}

inline Eigen::MatrixXd to_matrix(const json& j) {
  const auto rows = j.at("rows").get<Eigen::Index>();
  const auto cols = j.at("cols").get<Eigen::Index>();
  const json& data = j.at("data");
  if (rows < 0 || cols < 0 || data.size() != static_cast<std::size_t>(rows * cols))
    throw std::runtime_error("wire: matrix of the wrong size");
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = data[static_cast<std::size_t>(r * cols + c)].get<double>();
  return m;
}

inline json from_vector(const Eigen::VectorXd& v) {
  json data = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) data.push_back(v(i));
  return data;
}

inline Eigen::VectorXd to_vector(const json& j) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) v(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  return v;
}

inline std::vector<std::uint8_t> encode(const json& j) { return json::to_cbor(j); }
inline json decode(const std::vector<std::uint8_t>& bytes) { return json::from_cbor(bytes); }

}  // namespace wire
