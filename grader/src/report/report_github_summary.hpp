// The report for a GitHub Actions job (`grade --github-summary`): Markdown for the job's
// summary page (the file $GITHUB_STEP_SUMMARY names) and one workflow command per check that
// did not pass, which GitHub shows as an annotation on the student's file.
//
// Student code controls much of what a report says (a check's output, a message quoting what
// it returned, a file name). In the summary that text is escaped so that no Markdown or HTML in
// it takes effect; in a workflow command it is percent-encoded as GitHub's documentation says,
// so that it can neither end the command nor start another one.
#pragma once

#include "report.hpp"

#include <string>

namespace grader {

// The summary: a score table per exercise, the "Start here" block of the terminal report, and
// each check that did not pass with its message and output (capped: GitHub keeps 1 MiB).
std::string to_github_summary(const Report& report);

// `::error file=PATH,title=TITLE::MESSAGE` lines, one per check that did not pass (the checks
// of a function not written yet folded into one, as the terminal report does), PATH the
// student's file relative to where the grader runs (the repository's root in a workflow).
std::string github_annotations(const Report& report);

// `text` as literal Markdown: every ASCII punctuation character backslash-escaped (so no
// emphasis, link, heading, table cell or HTML tag can start), control characters made visible,
// line breaks as <br>. Exposed for the tests.
std::string markdown_literal(const std::string& text);

// A workflow command's message: % as %25, CR as %0D, LF as %0A. A property (file=, title=)
// also encodes : as %3A and , as %2C, which would otherwise end it.
std::string workflow_message(const std::string& text);
std::string workflow_property(const std::string& text);

}  // namespace grader
