// A student's report as one static page (`./kit grade --html FILE`, and grade-all's
// OUT/reports/<name>.html beside each native report). It is laid out as the terminal report is
// (report_layout.hpp): "Start here" first, the same status words, tags and folding (a check's
// <details> is open exactly when the terminal shows its details), a build error said once, each
// exercise's hand-out linked and its hint command named, and the submission's own name in the
// heading. Made from the native report (report_json.cpp, read back by report_from_json.hpp), so
// that merge-grades, which has the reports only, writes the same pages. Opens from disk: no
// script, no request (html_text.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace grader {

std::string student_report_html(const nlohmann::json& native_report);

}  // namespace grader
