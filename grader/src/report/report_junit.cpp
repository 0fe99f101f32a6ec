// JUnit XML, the format most CI tools read: one <testsuite> per exercise, one <testcase> per
// check. A wrong answer or a missing function is a <failure>; anything that stopped the code
// from answering (crash, time-out, exception, memory, build) is an <error>.
#include "report.hpp"

#include "../util/utf8.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace grader {

namespace {

// Text for XML 1.0 (element content or a quoted attribute): markup characters as entities, and
// what XML 1.0 does not allow even as a character reference shown as text, so that a name or
// message a student controls can never make the file ill-formed: C0 controls but tab, newline
// and carriage return (\xNN), U+FFFE and U+FFFF (\uFFFE), and bytes that are not UTF-8 (U+FFFD,
// valid_utf8; that also covers encoded surrogates, which XML forbids too).
std::string xml_escape(const std::string& text) {
  const std::string s = valid_utf8(text);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", ch);
          out += buf;
        } else if (ch == 0xEF && s.compare(i, 3, "\xEF\xBF\xBE") == 0) {
          out += "\\uFFFE";
          i += 2;
        } else if (ch == 0xEF && s.compare(i, 3, "\xEF\xBF\xBF") == 0) {
          out += "\\uFFFF";
          i += 2;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out;
}

}  // namespace

std::string to_junit_xml(const Report& report) {
  std::ostringstream xml;
  xml << std::fixed << std::setprecision(3);  // time="0.004", never "4e-03" (xs:decimal)
  int tests = 0, failures = 0, errors = 0;
  for (const auto& ex : report.exercises)
    for (const auto& c : ex.checks) {
      ++tests;
      if (c.status == Status::Passed) continue;
      (is_wrong_answer(c.status) ? failures : errors) += 1;
    }
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"linattn-kit\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" time=\"" << report.seconds << "\">\n";
  for (const auto& ex : report.exercises) {
    int ex_failures = 0, ex_errors = 0;
    double ex_time = 0;
    for (const auto& c : ex.checks) {
      ex_time += c.seconds;
      if (c.status == Status::Passed) continue;
      (is_wrong_answer(c.status) ? ex_failures : ex_errors) += 1;
    }
    xml << "  <testsuite name=\"" << xml_escape(ex.name) << "\" tests=\"" << ex.checks.size()
        << "\" failures=\"" << ex_failures << "\" errors=\"" << ex_errors << "\" time=\"" << ex_time
        << "\">\n";
    for (const auto& c : ex.checks) {
      xml << "    <testcase classname=\"" << xml_escape(ex.name + "." + c.function) << "\" name=\""
          << xml_escape(c.name) << "\" time=\"" << c.seconds << "\"";
      if (c.status == Status::Passed) {
        xml << "/>\n";
        continue;
      }
      const char* tag = is_wrong_answer(c.status) ? "failure" : "error";
      std::string body = c.message;
      if (!c.rerun.empty()) body += "\nrerun: " + c.rerun;
      xml << ">\n      <" << tag << " type=\"" << status_name(c.status) << "\" message=\""
          << xml_escape(std::string(status_name(c.status)) + ": " +
                        c.message.substr(0, c.message.find('\n')))
          << "\">" << xml_escape(body) << "</" << tag << ">\n";
      if (!c.output.empty())
        xml << "      <system-out>" << xml_escape(c.output) << "</system-out>\n";
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  return xml.str();
}

}  // namespace grader
