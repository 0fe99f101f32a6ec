// The file finder's rules and the door's, in find_files.hpp.
#include "find_files.hpp"

#include "byte_units.hpp"
#include "printable.hpp"
#include "unique_fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

namespace grader {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 12;
constexpr std::size_t kMaxEntries = 20000;
constexpr std::size_t kMaxLinksNamed = 20;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool skipped_name(const std::string& name) {
  return name.empty() || name[0] == '.' || name == "__MACOSX";
}

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The walk of read_submission_file: root/relative opened one component at a time, none of
// them followed if it is a link. Returns the open file (an invalid UniqueFd, with `out` saying
// why, when it cannot be had).
UniqueFd open_beneath(const fs::path& root, const std::string& relative, SubmissionFile& out) {
  out.status = SubmissionFile::Status::Refused;
  const fs::path rel(relative);
  std::vector<std::string> parts;
  for (const auto& part : rel) {
    const std::string p = part.string();
    if (p.empty()) continue;  // a trailing slash
    if (p == "." || p == ".." || p == "/") {
      out.problem = printable_name(relative) +
                    ": a path that leaves, or names itself through, a folder is refused";
      return UniqueFd();
    }
    parts.push_back(p);
  }
  if (parts.empty() || rel.is_absolute()) {
    out.problem = printable_name(relative) + ": not a path inside the submission";
    return UniqueFd();
  }
  UniqueFd dir(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) {
    out.status = SubmissionFile::Status::Absent;
    out.problem = printable_name(relative) + ": the submission folder cannot be opened (" +
                  std::strerror(errno) + ")";
    return UniqueFd();
  }
  std::string so_far;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    so_far += (i ? "/" : "") + parts[i];
    // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer.
    const int flags = last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
                           : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    const int next = ::openat(dir.get(), parts[i].c_str(), flags);
    if (next < 0) {
      const int err = errno;
      struct stat st {};
      if (::fstatat(dir.get(), parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        out.link = true;
        out.problem = printable_name(relative) + ": " +
                      (last ? std::string("it") : printable_name(so_far)) +
                      " is a symbolic link, and the grader never follows one: a submission is "
                      "graded on its own files only (put the file itself there)";
      } else if (err == ENOENT || err == ENOTDIR) {
        out.status = SubmissionFile::Status::Absent;
        out.problem = printable_name(relative) + ": no such file in the submission";
      } else {
        out.problem = printable_name(relative) + ": cannot be opened (" + std::strerror(err) + ")";
      }
      return UniqueFd();
    }
    dir.reset(next);
  }
  return dir;
}

// The opened file's size, if it is a plain file of at most max_bytes; else `out` says why.
bool within_limits(int fd, const std::string& relative, std::uint64_t max_bytes,
                   const std::string& what, SubmissionFile& out, std::uint64_t& size) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    out.problem = printable_name(relative) +
                  " is not a plain file (a folder, a pipe or a device), so it is not read";
    return false;
  }
  size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    out.problem = printable_name(relative) + " is " + size_text(size) + "; " + what +
                  " may be at most " + size_text(max_bytes);
    return false;
  }
  return true;
}

SubmissionFile read_bounded(const fs::path& root, const std::string& relative,
                            std::uint64_t max_bytes, const std::string& what) {
  SubmissionFile out;
  const UniqueFd fd = open_beneath(root, relative, out);
  if (!fd.valid()) return out;
  std::uint64_t size = 0;
  if (!within_limits(fd.get(), relative, max_bytes, what, out, size)) return out;
  // At most max_bytes + 1 bytes are read, whatever the file has become since fstat (it could
  // still be growing): one byte past the limit is enough to refuse it.
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(size));
  char buffer[1 << 16];
  for (;;) {
    const std::uint64_t room = max_bytes + 1 - bytes.size();
    const ssize_t n = ::read(
        fd.get(), buffer, static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buffer, room)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.problem = printable_name(relative) + ": cannot be read (" + std::strerror(errno) + ")";
      return out;
    }
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
    if (bytes.size() > max_bytes) {
      out.problem = printable_name(relative) + " grew while it was read; " + what +
                    " may be at most " + size_text(max_bytes);
      return out;
    }
  }
  out.status = SubmissionFile::Status::Read;
  out.bytes = std::move(bytes);
  out.problem.clear();
  return out;
}

// Whether root/rel is a plain file reached through no link (the door checks again, by descriptor).
bool plain_file_beneath(const fs::path& root, const std::string& rel) {
  fs::path at = root;
  std::error_code ec;
  fs::file_type type = fs::file_type::none;
  for (const auto& part : fs::path(rel)) {
    at /= part;
    type = fs::symlink_status(at, ec).type();
    if (ec || type == fs::file_type::symlink || type == fs::file_type::not_found) return false;
  }
  return type == fs::file_type::regular;
}

}  // namespace

bool finder_skips(const std::string& name) { return skipped_name(name); }

std::string size_text(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = 1ull << 20;
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  if (bytes % kMiB == 0 && bytes < 1024 * kMiB) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes < kMiB) return std::to_string(bytes / 1024) + " KiB";
  return mib(static_cast<double>(bytes));
}

SubmissionFile read_submission_file(const fs::path& root, const std::string& relative,
                                    std::uint64_t max_bytes) {
  return read_bounded(root, relative, max_bytes, "a source");
}

std::string copy_submission_file(const fs::path& root, const std::string& relative,
                                 const fs::path& destination, std::uint64_t max_bytes) {
  SubmissionFile out;
  const UniqueFd from = open_beneath(root, relative, out);
  if (!from.valid()) return out.problem;
  std::uint64_t size = 0;
  if (!within_limits(from.get(), relative, max_bytes, "a file", out, size)) return out.problem;
  std::error_code ec;
  fs::remove(destination, ec);  // a link there is removed, not written through (O_NOFOLLOW below)
  const UniqueFd to(
      ::open(destination.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!to.valid())
    return printable_name(relative) + ": cannot be copied to " + destination.string() + " (" +
           std::strerror(errno) + ")";
  std::uint64_t copied = 0;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(from.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return printable_name(relative) + ": cannot be read (" + std::strerror(errno) + ")";
    if (n == 0) return "";
    copied += static_cast<std::uint64_t>(n);
    if (copied > max_bytes)
      return printable_name(relative) + " grew while it was read; a file may be at most " +
             size_text(max_bytes);
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(to.get(), buffer + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0)
        return printable_name(relative) + ": cannot be copied (" + std::strerror(errno) + ")";
      done += w;
    }
  }
}

const char* FoundSource::kind_name() const {
  switch (kind) {
    case Kind::Found: return "found";
    case Kind::Ambiguous: return "ambiguous";
    default: return "missing";
  }
}

std::string FoundSource::problem(const std::string& ex) const {
  if (kind == Kind::Found) return refused;
  if (kind == Kind::Missing) {
    std::string why = "No file " + ex + "/" + ex + ".cpp in the submission (nor " + ex +
                      ".cpp anywhere in it): this exercise scores zero.";
    if (!links.empty()) {
      why +=
          "\nSymbolic links are never followed (a submission is graded on its own files only); "
          "refused:";
      for (const auto& l : links) why += " " + printable_name(l);
    }
    return why;
  }
  std::string list;
  for (const auto& c : candidates) list += "\n  " + printable_name(c);  // each on its own line
  return "Several files could be " + ex + ".cpp, and the grader will not guess which one:" + list +
         "\nKeep one of them, or put the one to grade at " + ex + "/" + ex +
         ".cpp. This exercise scores zero until then.";
}

bool names_exercise_file(const std::string& filename, const std::string& exercise) {
  const std::string name = lower(filename), ex = lower(exercise);
  const std::string ext = ".cpp";
  if (name.size() <= ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
    return false;
  const std::string stem = name.substr(0, name.size() - ext.size());
  if (stem.rfind(ex, 0) != 0) return false;
  std::string rest = stem.substr(ex.size());
  if (rest.empty()) return true;
  // "causal (1)", "causal(1)"
  std::string r = rest;
  if (r[0] == ' ') r.erase(0, 1);
  if (r.size() >= 3 && r.front() == '(' && r.back() == ')' && all_digits(r.substr(1, r.size() - 2)))
    return true;
  // "causal-1", "causal_1"
  return (rest[0] == '-' || rest[0] == '_') && all_digits(rest.substr(1));
}

namespace {

// Edits between two words, a swap of neighbours counting as one (optimal string alignment).
std::size_t edits(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The words of a name: runs of letters and digits (any byte of a UTF-8 letter counts).
std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> words(1);
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c >= 0x80) words.back() += static_cast<char>(c);
    else if (!words.back().empty()) words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

}  // namespace

bool looks_like_exercise_file(const std::string& filename, const std::string& exercise) {
  const std::string name = lower(filename), ex = lower(exercise);
  const std::string ext = ".cpp";
  if (name.size() <= ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0 ||
      names_exercise_file(filename, exercise))
    return false;
  const std::string stem = name.substr(0, name.size() - ext.size());
  if (stem.find(ex) != std::string::npos) return true;
  const std::vector<std::string> ex_words = words_of(ex), words = words_of(stem);
  if (ex_words.size() >= 2) {  // random_features: "rf"
    std::string initials;
    for (const auto& w : ex_words) initials += w[0];
    if (std::find(words.begin(), words.end(), initials) != words.end()) return true;
  }
  // One slip of the keyboard, in the whole stem or in one of its words (short names excepted:
  // every three-letter word is one edit from many others).
  if (ex.size() < 5) return false;
  if (edits(stem, ex) <= 1) return true;
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return edits(w, ex) <= 1; });
}

FoundSource find_exercise_source(const fs::path& submission, const std::string& ex) {
  FoundSource out;
  const std::string file = ex + ".cpp";
  // Rule 3's candidates, gathered first: rules 1 and 2 name them as ignored. The iterator
  // never descends into a linked folder; a link itself is noted, never taken.
  std::vector<std::string> seen, look_alike_links;
  std::error_code ec;
  std::size_t entries = 0;
  for (fs::recursive_directory_iterator
           it(submission, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    if (++entries > kMaxEntries) break;
    const std::string name = it->path().filename().string();
    std::error_code sec;
    const auto type = it->symlink_status(sec).type();
    if (skipped_name(name)) {
      if (type == fs::file_type::directory) it.disable_recursion_pending();
      continue;
    }
    const std::string rel = it->path().lexically_relative(submission).generic_string();
    if (type == fs::file_type::symlink) {
      if (out.links.size() < kMaxLinksNamed) out.links.push_back(rel);
      if (lower(name) == lower(ex) || names_exercise_file(name, ex))
        look_alike_links.push_back(rel);
      continue;
    }
    if (type == fs::file_type::directory) {
      if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
      continue;
    }
    if (type == fs::file_type::regular && names_exercise_file(name, ex)) seen.push_back(rel);
    else if (type == fs::file_type::regular && looks_like_exercise_file(name, ex))
      out.look_alikes.push_back(rel);
  }
  std::sort(seen.begin(), seen.end());
  std::sort(out.links.begin(), out.links.end());
  std::sort(look_alike_links.begin(), look_alike_links.end());

  auto take = [&](const std::string& rel) {
    out.kind = FoundSource::Kind::Found;
    out.look_alikes.clear();  // named only where they could explain a missing file
    out.path = submission / rel;
    out.shown = rel;
    for (const auto& s : seen)
      if (s != rel) out.ignored.push_back(s);
    for (const auto& l : look_alike_links)
      out.ignored.push_back(l + " (a symbolic link, not followed)");
    // The copy: read now, once, through the door; nothing reads the student's file again.
    SubmissionFile read = read_submission_file(submission, rel);
    if (read.ok()) out.text = std::move(read.bytes);
    else out.refused = read.problem;
    return out;
  };
  if (plain_file_beneath(submission, ex + "/" + file)) return take(ex + "/" + file);
  if (plain_file_beneath(submission, file)) return take(file);
  if (seen.size() == 1) return take(seen.front());
  if (seen.size() > 1) {
    out.kind = FoundSource::Kind::Ambiguous;
    out.candidates = seen;
  }
  if (out.kind == FoundSource::Kind::Missing) {
    std::sort(out.look_alikes.begin(), out.look_alikes.end());
    if (out.look_alikes.size() > kMaxLookAlikes) out.look_alikes.resize(kMaxLookAlikes);
  } else {
    out.look_alikes.clear();
  }
  return out;
}

}  // namespace grader
