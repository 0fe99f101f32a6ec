// Uploaded archives (grader/src/course/archive_unpack.*, archive_staging.*): each limit on its own,
// on archives written here with libarchive's writer.
#include "src/course/archive_staging.hpp"
#include "src/course/archive_unpack.hpp"

#include <doctest/doctest.h>

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using grader::ArchiveLimits;
using grader::unpack_archive;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "linattn-archive-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// One entry of an archive to write: a file (text), a folder, a symbolic or a hard link.
struct Entry {
  enum Kind { File, Folder, Symlink, Hardlink, Fifo };
  Entry(std::string path_, std::string text_ = "", Kind kind_ = File, std::string target_ = "")
      : path(std::move(path_)), text(std::move(text_)), kind(kind_), target(std::move(target_)) {}
  std::string path;
  std::string text;
  Kind kind;
  std::string target;  // links
};

enum class Format { Zip, TarGz };

void write_archive(const fs::path& file, Format format, const std::vector<Entry>& entries) {
  archive* a = archive_write_new();
  if (format == Format::Zip) {
    REQUIRE(archive_write_set_format_zip(a) == ARCHIVE_OK);
  } else {
    REQUIRE(archive_write_set_format_pax_restricted(a) == ARCHIVE_OK);
    REQUIRE(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
  }
  REQUIRE(archive_write_open_filename(a, file.c_str()) == ARCHIVE_OK);
  for (const auto& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (e.kind) {
      case Entry::File:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.text.size()));
        break;
      case Entry::Folder: archive_entry_set_filetype(entry, AE_IFDIR); break;
      case Entry::Fifo: archive_entry_set_filetype(entry, AE_IFIFO); break;
      case Entry::Symlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.target.c_str());
        break;
      case Entry::Hardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.target.c_str());
        break;
    }
    // A warning is a name the writer could not convert (a legacy code page's bytes, on
    // purpose): it writes them as they are.
    REQUIRE(archive_write_header(a, entry) >= ARCHIVE_WARN);
    if (e.kind == Entry::File && !e.text.empty())
      REQUIRE(archive_write_data(a, e.text.data(), e.text.size()) ==
              static_cast<la_ssize_t>(e.text.size()));
    archive_entry_free(entry);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
}

}  // namespace

TEST_CASE("archives: a .zip and a .tar.gz unpack, folders and all, into a folder of their own") {
  TempDir t;
  for (const Format format : {Format::Zip, Format::TarGz}) {
    const fs::path file = t.path / (format == Format::Zip ? "work.zip" : "work.tar.gz");
    write_archive(file, format,
                  {{"./causal/", "", Entry::Folder},
                   {"./causal/causal.cpp", "// causal\n"},
                   {"flops.cpp", "// flops\n"}});
    const fs::path into = t.path / (file.filename().string() + ".out");
    const auto r = unpack_archive(file, into);
    CAPTURE(r.problem);
    REQUIRE(r.ok);
    CHECK(r.files == 2);
    CHECK(read(into / "causal" / "causal.cpp") == "// causal\n");
    CHECK(read(into / "flops.cpp") == "// flops\n");
  }
  CHECK(grader::is_archive_name("Kim.ZIP"));
  CHECK(grader::is_archive_name("kim.tgz"));
  CHECK(grader::is_archive_name("kim.tar.gz"));
  CHECK_FALSE(grader::is_archive_name("kim.tar"));
  CHECK(grader::archive_submission_name("kim.tar.gz") == "kim");
  CHECK(grader::archive_submission_name("Kim.ZIP") == "Kim");
}

TEST_CASE("archives: a tar whose first entry is the top folder ./ unpacks") {
  TempDir t;
  const fs::path file = t.path / "dot.tar.gz";
  write_archive(file, Format::TarGz,
                {{"./", "", Entry::Folder},
                 {"./flops/", "", Entry::Folder},
                 {"./flops/flops.cpp", "// flops\n"}});
  const auto r = unpack_archive(file, t.path / "dot.out");
  CAPTURE(r.problem);
  REQUIRE(r.ok);
  CHECK(read(t.path / "dot.out" / "flops" / "flops.cpp") == "// flops\n");
}

TEST_CASE("archives: names in UTF-8 unpack whatever the locale, a legacy code page's is named") {
  // This test program sets no locale (the C locale), as the grader does not either. A zip
  // holding 作业1/flops.cpp and notes_é.txt, its UTF-8 names flagged as such (the writer in
  // C.UTF-8, as an archiver on any student's machine today).
  TempDir t;
  const fs::path file = t.path / "作业1.zip";
  {
    locale_t utf8 = ::newlocale(LC_ALL_MASK, "C.UTF-8", nullptr);
    REQUIRE(utf8);
    const locale_t before = ::uselocale(utf8);
    write_archive(file, Format::Zip, {{"作业1/flops.cpp", "// flops\n"}, {"notes_é.txt", "é"}});
    ::uselocale(before);
    ::freelocale(utf8);
  }
  const auto r = unpack_archive(file, t.path / "作业1.zip.out");
  CAPTURE(r.problem);
  REQUIRE(r.ok);
  CHECK(r.files == 2);
  CHECK(r.skipped.empty());
  CHECK(read(t.path / "作业1.zip.out" / "作业1" / "flops.cpp") == "// flops\n");
  CHECK(fs::exists(t.path / "作业1.zip.out" / "notes_é.txt"));

  // A tar whose one name is in Latin-1 (0xE9 for é, not UTF-8): that entry is left out and
  // named, the other unpacks.
  const fs::path legacy = t.path / "legacy.tar.gz";
  write_archive(legacy, Format::TarGz,
                {{"flops.cpp", "// flops\n"}, {"notes_\xE9.txt", "latin-1"}});
  const auto l = unpack_archive(legacy, t.path / "legacy.out");
  CAPTURE(l.problem);
  REQUIRE(l.ok);
  CHECK(l.files == 1);
  CHECK(read(t.path / "legacy.out" / "flops.cpp") == "// flops\n");
  REQUIRE(l.skipped.size() == 1);
  CHECK(l.skipped[0] ==
        "an entry named notes_\\xe9.txt (not UTF-8: a legacy code page?) was left out");
}

TEST_CASE(
    "archives: a path outside the folder (zip-slip) or an absolute one is refused, nothing "
    "written") {
  TempDir t;
  for (const std::string bad :
       {"../escaped.cpp", "src/../../escaped.cpp", "/tmp/linattn-escaped.cpp"}) {
    CAPTURE(bad);
    const fs::path file = t.path / "slip.zip";
    fs::remove(file);
    write_archive(file, Format::Zip, {{"causal.cpp", "// fine\n"}, {bad, "// escaped\n"}});
    const fs::path into = t.path / "box" / "slip";
    fs::create_directories(into.parent_path());
    const auto r = unpack_archive(file, into);
    CHECK_FALSE(r.ok);
    CHECK(r.problem.find("slip.zip was not unpacked") == 0);
    CHECK(r.problem.find(bad) != std::string::npos);
    CHECK_FALSE(fs::exists(into));  // whole or nothing: the good entry went too
    CHECK_FALSE(fs::exists(t.path / "escaped.cpp"));
    CHECK_FALSE(fs::exists(t.path / "box" / "escaped.cpp"));
  }
  CHECK_FALSE(fs::exists("/tmp/linattn-escaped.cpp"));
}

TEST_CASE("archives: links, symbolic or hard, are refused") {
  TempDir t;
  const fs::path sym = t.path / "sym.tar.gz", hard = t.path / "hard.tar.gz";
  write_archive(sym, Format::TarGz,
                {{"causal.cpp", "", Entry::Symlink, "../../solutions/causal/causal.cpp"}});
  write_archive(hard, Format::TarGz,
                {{"a.cpp", "// a\n"}, {"causal.cpp", "", Entry::Hardlink, "a.cpp"}});
  const auto s = unpack_archive(sym, t.path / "sym");
  CHECK_FALSE(s.ok);
  CHECK(s.problem.find("is a link") != std::string::npos);
  const auto h = unpack_archive(hard, t.path / "hard");
  CHECK_FALSE(h.ok);
  CHECK(h.problem.find("is a link") != std::string::npos);
  CHECK_FALSE(fs::exists(t.path / "sym"));
  CHECK_FALSE(fs::exists(t.path / "hard"));
}

TEST_CASE(
    "archives: the total unpacked size is bounded as the bytes come out, so a zip bomb stops") {
  TempDir t;
  // 80 MiB of zeros deflate to well under 1 MiB: over the default 64 MiB limit.
  const fs::path bomb = t.path / "bomb.zip";
  write_archive(bomb, Format::Zip, {{"causal.cpp", std::string(80u << 20, '\0')}});
  CHECK(fs::file_size(bomb) < (1u << 20));
  const auto r = unpack_archive(bomb, t.path / "bomb");
  CHECK_FALSE(r.ok);
  CHECK(r.problem ==
        "bomb.zip was not unpacked: it unpacks to more than 64 MiB (a zip bomb?); nothing in it is "
        "graded");
  CHECK_FALSE(fs::exists(t.path / "bomb"));
  // Many small files add up too, and a limit just above what there is lets it through.
  const fs::path many = t.path / "many.tar.gz";
  write_archive(many, Format::TarGz,
                {{"a.cpp", std::string(600, 'a')}, {"b.cpp", std::string(600, 'b')}});
  ArchiveLimits small;
  small.max_bytes = 1000;
  CHECK_FALSE(unpack_archive(many, t.path / "many", small).ok);
  small.max_bytes = 1200;
  CHECK(unpack_archive(many, t.path / "many", small).ok);
}

TEST_CASE("archives: the number of entries and the depth are bounded") {
  TempDir t;
  std::vector<Entry> entries;
  for (int i = 0; i < 30; ++i) entries.push_back({"f" + std::to_string(i) + ".cpp", "//\n"});
  const fs::path many = t.path / "many.zip";
  write_archive(many, Format::Zip, entries);
  ArchiveLimits limits;
  limits.max_entries = 20;
  const auto r = unpack_archive(many, t.path / "many", limits);
  CHECK_FALSE(r.ok);
  CHECK(r.problem.find("more than 20 entries") != std::string::npos);
  limits.max_entries = 30;
  CHECK(unpack_archive(many, t.path / "many", limits).ok);

  std::string deep;
  for (int i = 0; i < 14; ++i) deep += "d/";
  const fs::path d = t.path / "deep.zip";
  write_archive(d, Format::Zip, {{deep + "causal.cpp", "//\n"}});
  const auto rd = unpack_archive(d, t.path / "deep");
  CHECK_FALSE(rd.ok);
  CHECK(rd.problem.find("folders deep") != std::string::npos);
}

TEST_CASE("archives: not an archive, or a damaged one, is refused with libarchive's reason") {
  TempDir t;
  std::ofstream(t.path / "fake.zip") << "this is not a zip file\n";
  const auto r = unpack_archive(t.path / "fake.zip", t.path / "fake");
  CHECK_FALSE(r.ok);
  CHECK(r.problem.find("fake.zip was not unpacked: it cannot be read") == 0);
}

TEST_CASE(
    "archive staging: loose files and archives graded together, in a folder of the grader's") {
  TempDir t;
  const fs::path kim = t.path / "class" / "kim";
  fs::create_directories(kim);
  std::ofstream(kim / "flops.cpp") << "// kim's flops\n";
  write_archive(kim / "causal.zip", Format::Zip, {{"causal.cpp", "// kim's causal\n"}});
  const auto archives = grader::archives_in(kim);
  REQUIRE(archives.size() == 1);
  const auto staged = grader::stage_archives(kim, archives, t.path / "grades" / "unpacked" / "kim",
                                             {"flops", "causal"});
  CHECK(staged.folder == t.path / "grades" / "unpacked" / "kim");
  CHECK(read(staged.folder / "flops.cpp") == "// kim's flops\n");
  CHECK(read(staged.folder / "causal.zip" / "causal.cpp") == "// kim's causal\n");
  REQUIRE(staged.notes.size() == 1);
  CHECK(staged.notes[0].find("causal.zip was unpacked (1 file)") == 0);
  // The student's folder is as it was: nothing unpacked into it.
  std::vector<std::string> own;
  for (const auto& e : fs::directory_iterator(kim)) own.push_back(e.path().filename().string());
  std::sort(own.begin(), own.end());
  CHECK(own == std::vector<std::string>{"causal.zip", "flops.cpp"});
}

TEST_CASE("archive staging: the limits hold for all of a submission's archives together") {
  // Red-team: each archive had its own 64 MiB and 2000 entries, so a submission of a hundred
  // small zips of zeros could write gigabytes into the grades folder.
  TempDir t;
  const fs::path kim = t.path / "class" / "kim";
  fs::create_directories(kim);
  const std::string forty(40, 'x');
  for (const char* name : {"a.zip", "b.zip", "c.zip"})
    write_archive(kim / name, Format::Zip, {{"f.txt", forty}});
  ArchiveLimits limits;
  limits.max_bytes = 100;  // two archives' worth, not three
  auto staged =
      grader::stage_archives(kim, grader::archives_in(kim), t.path / "unpacked", {"flops"}, limits);
  REQUIRE(staged.notes.size() == 3);
  CHECK(staged.notes[0].find("a.zip was unpacked") == 0);
  CHECK(staged.notes[1].find("b.zip was unpacked") == 0);
  CHECK(staged.notes[2].find("c.zip was not unpacked: it unpacks to more than") == 0);
  CHECK(staged.notes[2].find("all of a submission's archives together") != std::string::npos);
  CHECK_FALSE(fs::exists(t.path / "unpacked" / "c.zip"));

  limits = ArchiveLimits{};
  limits.max_entries = 2;  // the entries too
  staged =
      grader::stage_archives(kim, grader::archives_in(kim), t.path / "unpacked", {"flops"}, limits);
  REQUIRE(staged.notes.size() == 3);
  CHECK(staged.notes[1].find("b.zip was unpacked") == 0);
  CHECK(staged.notes[2].find("c.zip was not unpacked: it has more than 0 entries") == 0);
}

TEST_CASE("archives: a second entry of one path, a FIFO, a backslash name, an archive inside") {
  // Red-team attacks that held; kept as regressions.
  TempDir t;
  // The second causal.cpp would override the first: refused whole (O_EXCL), not written over.
  const fs::path dup = t.path / "dup.zip";
  write_archive(dup, Format::Zip, {{"causal.cpp", "// first\n"}, {"causal.cpp", "// second\n"}});
  const auto d = unpack_archive(dup, t.path / "dup");
  CHECK_FALSE(d.ok);
  CHECK(d.problem.find("the entry causal.cpp cannot be written") != std::string::npos);
  CHECK_FALSE(fs::exists(t.path / "dup"));
  // A FIFO named like the exercise: neither a file nor a folder.
  const fs::path fifo = t.path / "fifo.tar.gz";
  write_archive(fifo, Format::TarGz, {{"causal.cpp", "", Entry::Fifo}});
  const auto f = unpack_archive(fifo, t.path / "fifo");
  CHECK_FALSE(f.ok);
  CHECK(f.problem.find("neither a file nor a folder") != std::string::npos);
  // Backslashes: libarchive reads them as folder separators, so the climb is seen and refused.
  const fs::path bs = t.path / "bs.zip";
  write_archive(bs, Format::Zip, {{"..\\..\\causal.cpp", "// bs\n"}});
  const auto b = unpack_archive(bs, t.path / "bs");
  CHECK_FALSE(b.ok);
  CHECK(b.problem.find("points outside the archive's folder") != std::string::npos);
  CHECK_FALSE(fs::exists(t.path / "causal.cpp"));
  CHECK_FALSE(fs::exists(t.path / "bs"));
  // An archive inside an archive stays a file.
  const fs::path inner = t.path / "inner.zip", outer = t.path / "outer.zip";
  write_archive(inner, Format::Zip, {{"causal.cpp", "// inner\n"}});
  write_archive(outer, Format::Zip, {{"inner.zip", read(inner)}});
  const auto o = unpack_archive(outer, t.path / "outer");
  REQUIRE(o.ok);
  CHECK(o.files == 1);
  CHECK(fs::is_regular_file(t.path / "outer" / "inner.zip"));
  CHECK_FALSE(fs::exists(t.path / "outer" / "causal.cpp"));
}
