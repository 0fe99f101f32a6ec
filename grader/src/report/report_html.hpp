// A student's report as one static page (`./kit grade --html FILE`, and grade-all's
// OUT/reports/<name>.html beside each native report): the total, then each exercise with each
// check's verdict, points and message; the checks that did not pass (and a build that failed)
// are open, the passed ones folded. Made from the native report (report_json.cpp), so that
// merge-grades, which has the reports only, writes the same pages. Opens from disk: no script,
// no request (html_text.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace grader {

std::string student_report_html(const nlohmann::json& native_report);

}  // namespace grader
