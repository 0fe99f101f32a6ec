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
// Between the judge and a runner (encode_packed), a matrix's "data" goes as one CBOR byte string
// of its rows * cols doubles, row-major, in the machine's own byte order (both ends run on one
// machine): a call of 8192 tokens holds a million numbers, and one byte string decodes in a
// copy where a million CBOR items took most of a time check's CPU. decode gives such a matrix
// back as an array of numbers, so every judge reads the same JSON either way; to_matrix takes
// both forms.
//
// The judge walks a reply against this shape before decoding it (grader/src/engine/cbor_shape.cpp):
// a field not listed here, a result name the function does not have or lacks, a value not of its
// kind, a matrix whose shape is not its numbers', more results than calls or more numbers than
// the check could get back refuse the reply unread, as the submission's malformed reply. A field
// the harness gains goes into kReplyFields there as well.
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
// (grader/common/api.hpp, written in exercises/<ex>/.meta/api.cpp); `linattn-grade
// describe-api` prints them all. Scalars travel as JSON numbers; an argument with a default
// in the API takes it when a call leaves it out.
// Matrix and vector arguments are watched: "inputs_changed" names those the call altered.
#pragma once

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <iterator>
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
  if (rows < 0 || cols < 0) throw std::runtime_error("wire: matrix of the wrong size");
  if (data.is_binary()) {  // packed (see the top of this file)
    const auto& bytes = data.get_binary();
    if (bytes.size() != static_cast<std::size_t>(rows * cols) * sizeof(double))
      throw std::runtime_error("wire: matrix of the wrong size");
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(rows, cols);
    if (!bytes.empty()) std::memcpy(m.data(), bytes.data(), bytes.size());
    return m;
  }
  if (data.size() != static_cast<std::size_t>(rows * cols))
    throw std::runtime_error("wire: matrix of the wrong size");
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c)
      m(r, c) = data[static_cast<std::size_t>(r * cols + c)].get<double>();
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

// A matrix as {"rows", "cols", "data"} whose data is an array of numbers only.
inline bool is_plain_matrix(const json& j) {
  if (!j.is_object() || j.size() != 3 || !j.contains("rows") || !j.contains("cols")) return false;
  const auto data = j.find("data");
  if (data == j.end() || !data->is_array()) return false;
  for (const auto& x : *data)
    if (!x.is_number()) return false;
  return true;
}

// `j` with every matrix's data as a byte string of doubles (the top of this file). A new
// value: `j` is not copied first, so packing one call of a large request costs its bytes only.
inline json pack(const json& j) {
  if (is_plain_matrix(j)) {
    const json& data = j["data"];
    std::vector<std::uint8_t> bytes(data.size() * sizeof(double));
    std::size_t at = 0;
    for (const auto& x : data) {
      const double v = x.get<double>();
      std::memcpy(bytes.data() + at, &v, sizeof v);
      at += sizeof v;
    }
    return json{{"rows", j["rows"]}, {"cols", j["cols"]}, {"data", json::binary(std::move(bytes))}};
  }
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : j.items()) out[key] = pack(value);
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (const auto& value : j) out.push_back(pack(value));
    return out;
  }
  return j;
}

// The other way: every byte string under a "data" key becomes its array of doubles. A byte
// string whose length is not a whole number of doubles, or anywhere else, is refused.
inline void unpack(json& j) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      if (value.is_binary()) {
        const auto& bytes = value.get_binary();
        if (key != "data" || bytes.size() % sizeof(double) != 0)
          throw std::runtime_error("wire: a byte string that is not a matrix's numbers");
        json numbers = json::array();
        numbers.get_ref<json::array_t&>().reserve(bytes.size() / sizeof(double));
        for (std::size_t at = 0; at < bytes.size(); at += sizeof(double)) {
          double v;
          std::memcpy(&v, bytes.data() + at, sizeof v);
          numbers.push_back(v);
        }
        value = std::move(numbers);
      } else {
        unpack(value);
      }
    }
  } else if (j.is_array()) {
    for (auto& value : j) {
      if (value.is_binary())
        throw std::runtime_error("wire: a byte string that is not a matrix's numbers");
      unpack(value);
    }
  }
}

inline std::vector<std::uint8_t> encode(const json& j) { return json::to_cbor(j); }
// For the pipe between the judge and a runner: matrices packed.
inline std::vector<std::uint8_t> encode_packed(const json& j) { return json::to_cbor(pack(j)); }

// Whether pack would change `j`: it holds a matrix whose numbers are not packed yet.
inline bool has_plain_matrix(const json& j) {
  if (is_plain_matrix(j)) return true;
  if (j.is_structured())
    for (const auto& v : j)
      if (has_plain_matrix(v)) return true;
  return false;
}

// The bytes of its byte strings, a floor for its CBOR's size.
inline std::size_t byte_string_bytes(const json& j) {
  if (j.is_binary()) return j.get_binary().size();
  std::size_t n = 0;
  if (j.is_structured())
    for (const auto& v : j) n += byte_string_bytes(v);
  return n;
}

// encode_packed's very bytes, for the judge's own large messages (a time check's call, already
// packed, is tens of MB): not packed a second time, and written into a buffer sized once, where
// one grown by doubling takes about three times the memory's worth of new pages.
inline std::vector<std::uint8_t> encode_packed_once(const json& j) {
  std::vector<std::uint8_t> out;
  if (has_plain_matrix(j)) {
    const json packed = pack(j);
    out.reserve(byte_string_bytes(packed) + 65536);
    json::to_cbor(packed, out);
  } else {
    out.reserve(byte_string_bytes(j) + 65536);
    json::to_cbor(j, out);
  }
  return out;
}
// Matrices unpacked, whichever way they were sent.
inline json decode(const std::vector<std::uint8_t>& bytes) {
  json j = json::from_cbor(bytes);
  unpack(j);
  return j;
}
// As it came: packed matrices stay byte strings (the runner's to_matrix reads them as they are).
inline json decode_packed(const std::vector<std::uint8_t>& bytes) { return json::from_cbor(bytes); }

// The split form, for bytes the judge writes and reads back itself or hands to a runner (the
// request, the oracle's cached cases), never for a reply: nlohmann's CBOR reader takes a byte
// string one byte at a time, about 8 ns a byte, and a time check's case is 90 MB. So every byte
// string of the packed message moves out of the CBOR into one block after it, and the CBOR
// keeps a reference in its place: 16 bytes (offset and length in the block) tagged kBlobTag.
//   bytes: kSplitMagic (4 bytes) | the CBOR's length (8 bytes) | the CBOR | the block
// The magic starts with 0xFF, which no CBOR item starts with.
inline constexpr std::uint8_t kSplitMagic[4] = {0xFF, 'L', 'A', 'S'};
inline constexpr std::uint64_t kBlobTag = 0x4C41;

namespace split_detail {

// A reference tagged kBlobTag: `length` bytes at `offset` in the block.
inline json reference(std::uint64_t offset, std::uint64_t length) {
  const std::uint64_t ref[2] = {offset, length};
  std::vector<std::uint8_t> r(sizeof ref);
  std::memcpy(r.data(), ref, sizeof ref);
  return json::binary(std::move(r), kBlobTag);
}

// `j` packed, with every byte string (or plain matrix's numbers, which pack makes one) replaced
// by its reference; the values whose bytes fill the block are listed in `parts`, in the block's
// order. Nothing large is copied: the block is written from `j` itself (write_block).
inline json hoist(const json& j, std::vector<const json*>& parts, std::uint64_t& block_size) {
  if (is_plain_matrix(j)) {
    const json& data = j["data"];
    const std::uint64_t length = data.size() * sizeof(double);
    json out{{"rows", j["rows"]}, {"cols", j["cols"]}, {"data", reference(block_size, length)}};
    parts.push_back(&data);
    block_size += length;
    return out;
  }
  if (j.is_binary()) {
    const std::uint64_t length = j.get_binary().size();
    parts.push_back(&j);
    json out = reference(block_size, length);
    block_size += length;
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : j.items()) out[key] = hoist(value, parts, block_size);
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (const auto& value : j) out.push_back(hoist(value, parts, block_size));
    return out;
  }
  return j;
}

inline void restore(json& j, const std::uint8_t* block, std::uint64_t block_size) {
  if (j.is_binary()) {
    const auto& r = j.get_binary();
    if (!r.has_subtype() || r.subtype() != kBlobTag || r.size() != 16)
      throw std::runtime_error("wire: a byte string left in a split message");
    std::uint64_t ref[2];
    std::memcpy(ref, r.data(), sizeof ref);
    if (ref[0] > block_size || ref[1] > block_size - ref[0])
      throw std::runtime_error("wire: a reference past the end of a split message");
    j = json::binary(std::vector<std::uint8_t>(block + ref[0], block + ref[0] + ref[1]));
  } else if (j.is_structured()) {
    for (auto& v : j) restore(v, block, block_size);
  }
}

}  // namespace split_detail

// The split form of a value, before it is written: its head (the magic, the CBOR's length, the
// CBOR) and the values its block is made of. It points into the value, which must outlive it.
struct SplitMessage {
  std::vector<std::uint8_t> head;
  std::vector<const json*> parts;  // byte strings, or plain matrices' arrays of numbers
  std::uint64_t block_size = 0;
};

// `j` packed (as encode_packed packs it), split.
inline SplitMessage split_message(const json& j) {
  SplitMessage m;
  const std::vector<std::uint8_t> cbor =
      json::to_cbor(split_detail::hoist(j, m.parts, m.block_size));
  const std::uint64_t length = cbor.size();
  m.head.reserve(sizeof kSplitMagic + sizeof length + cbor.size());
  m.head.insert(m.head.end(), kSplitMagic, kSplitMagic + sizeof kSplitMagic);
  const auto* l = reinterpret_cast<const std::uint8_t*>(&length);
  m.head.insert(m.head.end(), l, l + sizeof length);
  m.head.insert(m.head.end(), cbor.begin(), cbor.end());
  return m;
}

// The block's bytes, in order, as `write(const std::uint8_t*, std::size_t)` calls: a byte string
// as it is, a matrix's numbers as doubles a few thousand at a time. A request of a time check
// is about 90 MB: written straight from the value, it is never held a second time.
template <class Write>
void write_block(const SplitMessage& m, Write&& write) {
  for (const json* part : m.parts) {
    if (part->is_binary()) {
      const auto& bytes = part->get_binary();
      if (!bytes.empty()) write(bytes.data(), bytes.size());
      continue;
    }
    double chunk[4096];
    std::size_t n = 0;
    for (const auto& x : *part) {
      chunk[n++] = x.get<double>();
      if (n == std::size(chunk)) {
        write(reinterpret_cast<const std::uint8_t*>(chunk), sizeof chunk);
        n = 0;
      }
    }
    if (n > 0) write(reinterpret_cast<const std::uint8_t*>(chunk), n * sizeof(double));
  }
}

// `j` packed, in the split form, as one run of bytes.
inline std::vector<std::uint8_t> encode_split(const json& j) {
  const SplitMessage m = split_message(j);
  std::vector<std::uint8_t> out;
  out.reserve(m.head.size() + m.block_size);
  out.insert(out.end(), m.head.begin(), m.head.end());
  write_block(m, [&](const std::uint8_t* p, std::size_t n) { out.insert(out.end(), p, p + n); });
  return out;
}

// What encode_split wrote, as decode_packed gives it (matrices stay packed); bytes without the
// magic are read as plain CBOR.
inline json decode_split(const std::uint8_t* bytes, std::size_t size) {
  constexpr std::size_t kHead = sizeof kSplitMagic + sizeof(std::uint64_t);
  if (size < sizeof kSplitMagic || std::memcmp(bytes, kSplitMagic, sizeof kSplitMagic) != 0)
    return json::from_cbor(bytes, bytes + size);
  std::uint64_t length = 0;
  if (size < kHead) throw std::runtime_error("wire: a split message cut short");
  std::memcpy(&length, bytes + sizeof kSplitMagic, sizeof length);
  if (length > size - kHead) throw std::runtime_error("wire: a split message cut short");
  const std::uint8_t* cbor = bytes + kHead;
  json j = json::from_cbor(cbor, cbor + length, true, true, json::cbor_tag_handler_t::store);
  split_detail::restore(j, cbor + length, size - kHead - length);
  return j;
}
inline json decode_split(const std::vector<std::uint8_t>& bytes) {
  return decode_split(bytes.data(), bytes.size());
}

}  // namespace wire
