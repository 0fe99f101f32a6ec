// Which headers a submission may include: the kit's API headers (exercises/<e>/<e>.hpp and
// exercises/common/), Eigen's and the standard library's; and what a submission is told when
// it includes anything else. A submission is its own .cpp file: any other file it reaches
// through an #include is refused, so that it cannot read (and print) files of the kit.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace grader::build {

// Where the API headers a submission is compiled against come from: the pristine copies of a
// student kit (grader/data/headers/), else the kit's own exercises/.
const std::filesystem::path& header_dir();

// The kit's headers a submission may include, sorted, as normalized paths under header_dir().
std::vector<std::filesystem::path> kit_headers();

// Eigen's and the standard library's headers: found at the same paths inside the sandbox.
bool library_header(const std::filesystem::path& file);

// One error line for each file of the compiler's dependency list (`deps`) that is neither the
// compiled source (`source_name`) nor a header the submission may include (`public_header`),
// at the line of `source` (the student's text, shown as `shown`) that includes it; a grader
// fault when the list is empty. Empty when nothing is refused.
std::string refused_includes(const std::vector<std::string>& deps, const std::string& source_name,
                             const std::string& shown, const std::string& source,
                             const std::function<bool(const std::string& path)>& public_header);

}  // namespace grader::build
