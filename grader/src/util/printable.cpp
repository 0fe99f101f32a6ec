#include "printable.hpp"

#include "utf8.hpp"

#include <cstdio>

namespace grader {

std::string escape_controls(const std::string& text, const std::string& keep) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  char hex[12];
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    const std::size_t len = utf8_length(s, i, n);
    if (len == 0) {  // not UTF-8: the byte itself, shown
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
      i += 1;
    } else if (len == 1 && (c < 0x20 || c == 0x7f) &&
               keep.find(static_cast<char>(c)) == std::string::npos) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
      i += 1;
    } else if (len == 2 && c == 0xc2 && s[i + 1] <= 0x9f) {  // C1: U+0080 to U+009F
      std::snprintf(hex, sizeof hex, "\\u%04x", s[i + 1]);
      out += hex;
      i += 2;
    } else if (len == 3 && c == 0xef && s[i + 1] == 0xbf && s[i + 2] >= 0xbe) {  // U+FFFE, U+FFFF
      std::snprintf(hex, sizeof hex, "\\u%04x", 0xff00 | (0xc0 + (s[i + 2] & 0x3f)));
      out += hex;
      i += 3;
    } else {
      out.append(text, i, len);
      i += len;
    }
  }
  return out;
}

}  // namespace grader
