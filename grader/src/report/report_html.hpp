// A student's report as one static page (`./kit grade --html FILE`, and grade-all's
// OUT/reports/<name>.html beside each native report). It is laid out as the terminal report is
// (report_layout.hpp): "Start here" first, the same status words, tags and folding (a check's
// <details> is open exactly when the terminal shows its details), a build error said once, each
// exercise's hand-out linked (from where the page is) and its hint command named, and the
// submission's own name in the heading. Made from the native report (report_json.cpp, read back by
// report_from_json.hpp), so that merge-grades, which has the reports only, writes the same pages.
// Opens from disk: no script, no request (html_text.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace grader {

// `kit`: the kit's folder seen from where the page is written, as a relative URL ending in '/'
// (kit_url_from), so that the hand-outs are links; none for a page read away from the kit
// (grade-all's, which an instructor may hand out), which names them as text.
std::string student_report_html(const nlohmann::json& native_report,
                                const std::optional<std::string>& kit = std::nullopt);

// The folder `kit` as a relative URL from the folder of the page `page` (each segment
// percent-encoded, ending in '/'): "../" for a page in the kit's build folder, say.
std::string kit_url_from(const std::string& page, const std::string& kit);

}  // namespace grader
