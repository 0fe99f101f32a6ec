// The file finder's rules are in find_files.hpp.
#include "find_files.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

namespace grader {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 12;
constexpr std::size_t kMaxEntries = 20000;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool skipped_name(const std::string& name) { return name.empty() || name[0] == '.' || name == "__MACOSX"; }

// A plain file, not through a link.
bool plain_file(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::regular;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

bool finder_skips(const std::string& name) { return skipped_name(name); }

const char* FoundSource::kind_name() const {
  switch (kind) {
    case Kind::Found: return "found";
    case Kind::Ambiguous: return "ambiguous";
    default: return "missing";
  }
}

std::string FoundSource::problem(const std::string& ex) const {
  if (kind == Kind::Found) return "";
  if (kind == Kind::Missing)
    return "No file " + ex + "/" + ex + ".cpp in the submission (nor " + ex +
           ".cpp anywhere in it): this exercise scores zero.";
  std::string list;
  for (const auto& c : candidates) list += "\n  " + c;
  return "Several files could be " + ex + ".cpp, and the grader will not guess which one:" + list +
         "\nKeep one of them, or put the one to grade at " + ex + "/" + ex +
         ".cpp. This exercise scores zero until then.";
}

bool names_exercise_file(const std::string& filename, const std::string& exercise) {
  const std::string name = lower(filename), ex = lower(exercise);
  const std::string ext = ".cpp";
  if (name.size() <= ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0) return false;
  const std::string stem = name.substr(0, name.size() - ext.size());
  if (stem.rfind(ex, 0) != 0) return false;
  std::string rest = stem.substr(ex.size());
  if (rest.empty()) return true;
  // "causal (1)", "causal(1)"
  std::string r = rest;
  if (r[0] == ' ') r.erase(0, 1);
  if (r.size() >= 3 && r.front() == '(' && r.back() == ')' && all_digits(r.substr(1, r.size() - 2))) return true;
  // "causal-1", "causal_1"
  return (rest[0] == '-' || rest[0] == '_') && all_digits(rest.substr(1));
}

FoundSource find_exercise_source(const fs::path& submission, const std::string& ex) {
  FoundSource out;
  const std::string file = ex + ".cpp";
  // Rule 3's candidates, gathered first: rules 1 and 2 name them as ignored.
  std::vector<std::string> seen;
  std::error_code ec;
  std::size_t entries = 0;
  for (fs::recursive_directory_iterator it(submission, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (++entries > kMaxEntries) break;
    const std::string name = it->path().filename().string();
    std::error_code sec;
    const auto type = it->symlink_status(sec).type();
    if (skipped_name(name) || type == fs::file_type::symlink) {
      if (type == fs::file_type::directory) it.disable_recursion_pending();
      continue;
    }
    if (type == fs::file_type::directory) {
      if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
      continue;
    }
    if (type == fs::file_type::regular && names_exercise_file(name, ex))
      seen.push_back(it->path().lexically_relative(submission).generic_string());
  }
  std::sort(seen.begin(), seen.end());

  auto take = [&](const std::string& rel) {
    out.kind = FoundSource::Kind::Found;
    out.path = submission / rel;
    out.shown = rel;
    for (const auto& s : seen)
      if (s != rel) out.ignored.push_back(s);
    return out;
  };
  if (plain_file(submission / ex / file)) return take(ex + "/" + file);
  if (plain_file(submission / file)) return take(file);
  if (seen.size() == 1) return take(seen.front());
  if (seen.size() > 1) {
    out.kind = FoundSource::Kind::Ambiguous;
    out.candidates = seen;
  }
  return out;
}

}  // namespace grader
