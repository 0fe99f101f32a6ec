// Escaping for the kit's HTML pages: see html_text.hpp.
#include "html_text.hpp"

#include <cstdio>

namespace grader::html {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  char hex[8];
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || c == 0x7F) {
          std::snprintf(hex, sizeof hex, "\\x%02x", c);
          out += hex;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string url_segment(const std::string& name) {
  std::string out;
  char hex[4];
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || ch == '-' || ch == '.' || ch == '_' ||
                            ch == '~';
    if (unreserved) {
      out += ch;
    } else {
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  // "." and ".." are segments a browser resolves to the folder itself or its parent.
  if (out == "." || out == "..") {
    std::string dots;
    for (std::size_t i = 0; i < out.size(); ++i) dots += "%2E";
    return dots;
  }
  return out;
}

namespace {

// What both pages share: readable on a laptop and in print, tables that scroll on a phone.
const char* const kSharedStyle = R"css(
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 1rem auto; padding: 0 1rem;
       color: #222; line-height: 1.4; overflow-wrap: break-word; }
svg { max-width: 100%; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.1rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: 0.4rem; margin: 0.3rem 0; }
.passed { color: #007a5a; } .failed { color: #b34700; } .muted { color: #666; }
details > summary { cursor: pointer; }
svg text { font-family: system-ui, sans-serif; font-size: 11px; }
@media print { details { break-inside: avoid; } a { color: inherit; } }
)css";

}  // namespace

std::string page(const std::string& title, const std::string& style, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" +
         escape(title) + "</title>\n<style>" + kSharedStyle + style +
         "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
}

}  // namespace grader::html
