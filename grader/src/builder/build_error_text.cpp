// What a report shows first of a failed build (first_errors, declared in builder.hpp): the
// compiler's located errors with the source lines they quote, or, for a link that failed, the
// linker's lines made readable.
#include "builder.hpp"

#include "build_log.hpp"

#include <regex>
#include <sstream>
#include <vector>

namespace grader {

namespace {

// A linker's "undefined reference" line names the harness function that made the call and
// spells Eigen's types in full; a student needs only the missing function, in the API's words.
// Matrix, Vector and FeatureMap are the aliases of the kit's common header
// (exercises/common/linattn.hpp), which every exercise's API is written in: nothing here is
// about one exercise.
const std::string kUndefined = "undefined reference to ";

std::string readable_function(std::string what) {
  replace_all(what, "Eigen::Matrix<double, -1, -1, 0, -1, -1>", "Matrix");
  replace_all(what, "Eigen::Matrix<double, -1, 1, 0, -1, 1>", "Vector");
  replace_all(what, "std::function<Matrix (Matrix const&)>", "FeatureMap");
  replace_all(what, "linattn::", "");
  return what;
}

// Unlocated: the harness (compiled without line tables) calls a function the student's file
// does not define.
std::string readable_link_error(const std::string& line) {
  const auto at = line.find(kUndefined);
  if (at == std::string::npos) return line;
  return "error: no definition of " + readable_function(line.substr(at + kUndefined.size())) +
         " (the signature the kit's header declares)";
}

// Located (the student's file has line tables): a line of theirs calls a function nothing
// defines.
std::string readable_located_link_error(const std::string& line) {
  const auto at = line.find(kUndefined);
  if (at == std::string::npos) return line;
  return line.substr(0, at) + "no definition of " +
         readable_function(line.substr(at + kUndefined.size())) + ", which this line calls";
}

}  // namespace

std::string first_errors(const std::string& log, int max_lines) {
  // "file:line: error: ..." or "file:line:col: fatal error: ...".
  static const std::regex located(R"(^[^\s:][^:]*:\d+(:\d+)?: (fatal )?error: .*)");
  // The source line gcc quotes under a message and its caret line: "    4 | }", "      | ^".
  static const std::regex excerpt(R"(^\s*\d*\s*\|.*)");
  std::vector<std::string> lines, fallback;
  std::istringstream in(log);
  std::string line;
  bool quoting = false;  // after a located error: its excerpt goes with it
  while (std::getline(in, line)) {
    if (std::regex_match(line, located)) {
      lines.push_back(readable_located_link_error(line));
      quoting = true;
      continue;
    }
    if (quoting && std::regex_match(line, excerpt)) {
      lines.back() += "\n" + line;
      continue;
    }
    quoting = false;
    if (line.find("undefined reference") != std::string::npos ||
        line.find("error:") != std::string::npos)
      fallback.push_back(readable_link_error(line));
  }
  if (lines.empty()) lines = fallback;  // link errors carry no line numbers
  std::string out;
  for (int i = 0; i < static_cast<int>(lines.size()) && i < max_lines; ++i) out += lines[i] + "\n";
  // The builder's own explanations ("note: ..." at the start of a line) always follow: they
  // say what a bare compiler or linker message does not, e.g. that headers come from the kit.
  // So does a fault of the grader ("grader fault: ...", builder.cpp), which no compiler error
  // stands for: without it the report would say that the build failed, and not why.
  std::istringstream notes(log);
  while (std::getline(notes, line))
    if (line.rfind("note: ", 0) == 0 || line.rfind("grader fault: ", 0) == 0) out += line + "\n";
  return out;
}

}  // namespace grader
