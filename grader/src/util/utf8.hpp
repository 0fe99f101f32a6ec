// Text from the code under test (its output, its exception messages, compiler logs cut at a
// byte limit) may be any bytes; the reports are JSON and XML, which need valid UTF-8.
#pragma once

#include <string>

namespace grader {

// `text` with every byte that does not start or continue a valid UTF-8 sequence replaced by
// U+FFFD, the replacement character. Valid text comes back unchanged.
inline std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    std::size_t len = c < 0x80           ? 1
                      : (c >> 5) == 0x6  ? 2
                      : (c >> 4) == 0xe  ? 3
                      : (c >> 3) == 0x1e ? 4
                                         : 0;
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) ok = (s[i + k] >> 6) == 0x2;
    if (ok && len == 2) ok = c >= 0xc2;  // overlong
    if (ok && len == 3) ok = !(c == 0xe0 && s[i + 1] < 0xa0) && !(c == 0xed && s[i + 1] >= 0xa0);
    if (ok && len == 4)
      ok = !(c == 0xf0 && s[i + 1] < 0x90) && !(c == 0xf4 && s[i + 1] >= 0x90) && c <= 0xf4;
    if (ok) {
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
