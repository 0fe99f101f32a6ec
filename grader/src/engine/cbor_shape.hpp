// A look at untrusted CBOR before it is decoded: nlohmann's decoder recurses once per level of
// nesting, so a reply nested a million arrays deep would overflow the judge's stack. This walks
// the items with a stack of its own and says whether the nesting stays within a limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace grader {

// True if `bytes` is one well-formed CBOR item (definite lengths, as wire::encode writes)
// nested at most `max_depth` arrays and maps deep, with nothing after it.
bool cbor_nesting_within(const std::string& bytes, std::size_t max_depth);

}  // namespace grader

#include <vector>

namespace grader {

// What a runner's reply to one request may hold (see grader/common/wire.hpp; the fields it
// lists, and "resident_growth_bytes", heap_meter.hpp): the fields of a reply, at most one result
// per call, each result a map of the function's result names with values of their kinds ("matrix",
// "vector", "number", "integer", or an enum's names), and at most `max_numbers` numbers in all the
// results together. A reply that fits is one the judge can use as it is, so the walk is the one
// place a reply is validated: a known outcome, and for "returned" one result per call; every
// result name in every result; an "integer" a whole number within 64 bits, an enum one of its
// names; a matrix's rows and cols whole numbers >= 0 whose product is its count of numbers and
// neither longer than `max_numbers` (0 x 2^63 holds no number, and no judge can use it); byte
// counts and "call" whole numbers >= 0, "call" one of the request's; no key twice in a map.
struct ReplyShape {
  std::vector<std::string> result_names;
  // Per name, as api::Schema::kinds: "matrix", "vector", "number", "integer" or an enum's names;
  // where none is given, any of them.
  std::vector<std::string> result_kinds;
  std::uint64_t calls = 0;        // the request's calls
  std::uint64_t watched = 0;      // arguments that may be named in "inputs_changed"
  std::uint64_t max_numbers = 0;  // numbers the results may hold in all
};

// Walks `bytes` (CBOR) as a stream of items, without building anything, and says why it is
// not a reply of that shape: the first unknown field, misplaced item or count over its bound
// ("" if it is one). It stops at the first problem, so a reply of millions of empty maps costs
// one look at one header, and a reply that passes decodes to at most about 16 bytes per
// number it holds.
std::string reply_shape_problem(const std::string& bytes, const ReplyShape& shape);

}  // namespace grader
