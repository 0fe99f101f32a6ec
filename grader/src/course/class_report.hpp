// The class report: OUT/class-report.html, beside gradebook.csv (grade-all and merge-grades
// write it). What an instructor reads to see what to teach again: the distribution of the
// totals and of each exercise's scores, each check's pass rate, the likely mistakes the checks
// named and how many students made each, the submissions that do not build, miss a file or have
// competing files, the late ones, and a line per submission with a link to its own page
// (reports/<name>.html, report_html.hpp). Plain HTML and SVG, no script, no request: it opens
// from disk and prints. Every name and message is escaped (html_text.hpp).
#pragma once

#include "class_summary.hpp"

#include <string>

namespace grader {

// `title`: the assignment's title or name, for the heading.
std::string class_report_html(const ClassSummary& summary, const std::string& title);

// The relative link from the class report to a submission's page.
std::string report_link(const std::string& submission);

// The histograms' size (px) and a bound on the width of one character of their labels (13 px
// text; a digit or '.' is at most about 0.6 em wide).
inline constexpr int kHistogramWidth = 440;
inline constexpr double kHistogramCharWidth = 8.0;
// Which of a histogram's eleven bin edges (0, max/10, ..., max) carry a label: every k-th, k
// the smallest of 1, 2, 5, 10 at which no two labels, kHistogramCharWidth a character, come
// closer than 4 px when their centres are k * slot apart (slot: one bar's width in px).
int histogram_label_stride(double max, int slot);

}  // namespace grader
