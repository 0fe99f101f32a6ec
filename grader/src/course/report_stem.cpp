// A submission's report file name: see report_stem.hpp.
#include "report_stem.hpp"

#include "../util/sha256.hpp"
#include "../util/utf8.hpp"

#include <algorithm>

namespace grader {

namespace {

// U+0080 to U+009F, control characters some terminals obey: bytes C2 80 to C2 9F in UTF-8.
bool has_c1_control(const std::string& text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) == 0xC2 &&
        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9F)
      return true;
  return false;
}

}  // namespace

std::string report_stem(const std::string& submission) {
  // A name a file carries as it is: printable UTF-8, no '/', short enough for ".json" and
  // ".html" after it (255 bytes is the usual limit of a file name).
  constexpr std::size_t kLongest = 200;
  const bool printable_utf8 =
      valid_utf8(submission) == submission &&
      std::none_of(submission.begin(), submission.end(),
                   [](unsigned char c) { return c < 0x20 || c == 0x7F || c == '/'; }) &&
      !has_c1_control(submission);
  // A name that ends like a shortened one ("~" and 16 hex digits) is shortened too, so that no
  // folder can be named after another's report file and take it over.
  const bool looks_shortened =
      submission.size() > 17 && submission[submission.size() - 17] == '~' &&
      submission.find_first_not_of("0123456789abcdef", submission.size() - 16) == std::string::npos;
  if (!submission.empty() && submission.size() <= kLongest && printable_utf8 &&
      submission[0] != '.' && !looks_shortened)
    return submission;
  // Else: a readable start, then a hash of the whole name, which keeps two names apart.
  std::string start;
  const std::string valid = valid_utf8(submission);  // U+FFFD for each stray byte
  for (std::size_t i = 0; i < valid.size();) {
    const auto c = static_cast<unsigned char>(valid[i]);
    const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (start.size() + len > 100) break;
    const std::string one = valid.substr(i, len);
    const bool bad = c < 0x20 || c == 0x7F || c == '/' || one == "\xef\xbf\xbd" ||
                     has_c1_control(one) || (start.empty() && c == '.');
    start += bad ? std::string("_") : one;
    i += len;
  }
  Sha256 h;
  h.add(submission);
  return start + "~" + h.hex().substr(0, 16);
}

}  // namespace grader
