#include "cbor_shape.hpp"

#include <vector>

namespace grader {

bool cbor_nesting_within(const std::string& bytes, std::size_t max_depth) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t at = 0;
  // For each open array or map: how many items it still holds.
  std::vector<std::uint64_t> open;
  std::uint64_t pending = 1;  // items still to read at the current level (the top: one)
  while (true) {
    while (pending == 0) {
      if (open.empty()) return at == n;  // the one top item is complete
      pending = open.back();
      open.pop_back();
    }
    if (at >= n) return false;
    const std::uint8_t head = p[at++];
    const unsigned major = head >> 5, info = head & 31;
    std::uint64_t arg = info;
    if (info >= 24 && info <= 27) {
      const std::size_t size = std::size_t{1} << (info - 24);
      if (n - at < size) return false;
      arg = 0;
      for (std::size_t i = 0; i < size; ++i) arg = (arg << 8) | p[at++];
    } else if (info > 27) {
      return false;  // indefinite lengths and reserved values: never written by wire::encode
    }
    --pending;
    switch (major) {
      case 0: case 1: case 7: break;  // integers, simple values and floats: no payload left
      case 2: case 3:                  // byte and text strings
        if (n - at < arg) return false;
        at += static_cast<std::size_t>(arg);
        break;
      case 4: case 5: {                // arrays and maps: open a level
        const std::uint64_t items = major == 5 ? arg * 2 : arg;
        if (major == 5 && arg > (n - at)) return false;
        if (items > n - at) return false;  // every item takes at least one byte
        open.push_back(pending);
        if (open.size() > max_depth) return false;
        pending = items;
        break;
      }
      case 6:                          // a tag: the item it tags follows, at this level
        ++pending;
        break;
    }
  }
}

}  // namespace grader
