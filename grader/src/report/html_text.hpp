// Text for the kit's static HTML pages (the class report, a student's report): every string a
// student controls (a folder name, a roster cell, a message quoting their output) goes through
// here, so that none of it can become markup, an attribute or a link elsewhere.
#pragma once

#include <string>

namespace grader::html {

// Text for an element's content or a quoted attribute value: & < > " ' as character
// references; control characters other than tab, newline and carriage return (which HTML
// forbids) as the visible text \xNN, as the terminal report shows them.
std::string escape(const std::string& text);

// One path segment of a relative link (a report's file name): every byte but the unreserved
// ones of RFC 3986 (letters, digits, - . _ ~) percent-encoded, so that no name can leave the
// folder ("/", ".."), start a query or fragment ("?", "#") or a scheme ("javascript:").
std::string url_segment(const std::string& name);

// A whole page: UTF-8, a viewport for laptops and phones, the kit's shared style, and a
// Content-Security-Policy that allows no script, no request and no plug-in: even markup that
// slipped past escape() could load nothing and run nothing. `title` is escaped here; `style`
// (the page's own rules) and `body` are markup made by the caller.
std::string page(const std::string& title, const std::string& style, const std::string& body);

// The colours of the pages' charts, from Okabe and Ito's palette (the labs' plots use it too),
// which stays apart under the common colour-vision deficiencies: a series, then passing
// (bluish green) and failing (vermilion). A chart never tells these apart by colour alone.
inline constexpr const char* kSeriesColour = "#0072b2";
inline constexpr const char* kPassColour = "#009e73";
inline constexpr const char* kFailColour = "#d55e00";

}  // namespace grader::html
