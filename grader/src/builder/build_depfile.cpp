#include "build_depfile.hpp"

namespace grader::build {

std::vector<std::string> parse_depfile(const std::string& text) {
  std::vector<std::string> deps;
  std::size_t i = text.find(": ");
  if (i == std::string::npos) return deps;
  i += 2;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) deps.push_back(current);
    current.clear();
  };
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      const char next = text[i + 1];
      if (next == '\n') {
        flush();
        ++i;
        continue;
      }
      if (next == ' ' || next == '#' || next == '\\') {
        current += next;
        ++i;
        continue;
      }
      current += c;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      current += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return deps;
}

}  // namespace grader::build
