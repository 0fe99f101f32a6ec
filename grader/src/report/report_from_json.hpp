// A native report (report_json.cpp) read back into the grader's Report: merge-grades has only
// the reports, and the page (report_html.cpp) must lay them out exactly as the terminal lays
// out a run (report_layout.hpp), which works on a Report.
#pragma once

#include "report.hpp"

#include <nlohmann/json.hpp>

namespace grader {

// What the layout needs: the submission, totals, exercises and every check's fields. A field
// that is absent or of the wrong type reads as empty (a report from an older grader, or one
// edited by hand, still makes a page); a status word no Status has reads as Error. Lateness is
// not read back: the page takes it from the JSON as it stands.
Report report_from_native_json(const nlohmann::json& native);

// One field of a JSON object, read as above: a string or "", a number or 0.
std::string json_text(const nlohmann::json& j, const char* key);
double json_number(const nlohmann::json& j, const char* key);

}  // namespace grader
