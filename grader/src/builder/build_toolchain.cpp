#include "build_toolchain.hpp"

#include "../sandbox/sandbox.hpp"
#include "build_paths.hpp"
#include "grader_config.hpp"

#include <sys/stat.h>

#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace grader::build {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

std::vector<std::string> eigen_dirs() { return split(LINATTN_EIGEN_INCLUDE, ';'); }

std::vector<std::string> submission_flags() { return split(LINATTN_SUBMISSION_FLAGS, ' '); }

std::vector<std::string> compile_flags() {
  std::vector<std::string> flags = {LINATTN_CXX_STANDARD};
  for (const auto& f : submission_flags()) flags.push_back(f);
  flags.push_back("-fdiagnostics-color=never");
  for (const auto& d : eigen_dirs()) {
    flags.push_back("-isystem");
    flags.push_back(d);
  }
  return flags;
}

const std::vector<fs::path>& system_include_dirs() {
  static const std::vector<fs::path> dirs = [] {
    std::vector<fs::path> found;
    Limits limits;
    limits.wall_seconds = 60;
    limits.address_space_bytes = 4ull << 30;
    RunOutcome r = run_sandboxed({LINATTN_CXX, LINATTN_CXX_STANDARD, "-x", "c++", "-E", "-v",
                                  "/dev/null", "-o", "/dev/null"},
                                 fs::temp_directory_path(), limits);
    std::istringstream in(r.output);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
      if (line.rfind("#include <...> search starts here:", 0) == 0) inside = true;
      else if (line.rfind("End of search list.", 0) == 0) inside = false;
      else if (inside && !line.empty() && line[0] == ' ') found.push_back(normal(line.substr(1)));
    }
    return found;
  }();
  return dirs;
}

// The compiler binary behind LINATTN_CXX (through symlinks), with size and time: a compiler
// upgrade changes the key.
std::string compiler_identity() {
  const fs::path real = normal(LINATTN_CXX);
  struct stat st {};
  std::ostringstream s;
  s << LINATTN_CXX << " -> " << real.string();
  if (::stat(real.c_str(), &st) == 0) s << " " << st.st_size << " " << st.st_mtim.tv_sec;
  return s.str();
}

// The compiler as a path that exists inside the sandbox: /usr/bin/c++ is usually a link
// through /etc/alternatives, which the sandbox does not have.
const std::string& compiler() {
  static const std::string path = [] {
    std::error_code ec;
    const fs::path real = fs::canonical(LINATTN_CXX, ec);
    return ec ? std::string(LINATTN_CXX) : real.string();
  }();
  return path;
}

}  // namespace grader::build
