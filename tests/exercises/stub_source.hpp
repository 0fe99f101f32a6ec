// Deriving a stub from its solution: the one source of truth for exercises/<name>/<name>.cpp.
// The rules are in tests/exercises/README.md; in short, line by line:
//   "// BEGIN SOLUTION" ... "// END SOLUTION"  these lines and everything between are dropped;
//   "// STUB: text"                            becomes "text", at the marker's indentation;
//   "// STUB:"                                 becomes an empty line;
//   any other line                             is copied unchanged.
// A marker is recognised when it is the whole line apart from leading and trailing blanks
// (for STUB, when the line starts with it). Regions do not nest, STUB lines may not sit inside a
// region, and an open region at the end of the file is an error.
#pragma once

#include "../exercise_list.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace stubgen {

inline constexpr const char* kBegin = "// BEGIN SOLUTION";
inline constexpr const char* kEnd = "// END SOLUTION";
inline constexpr const char* kStub = "// STUB:";

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The kit's exercises, in the order of the course (tests/exercise_list.hpp): a new exercise is
// covered the day its folder is copied in.
inline std::vector<std::string> exercises(const std::string& root) {
  return kit_exercises::in_order(root);
}

namespace detail {

inline std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace detail

// The stub text for a solution text. `where` names the file in error messages.
inline std::string derive_stub(const std::string& solution, const std::string& where = "input") {
  std::string out;
  bool in_region = false;
  int begin_line = 0;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < solution.size()) {
    std::size_t eol = solution.find('\n', pos);
    const bool has_newline = eol != std::string::npos;
    if (!has_newline) eol = solution.size();
    const std::string line = solution.substr(pos, eol - pos);
    pos = has_newline ? eol + 1 : eol;
    ++line_no;
    const std::string newline = has_newline ? "\n" : "";
    const std::string here = where + ":" + std::to_string(line_no) + ": ";

    const std::string content = detail::trim(line);
    if (content == kBegin) {
      if (in_region)
        throw Error(here + "BEGIN SOLUTION inside the region opened at line " +
                    std::to_string(begin_line));
      in_region = true;
      begin_line = line_no;
    } else if (content == kEnd) {
      if (!in_region) throw Error(here + "END SOLUTION without a BEGIN SOLUTION");
      in_region = false;
    } else if (detail::starts_with(content, kStub)) {
      if (in_region) throw Error(here + "STUB line inside a solution region");
      const std::string indent = line.substr(0, line.find_first_not_of(" \t"));
      std::string text = content.substr(std::string(kStub).size());
      if (!text.empty() && text[0] == ' ') text.erase(0, 1);
      out += text.empty() ? newline : indent + text + newline;
    } else if (content.find("BEGIN SOLUTION") != std::string::npos ||
               content.find("END SOLUTION") != std::string::npos) {
      throw Error(here + "a marker must stand alone on its line: " + content);
    } else if (!in_region) {
      out += line + newline;
    }
  }
  if (in_region) {
    throw Error(where + ": the region opened at line " + std::to_string(begin_line) +
                " is never closed");
  }
  return out;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot write " + path);
  out << text;
}

inline std::string solution_path(const std::string& root, const std::string& name) {
  return root + "/solutions/" + name + "/" + name + ".cpp";
}
inline std::string stub_path(const std::string& root, const std::string& name) {
  return root + "/exercises/" + name + "/" + name + ".cpp";
}

}  // namespace stubgen
