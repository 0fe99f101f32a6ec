// Uploaded archives, unpacked with limits: see archive_unpack.hpp.
#include "archive_unpack.hpp"

#include "../util/printable.hpp"
#include "../util/unique_fd.hpp"
#include "../util/utf8.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <locale.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <system_error>
#include <vector>

namespace grader {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The entry's path as folders below the unpacking folder, or why it has none: "." and empty
// parts dropped ("./src//a.cpp" is src/a.cpp), an absolute path or a ".." refused.
struct EntryPath {
  std::vector<std::string> parts;
  std::string problem;
};
EntryPath entry_path(const char* name) {
  EntryPath out;
  if (!name || !*name) {
    out.problem = "an entry has no name";
    return out;
  }
  const std::string path = name;
  if (path[0] == '/') {
    out.problem = "the entry " + path + " has an absolute path";
    return out;
  }
  std::size_t from = 0;
  while (from <= path.size()) {
    const std::size_t slash = std::min(path.find('/', from), path.size());
    const std::string part = path.substr(from, slash - from);
    if (part == "..") {
      out.problem = "the entry " + path + " points outside the archive's folder";
      return out;
    }
    if (!part.empty() && part != ".") out.parts.push_back(part);
    from = slash + 1;
  }
  if (out.parts.empty()) out.problem = "the entry " + path + " names no file";
  return out;
}

// Entry names are converted through the locale's character set: in the C locale a UTF-8 name
// has no form at all ("an entry has no name"). The grader sets no locale of its own, so the
// unpacking thread reads names in C.UTF-8 whatever the process was started with.
class Utf8Names {
 public:
  Utf8Names() : utf8_(::newlocale(LC_ALL_MASK, "C.UTF-8", nullptr)) {
    if (utf8_) before_ = ::uselocale(utf8_);
  }
  ~Utf8Names() {
    if (!utf8_) return;
    ::uselocale(before_);
    ::freelocale(utf8_);
  }
  Utf8Names(const Utf8Names&) = delete;
  Utf8Names& operator=(const Utf8Names&) = delete;

 private:
  locale_t utf8_ = nullptr;
  locale_t before_ = nullptr;
};

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};

// Unpacks every entry, or returns why not (the caller removes what was written).
std::string unpack_entries(archive* a, const fs::path& into, const ArchiveLimits& limits,
                           UnpackResult& result) {
  std::vector<char> buffer(64 * 1024);
  archive_entry* entry = nullptr;
  for (;;) {
    const int r = archive_read_next_header(a, &entry);
    if (r == ARCHIVE_EOF) return "";
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return std::string("it cannot be read: ") + archive_error_string(a);
    if (++result.entries > limits.max_entries)
      return "it has more than " + std::to_string(limits.max_entries) + " entries";
    // The name as UTF-8 (a zip's entries say whether theirs is; a tar's are taken as they are).
    // A name in a legacy code page is no path a student meant: that entry is left out and
    // named, the others unpack.
    const char* utf8 = archive_entry_pathname_utf8(entry);
    const char* raw = utf8 ? utf8 : archive_entry_pathname(entry);
    if (raw && *raw && valid_utf8(raw) != raw) {
      result.skipped.push_back(std::string("an entry named ") + printable_name(raw) +
                               " (not UTF-8: a legacy code page?) was left out");
      continue;
    }
    const EntryPath path = entry_path(raw);
    // "./" is the archive's own top folder: `tar czf work.tgz -C work .` writes it first.
    if (path.parts.empty() && raw && *raw && archive_entry_filetype(entry) == AE_IFDIR) continue;
    if (!path.problem.empty()) return path.problem;
    const std::string shown = raw;
    if (static_cast<int>(path.parts.size()) > limits.max_depth + 1)
      return "the entry " + shown + " is more than " + std::to_string(limits.max_depth) +
             " folders deep";
    fs::path target = into;
    for (const auto& part : path.parts) target /= part;
    if (archive_entry_hardlink(entry) || archive_entry_symlink(entry))
      return "the entry " + shown + " is a link (links are not unpacked)";
    const auto type = archive_entry_filetype(entry);
    std::error_code ec;
    if (type == AE_IFDIR) {
      fs::create_directories(target, ec);
      if (ec) return "the folder " + shown + " cannot be made: " + ec.message();
      continue;
    }
    if (type != AE_IFREG) return "the entry " + shown + " is neither a file nor a folder";
    fs::create_directories(target.parent_path(), ec);
    if (ec) return "the folder of " + shown + " cannot be made: " + ec.message();
    // O_EXCL: a second entry of the same path is refused rather than written over the first.
    UniqueFd fd(::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd.valid())
      return "the entry " + shown + " cannot be written: " + std::generic_category().message(errno);
    std::string problem;
    for (;;) {
      const la_ssize_t n = archive_read_data(a, buffer.data(), buffer.size());
      if (n == 0) break;
      if (n < 0) {
        problem = std::string("it cannot be read: ") + archive_error_string(a);
        break;
      }
      // Counted as it comes out: an archive's declared sizes could lie.
      result.bytes += static_cast<std::uint64_t>(n);
      if (result.bytes > limits.max_bytes) {
        problem = "it unpacks to more than " + mib(limits.max_bytes) + " (a zip bomb?)";
        break;
      }
      if (::write(fd.get(), buffer.data(), static_cast<std::size_t>(n)) != n) {
        problem =
            "the entry " + shown + " cannot be written: " + std::generic_category().message(errno);
        break;
      }
    }
    // A file whose last bytes the close could not write is not there whole.
    if (problem.empty() && ::close(fd.release()) != 0)
      problem =
          "the entry " + shown + " cannot be written: " + std::generic_category().message(errno);
    if (!problem.empty()) return problem;
    ++result.files;
  }
}

}  // namespace

bool is_archive_name(const std::string& filename) {
  std::string name = filename;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ends_with(name, ".zip") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz");
}

std::string other_archive_kind(const std::string& filename) {
  std::string name = filename;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  // Longest endings first: "x.tar.xz" is a .tar.xz, not an .xz.
  for (const char* kind : {".tar.bz2", ".tar.xz", ".tar.zst", ".tbz2", ".txz", ".rar", ".7z",
                           ".tar", ".bz2", ".xz", ".zst", ".zipx", ".cab", ".gz"})
    if (ends_with(name, kind) && name.size() > std::string(kind).size() && !is_archive_name(name))
      return kind;
  return "";
}

UnpackResult unpack_archive(const fs::path& file, const fs::path& into,
                            const ArchiveLimits& limits) {
  UnpackResult result;
  const std::string name = file.filename().string();
  const Utf8Names utf8_names;
  std::unique_ptr<archive, ArchiveCloser> a(archive_read_new());
  archive_read_support_format_zip(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_filter_gzip(a.get());
  std::string problem;
  std::error_code ec;
  if (!fs::create_directory(into, ec) || ec) {
    problem = "its folder " + into.string() + " cannot be made" +
              (ec ? ": " + ec.message() : " (it exists)");
  } else if (archive_read_open_filename(a.get(), file.c_str(), 64 * 1024) != ARCHIVE_OK) {
    problem = std::string("it cannot be read: ") + archive_error_string(a.get());
  } else {
    problem = unpack_entries(a.get(), into, limits, result);
  }
  if (problem.empty()) {
    result.ok = true;
    return result;
  }
  fs::remove_all(into, ec);  // whole or not at all
  result.problem = name + " was not unpacked: " + problem + "; nothing in it is graded";
  return result;
}

}  // namespace grader
