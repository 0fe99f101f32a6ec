// Where a submission's reports are written in OUT/reports/, whatever its folder is named.
#pragma once

#include <string>

namespace grader {

// The file name (without .json or .html) of a submission's reports in OUT/reports/: its own
// name when a file can carry it as it is, else a safe one that keeps the reports of any name
// apart. A folder name is at most 255 bytes, so "<name>.json" can be too long for a file
// name (ENAMETOOLONG stopped the class), and a name may hold control characters or bytes that
// are not UTF-8. Such a name becomes its first 100 bytes or so (cut between UTF-8 characters),
// every byte that is not printable UTF-8 made '_', then '~' and 16 hex digits of its SHA-256.
// The report keeps the real name (report["class"]["submission"]).
std::string report_stem(const std::string& submission);

}  // namespace grader
