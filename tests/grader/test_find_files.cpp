// The finder's door (grader/src/util/find_files.hpp): a submission's files read without following
// a symbolic link at any depth, and never more than the size cap; the finder's answers when a
// link stands where a file or folder was expected.
#include <doctest/doctest.h>

#include "src/course/canvas_download.hpp"
#include "src/util/find_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace grader;

namespace {

struct Folder {
  fs::path path;
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "find-files-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void file(const std::string& rel, const std::string& text = "// code\n") const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << text;
  }
  void link(const std::string& rel, const fs::path& target) const {
    fs::create_directories((path / rel).parent_path());
    fs::create_symlink(target, path / rel);
  }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("door: a plain file is read, whole") {
  Folder d;
  d.file("s/causal/causal.cpp", "int x;\n");
  const SubmissionFile f = read_submission_file(d.path / "s", "causal/causal.cpp");
  CHECK(f.ok());
  CHECK(f.bytes == "int x;\n");
  CHECK(read_submission_file(d.path / "s", "causal/other.cpp").status ==
        SubmissionFile::Status::Absent);
}

TEST_CASE("door: a link at any depth is refused, and named") {
  Folder d;
  d.file("secret/causal/causal.cpp", "the solution\n");
  d.link("s/causal", d.path / "secret/causal");                        // first component
  d.link("t/causal/causal.cpp", d.path / "secret/causal/causal.cpp");  // last component
  d.link("u/a/b", d.path / "secret");                                  // a middle component
  d.link("v/causal", "../secret/causal");                              // a relative link
  const SubmissionFile first = read_submission_file(d.path / "s", "causal/causal.cpp");
  CHECK(first.status == SubmissionFile::Status::Refused);
  CHECK(first.link);
  CHECK(first.bytes.empty());
  CHECK(has(first.problem, "causal/causal.cpp: causal is a symbolic link"));
  const SubmissionFile last = read_submission_file(d.path / "t", "causal/causal.cpp");
  CHECK(last.link);
  CHECK(has(last.problem, "causal/causal.cpp: it is a symbolic link"));
  const SubmissionFile middle = read_submission_file(d.path / "u", "a/b/causal/causal.cpp");
  CHECK(middle.link);
  CHECK(has(middle.problem, "a/b is a symbolic link"));
  CHECK(read_submission_file(d.path / "v", "causal/causal.cpp").link);
}

TEST_CASE("door: '..', '.' and absolute paths are refused") {
  Folder d;
  d.file("secret.cpp", "the solution\n");
  d.file("s/causal/causal.cpp");
  for (const std::string& bad :
       std::vector<std::string>{"../secret.cpp", "causal/../../secret.cpp", "./causal/causal.cpp",
                                (d.path / "secret.cpp").string(), ""}) {
    const SubmissionFile f = read_submission_file(d.path / "s", bad);
    CHECK_MESSAGE(f.status == SubmissionFile::Status::Refused, bad);
    CHECK(f.bytes.empty());
  }
}

TEST_CASE("door: a pipe or a folder is refused at once, not waited on") {
  Folder d;
  fs::create_directories(d.path / "s/causal.cpp");
  REQUIRE(::mkfifo((d.path / "s/fifo.cpp").c_str(), 0600) == 0);
  CHECK(has(read_submission_file(d.path / "s", "fifo.cpp").problem, "not a plain file"));
  CHECK(has(read_submission_file(d.path / "s", "causal.cpp").problem, "not a plain file"));
}

TEST_CASE("door: the size cap is decided before reading, to the byte") {
  Folder d;
  d.file("s/at_cap.cpp", std::string(kMaxSourceBytes, 'x'));
  d.file("s/over_cap.cpp", std::string(kMaxSourceBytes + 1, 'x'));
  d.file("s/huge.cpp", "int x;\n");
  fs::resize_file(d.path / "s/huge.cpp", 2ull << 30);  // sparse: nothing written to disk
  CHECK(read_submission_file(d.path / "s", "at_cap.cpp").bytes.size() == kMaxSourceBytes);
  const SubmissionFile over = read_submission_file(d.path / "s", "over_cap.cpp");
  CHECK(over.status == SubmissionFile::Status::Refused);
  CHECK(over.problem == "over_cap.cpp is 1.00 MiB; a source may be at most 1 MiB");
  const SubmissionFile huge = read_submission_file(d.path / "s", "huge.cpp");
  CHECK(huge.problem == "huge.cpp is 2.00 GiB; a source may be at most 1 MiB");
  CHECK(huge.bytes.empty());
  CHECK(read_submission_file(d.path / "s", "at_cap.cpp", 100).status ==
        SubmissionFile::Status::Refused);
  CHECK(size_text(1ull << 20) == "1 MiB");
  CHECK(size_text(100) == "100 bytes");
}

TEST_CASE("copy_submission_file: copies, refuses links, never writes through one") {
  Folder d;
  d.file("s/work.zip", "PK...");
  d.file("outside.txt", "keep me");
  d.link("s/linked.zip", d.path / "outside.txt");
  fs::create_directories(d.path / "stage");
  CHECK(copy_submission_file(d.path / "s", "work.zip", d.path / "stage/a.zip", 100).empty());
  std::ifstream a(d.path / "stage/a.zip");
  CHECK(std::string(std::istreambuf_iterator<char>(a), {}) == "PK...");
  CHECK(has(copy_submission_file(d.path / "s", "linked.zip", d.path / "stage/b.zip", 100),
            "symbolic link"));
  CHECK(!fs::exists(d.path / "stage/b.zip"));
  CHECK(has(copy_submission_file(d.path / "s", "work.zip", d.path / "stage/c.zip", 3),
            "may be at most 3 bytes"));
  // A link planted where the copy goes is replaced, not written through.
  fs::create_symlink(d.path / "outside.txt", d.path / "stage/d.zip");
  CHECK(copy_submission_file(d.path / "s", "work.zip", d.path / "stage/d.zip", 100).empty());
  CHECK(!fs::is_symlink(d.path / "stage/d.zip"));
  std::ifstream outside(d.path / "outside.txt");
  CHECK(std::string(std::istreambuf_iterator<char>(outside), {}) == "keep me");
}

TEST_CASE("finder: a folder link to another's exercise grades nothing and says why") {
  Folder d;
  d.file("solutions/causal/causal.cpp", "the solution\n");
  d.link("s/causal", d.path / "solutions/causal");
  const FoundSource f = find_exercise_source(d.path / "s", "causal");
  CHECK(f.kind == FoundSource::Kind::Missing);
  CHECK(f.text.empty());
  REQUIRE(f.links.size() == 1);
  CHECK(f.links[0] == "causal");
  CHECK(has(f.problem("causal"), "Symbolic links are never followed"));
  CHECK(has(f.problem("causal"), "refused: causal"));
}

TEST_CASE("finder: the file taken is read once, its look-alike links named as passed over") {
  Folder d;
  d.file("solutions/causal.cpp", "the solution\n");
  d.file("s/causal/causal.cpp", "mine\n");
  d.link("s/causal.cpp", d.path / "solutions/causal.cpp");
  d.link("s/old/Causal (1).cpp", d.path / "solutions/causal.cpp");
  const FoundSource f = find_exercise_source(d.path / "s", "causal");
  CHECK(f.kind == FoundSource::Kind::Found);
  CHECK(f.shown == "causal/causal.cpp");
  CHECK(f.text == "mine\n");
  CHECK(f.refused.empty());
  REQUIRE(f.ignored.size() == 2);
  CHECK(f.ignored[0] == "causal.cpp (a symbolic link, not followed)");
  CHECK(f.ignored[1] == "old/Causal (1).cpp (a symbolic link, not followed)");
}

TEST_CASE("finder: a file over the cap is found, refused, and never read") {
  Folder d;
  d.file("s/causal/causal.cpp", "int x;\n");
  fs::resize_file(d.path / "s/causal/causal.cpp", 2ull << 30);
  const FoundSource f = find_exercise_source(d.path / "s", "causal");
  CHECK(f.kind == FoundSource::Kind::Found);
  CHECK(f.text.empty());
  CHECK(f.refused == "causal/causal.cpp is 2.00 GiB; a source may be at most 1 MiB");
  CHECK(f.problem("causal") == f.refused);
}

TEST_CASE("canvas download: an upload over the cap is not copied out, and its report says why") {
  Folder d;
  d.file("class/smith_123_456_causal.cpp", "int x;\n");
  d.file("class/smith_123_456_flops.cpp", "int y;\n");
  fs::resize_file(d.path / "class/smith_123_456_causal.cpp", 2ull << 30);  // sparse
  const CanvasUnpacked canvas = unpack_canvas_download(d.path / "class", d.path / "staging");
  REQUIRE(canvas.students.size() == 1);
  CHECK(fs::exists(d.path / "staging/smith_123/flops.cpp"));
  CHECK(!fs::exists(d.path / "staging/smith_123/causal.cpp"));
  REQUIRE(canvas.notes.count("smith_123") == 1);
  REQUIRE(canvas.notes.at("smith_123").size() == 1);
  CHECK(canvas.notes.at("smith_123")[0] ==
        "smith_123_456_causal.cpp is 2.00 GiB; a file may be at most 1 MiB; it was not graded");
}

TEST_CASE("finder: a missing file's look-alikes are named, never taken") {
  // rf_draft.cpp: random_features' initials; casual.cpp: two letters swapped; flop.cpp: one
  // letter missing; flops_final.cpp holds the name. Names of four letters or fewer are not
  // guessed at by one letter (too many words are one letter from them).
  for (const char* name : {"rf_draft.cpp", "RF.cpp", "random_features_v2.cpp",
                           "my random_features.cpp", "randon_features.cpp"}) {
    CAPTURE(name);
    CHECK(looks_like_exercise_file(name, "random_features"));
  }
  CHECK(looks_like_exercise_file("casual.cpp", "causal"));
  CHECK(looks_like_exercise_file("causal_final.cpp", "causal"));
  CHECK(looks_like_exercise_file("flops_final.cpp", "flops"));
  CHECK(looks_like_exercise_file("flop.cpp", "flops"));
  CHECK_FALSE(looks_like_exercise_file("tax.cpp", "tay"));
  for (const char* name : {"random_features.cpp", "random_features (1).cpp", "memory.cpp",
                           "rf_draft.txt", "try.cpp", "floats.cpp"}) {
    CAPTURE(name);
    CHECK_FALSE(looks_like_exercise_file(name, name[0] == 'f' ? "flops" : "random_features"));
  }

  Folder f;
  f.file("work/rf_draft.cpp");
  f.file("notes_random_features.cpp");
  f.file("causal/causal.cpp");
  const FoundSource rf = find_exercise_source(f.path, "random_features");
  CHECK(rf.kind == FoundSource::Kind::Missing);
  CHECK(rf.look_alikes ==
        std::vector<std::string>{"notes_random_features.cpp", "work/rf_draft.cpp"});
  // Found: nothing to explain, so no look-alikes.
  f.file("random_features.cpp");
  CHECK(find_exercise_source(f.path, "random_features").look_alikes.empty());
}

TEST_CASE("finder: the names in its messages are one line each, escaped") {
  // Red-team (issue 32): the "Several files could be" message listed the candidates as they
  // were; a name with a newline started a line of its own in the terminal report ("Total: ...").
  Folder f;
  f.file("a\nTotal: 20/20\x9b/flops.cpp");
  f.file("b\t/flops.cpp");
  const FoundSource found = find_exercise_source(f.path, "flops");
  REQUIRE(found.kind == FoundSource::Kind::Ambiguous);
  const std::string why = found.problem("flops");
  CHECK(has(why, "\n  a\\x0aTotal: 20/20\\x9b/flops.cpp"));
  CHECK(has(why, "\n  b\\x09/flops.cpp"));
  CHECK_FALSE(has(why, "\nTotal"));
  CHECK_FALSE(has(why, "\t"));
}
