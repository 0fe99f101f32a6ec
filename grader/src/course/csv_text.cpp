// Text helpers of the gradebook's CSV files, reading and writing: see csv_text.hpp.
#include "csv_text.hpp"

#include "../util/printable.hpp"

#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace grader::gradebook {

std::string number(double x) {
  std::ostringstream o;
  o << std::round(x * 1e6) / 1e6;
  return o.str();
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// "Student ID", "student_id", "STUDENT-ID" -> "student id".
std::string header_key(const std::string& s) {
  std::string out;
  for (char c : trim(s))
    out += (c == '_' || c == '-') ? ' '
                                  : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string line_of(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line + "\n";
}

std::string join_names(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

namespace {

// Whether a spreadsheet could read the cell as a formula: its first character, or its first
// after leading spaces (some importers trim them: "  =1+2"), is = + - @, or one of their
// full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20), which some locales' spreadsheets take as
// the ASCII ones. (Control characters, a leading tab or line end among them, never reach it:
// csv_field shows them as escapes first.)
bool starts_like_formula(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return false;
  if (std::string("=+-@").find(text[first]) != std::string::npos) return true;
  for (const char* wide : {"\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"})
    if (text.compare(first, 3, wide) == 0) return true;
  return false;
}

}  // namespace

std::string csv_field(const std::string& text) {
  // Control characters and bytes that are not UTF-8 (a roster cell, a folder name, a note
  // quoting an upload's name) are written as visible escapes ("\x1b", "\x0a"): an export is
  // one line per student for a person and an importer, and carries no terminal sequence; a tab
  // or a line end can then split no cell in a Tab-delimited or line-based import either.
  const std::string shown = escape_controls(text, "");
  // A cell a spreadsheet would read as a formula (a folder named "=1+2", a file path a student
  // chose) gets a leading apostrophe, so that it shows as text: OWASP's advice on CSV injection.
  std::string s = starts_like_formula(shown) ? "'" + shown : shown;
  // Opened with ';' as the separator (a spreadsheet set to a European locale), a cell splits
  // there ("x;=1+2" is then two cells, the second a formula). The part after such a ';' gets
  // the apostrophe as well, and the field is quoted (one cell wherever quotes are honoured).
  // A plain "; " in the notes is left as it is.
  bool split_formula = false;
  for (std::size_t at = s.find(';'); at != std::string::npos; at = s.find(';', at + 1))
    if (starts_like_formula(s.substr(at + 1))) {
      s.insert(at + 1, "'");
      split_formula = true;
    }
  if (!split_formula && s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<std::vector<std::string>> parse_csv(const std::string& input) {
  std::string text = input;
  if (text.rfind(kBom, 0) == 0) text.erase(0, 3);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  std::size_t line = 1, quote_line = 1;  // the line now, and where the open quote began
  auto end_row = [&] {
    if (any || !field.empty() || !row.empty()) {
      row.push_back(field);
      bool blank =
          std::all_of(row.begin(), row.end(), [](const std::string& f) { return trim(f).empty(); });
      if (!blank) rows.push_back(row);
    }
    row.clear();
    field.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      quote_line = line;
      any = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_row();
      ++line;
    } else {
      field += c;
    }
  }
  if (quoted)
    throw std::runtime_error("the quote opened on line " + std::to_string(quote_line) +
                             " is never closed");
  end_row();
  return rows;
}

}  // namespace grader::gradebook
