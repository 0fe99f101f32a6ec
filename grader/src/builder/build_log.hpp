// What a student may read of the compiler's and linker's messages about their submission.
#pragma once

#include <functional>
#include <string>

namespace grader {

// Keeps every line about the submission's own file (`shown`, as the student knows it), the
// compiler's words about headers the submission may include (`public_header(path)`: the kit's
// API headers, Eigen, the standard library) without the quoted source lines of those headers,
// and the linker's own lines. A message located in any other file is replaced by one line that
// names the file and says its text is not shown: a submission that includes, say, a data file
// learns that it failed, never what the file holds.
std::string submission_only_log(const std::string& log, const std::string& shown,
                                const std::function<bool(const std::string& path)>& public_header);

// The same, for several files of the student's own (`own(path)`).
std::string own_files_only_log(const std::string& log,
                               const std::function<bool(const std::string& path)>& own,
                               const std::function<bool(const std::string& path)>& public_header);

// Every occurrence of `from` in `s` replaced by `to`: how the stage's paths in a tool's messages
// become the names a student knows, and Eigen's spelled-out types the API's.
void replace_all(std::string& s, const std::string& from, const std::string& to);

}  // namespace grader
