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
//     "resident_growth_bytes": <max over calls of how far the process's peak resident
//                               memory rose during the call (heap_meter.hpp)>,
//     "inputs_changed": [ "<argument name>", ... ],
//     "failed_allocation_bytes": <with "bad_alloc": the largest request that failed> }
//
// Matrices travel as {"rows": r, "cols": c, "data": [row-major]}, vectors as plain arrays.
//
// The judge walks a reply against this shape before decoding it (grader/src/cbor_shape.cpp):
// a field not listed here, a result name the function does not have, more results than calls
// or more numbers than the check could get back refuse the reply unread. A field the harness
// gains goes into kReplyFields there as well.
//
// "outcome" may also be "harness_error" (with "what"): the request itself was at fault (an
// unknown function, a missing or malformed argument, a bad "phi" spec) or the runner's bindings
// were tampered with. No student code ran wrong; the judge reports it as the grader's fault.
//
// A feature map travels as a "phi" spec, from which the runner builds its own map (the
// reference library is never linked into a runner). Every map is applied row by row,
// (n, d_k) -> (n, d_phi):
//   {"name": "elu_plus_one"}   d_phi = d_k, x + 1 for x >= 0, e^x below
//   {"name": "relu"}           d_phi = d_k, max(x, 0)
//   {"name": "identity"}       d_phi = d_k
//   {"name": "taylor", "rows": R, "features": F}
//                              d_phi = 1 + d_k + d_k^2: (1, x, x_i x_j / sqrt(2), i major)
//   {"name": "positive_random", "Omega": <matrix (d_phi, d_k)>, "rows": R, "features": F}
//                              exp(w_i . x - |x|^2 / 2) / sqrt(d_phi), w_i the rows of Omega
//   The last two are exercises of their own, so the runner does not compute them: the judge
//   sends their values on every row the student's code may use (R: (m, d_k), F: (m, d_phi)).
//
// The calls' arguments and results, per function, are those of the exercise's API description
// (grader/common/api.hpp, written in grader/exercises/<ex>/api.cpp); `linattn-grade
// describe-api` prints them all. Scalars travel as JSON numbers; an argument with a default
// in the API takes it when a call leaves it out.
// Matrix and vector arguments are watched: "inputs_changed" names those the call altered.
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
