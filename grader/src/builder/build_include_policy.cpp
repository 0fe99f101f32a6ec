#include "build_include_policy.hpp"

#include "../util/read_file.hpp"
#include "build_paths.hpp"
#include "build_toolchain.hpp"
#include "builder.hpp"
#include "grader_config.hpp"

#include <algorithm>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace grader {

namespace build {

namespace {

const fs::path kit_dir{LINATTN_SOURCE_DIR};
const fs::path exercises_dir = kit_dir / "exercises";

// The line of the submission that mentions `file` in an #include, for a message that points
// at it; 1 if none is found (an include reached through a macro, say).
int include_line(const std::string& source, const fs::path& file) {
  std::istringstream in(source);
  std::string line;
  const std::string name = file.filename().string();
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("include") != std::string::npos && line.find(name) != std::string::npos) return n;
  return 1;
}

}  // namespace

// Where the API headers a submission is compiled against come from: the pristine copies a
// student kit carries in grader/data/headers/ (recorded by the release, in the grader's folder,
// which the student does not edit), else the kit's own exercises/ (the instructors' kit).
const fs::path& header_dir() {
  static const fs::path dir = [] {
    const fs::path pristine = kit_dir / "grader" / "data" / "headers";
    std::error_code ec;
    return fs::is_directory(pristine, ec) ? pristine : exercises_dir;
  }();
  return dir;
}

// The kit's headers a submission may include: each exercise's API header
// (exercises/<e>/<e>.hpp) and the shared headers in exercises/common/. Copies of them are
// staged beside the submission in include/, the only folder of the kit a compiler ever sees.
// All of them go into the object's key, so editing any kit header rebuilds whatever might
// depend on it.
std::vector<fs::path> kit_headers() {
  std::vector<fs::path> headers;
  std::error_code ec;
  for (auto it = fs::directory_iterator(header_dir() / "common", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".hpp" || ext == ".h"))
      headers.push_back(normal(it->path()));
  }
  for (const char* exercise : {LINATTN_EXERCISE_LIST}) {
    const fs::path api = header_dir() / exercise / (std::string(exercise) + ".hpp");
    if (fs::is_regular_file(api, ec)) headers.push_back(normal(api));
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

// Eigen's and the standard library's headers: found at the same paths inside the sandbox.
bool library_header(const fs::path& file) {
  const fs::path f = normal(file);
  for (const auto& d : eigen_dirs())
    if (is_under(f, normal(d))) return true;
  for (const auto& d : system_include_dirs())
    if (is_under(f, d)) return true;
  return false;
}

std::string refused_includes(const std::vector<std::string>& deps, const std::string& source_name,
                             const std::string& shown, const std::string& source,
                             const std::function<bool(const std::string& path)>& public_header) {
  std::string rejected;
  for (const auto& dep : deps) {
    if (dep == source_name || public_header(dep)) continue;
    rejected += shown + ":" + std::to_string(include_line(source, dep)) + ": error: includes " +
                dep +
                ", which is not one of the kit's headers, Eigen or the standard "
                "library; a submission is its own .cpp file and may include only those\n";
  }
  if (deps.empty())
    rejected = shown + ":1: error: grader fault: no dependency list from the compiler\n";
  return rejected;
}

}  // namespace build

std::vector<std::string> edited_headers() {
  using build::header_dir;
  using build::normal;
  std::vector<std::string> edited;
  if (normal(header_dir()) == normal(build::exercises_dir)) return edited;
  for (const auto& pristine : build::kit_headers()) {
    const fs::path rel = pristine.lexically_relative(normal(header_dir()));
    std::string kept, local;
    read_file(pristine, kept);
    if (!read_file(build::exercises_dir / rel, local) || local != kept)
      edited.push_back("exercises/" + rel.string());
  }
  return edited;
}

}  // namespace grader
