#include "build_log.hpp"

#include <regex>
#include <sstream>

namespace grader {

std::string submission_only_log(const std::string& log, const std::string& shown,
                                const std::function<bool(const std::string& path)>& public_header) {
  return own_files_only_log(
      log, [&](const std::string& path) { return path == shown; }, public_header);
}

std::string own_files_only_log(const std::string& log,
                               const std::function<bool(const std::string& path)>& own,
                               const std::function<bool(const std::string& path)>& public_header) {
  // "path:12:3: error: ...", "path:12: note: ...", "In file included from path:2:",
  // "                 from path:1:", "path: In function 'f':".
  static const std::regex located(
      R"(^(In file included from |\s+from )?([^:\s][^:]*?):(\d+)(:\d+)?[:,].*)");
  static const std::regex context(R"(^([^:\s][^:]*?): (In |At ).*)");
  // The source lines gcc quotes under a message: "  419 |   code" and "      |   ^~~~".
  static const std::regex excerpt(R"(^\s*\d*\s*\|.*)");
  static const std::regex linker(R"(^(/usr/bin/ld[^:]*|collect2|ld|/usr/bin/[^:\s]*ld): .*)");

  std::istringstream in(log);
  std::ostringstream out;
  std::string line, hidden_file;
  bool quoting = false;  // the last located line was about the submission: its excerpt shows
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, linker)) {
      out << line << "\n";
      quoting = false;
      continue;
    }
    if (std::regex_match(line, m, located) || std::regex_match(line, m, context)) {
      const std::string path = m.size() > 3 && m[2].matched ? m[2].str() : m[1].str();
      if (own(path)) {
        out << line << "\n";
        quoting = true;
        hidden_file.clear();
      } else if (public_header(path)) {
        out << line << "\n";
        quoting = false;
        hidden_file.clear();
      } else {
        if (hidden_file != path)
          out << path
              << ": (a message about this file, which is not part of the submission; its text is "
                 "not shown)\n";
        hidden_file = path;
        quoting = false;
      }
      continue;
    }
    if (std::regex_match(line, excerpt)) {
      if (quoting) out << line << "\n";
      continue;
    }
    if (!hidden_file.empty()) continue;  // a continuation of a hidden message
    out << line << "\n";
  }
  return out.str();
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace grader
