// Text from the code under test (its output, its exception messages, compiler logs cut at a
// byte limit) may be any bytes; the reports are JSON and XML, which need valid UTF-8.
#pragma once

#include <string>

namespace grader {

// The length of the valid UTF-8 sequence starting at s[i] of s[0..n) (1 to 4), or 0 when the
// byte there starts none (a stray continuation byte, an overlong form, a surrogate, a code
// point beyond U+10FFFF, a sequence cut by the end).
inline std::size_t utf8_length(const unsigned char* s, std::size_t i, std::size_t n) {
  const unsigned char c = s[i];
  const std::size_t len = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xe  ? 3
                          : (c >> 3) == 0x1e ? 4
                                             : 0;
  if (len == 0 || i + len > n) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((s[i + k] >> 6) != 0x2) return 0;
  if (len == 2 && c < 0xc2) return 0;
  if (len == 3 && ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0))) return 0;
  if (len == 4 && ((c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90) || c > 0xf4))
    return 0;
  return len;
}

// `text` with every byte that does not start or continue a valid UTF-8 sequence replaced by
// U+FFFD, the replacement character. Valid text comes back unchanged.
inline std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_length(s, i, text.size());
    if (len > 0) {
      out.append(text, i, len);
      i += len;
    } else {
      out += "\xef\xbf\xbd";
      i += 1;
    }
  }
  return out;
}

}  // namespace grader
