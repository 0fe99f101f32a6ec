// Text a student or an upload controls (a program's output, a file, folder or archive entry
// name, a roster cell) reaches a terminal, a CSV export or an XML file. Shown as it is, it could
// move the cursor, clear the screen, retitle the window, forge a line of the grader's own, or
// make the file ill-formed; these functions turn every such character into visible text.
#pragma once

#include <string>

namespace grader {

// `text` with every control character escaped except those in `keep` (say "\n\t"): C0 controls
// and DEL as \xNN, C1 controls (U+0080 to U+009F, which some terminals obey) and the
// noncharacters U+FFFE and U+FFFF (which XML refuses) as \uNNNN, and each byte that is not
// part of valid UTF-8 (a lone 0x9B is an 8-bit CSI to some terminals) as \xNN. Plain UTF-8
// text in any script comes back unchanged.
std::string escape_controls(const std::string& text, const std::string& keep);

// What a submission printed, for a terminal: lines and tabs kept.
inline std::string printable(const std::string& text) { return escape_controls(text, "\n\t"); }

// A name (a file, a folder, a student), on one line: a newline or a tab in it is escaped too,
// so that it can never start a line that looks like the grader's.
inline std::string printable_name(const std::string& name) { return escape_controls(name, ""); }

}  // namespace grader
