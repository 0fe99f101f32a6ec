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
