// Canvas's flat "Download Submissions" folder, turned into a folder per student
// (grader/src/course/canvas_download.*). Names as Canvas writes them:
// student_userid_submissionid_file, with _LATE_ after the student for a late submission.
#include "src/course/canvas_download.hpp"

#include <doctest/doctest.h>

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using grader::parse_canvas_name;

namespace {

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

fs::path temp_folder() {
  std::string pattern = (fs::temp_directory_path() / "linattn-canvas-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("canvas names: student, user id, submission id, then the file as uploaded") {
  const auto on_time = parse_canvas_name("lovelaceada_1001_52345_causal.cpp");
  REQUIRE(on_time);
  CHECK(on_time->student == "lovelaceada_1001");
  CHECK(on_time->uploaded == "causal.cpp");
  CHECK(on_time->submission_id == "52345");
  CHECK_FALSE(on_time->late);

  const auto late = parse_canvas_name("lovelaceada_LATE_1001_52346_causal-1.cpp");
  REQUIRE(late);
  CHECK(late->student == "lovelaceada_1001");  // the same student as on time
  CHECK(late->uploaded == "causal-1.cpp");
  CHECK(late->late);

  // The uploaded name keeps its own underscores.
  const auto rf2 = parse_canvas_name("unalzoe_77_9_random_features.cpp");
  REQUIRE(rf2);
  CHECK(rf2->uploaded == "random_features.cpp");
  CHECK(rf2->student == "unalzoe_77");
}

TEST_CASE("canvas names: a student's name in any script, the late flag in any case") {
  // Canvas keeps the letters of every script, lower-cased: García José, Ünal Zoe, 李明.
  for (const char* name : {"garcíajosé_101007_5551234_flops.cpp", "ünalzoe_77_9_flops.cpp",
                           "李明_1003_600_flops.cpp"}) {
    CAPTURE(name);
    const auto parsed = parse_canvas_name(name);
    REQUIRE(parsed);
    CHECK(parsed->uploaded == "flops.cpp");
  }
  CHECK(parse_canvas_name("garcíajosé_101007_5551234_flops.cpp")->student == "garcíajosé_101007");
  CHECK(parse_canvas_name("李明_1003_600_flops.cpp")->student == "李明_1003");
  // _LATE_, _late_, _Late_: one flag, the same student as on time.
  for (const char* name : {"kimlee_LATE_2001_9_flops.cpp", "kimlee_late_2001_9_flops.cpp",
                           "kimlee_Late_2001_9_flops.cpp"}) {
    CAPTURE(name);
    const auto parsed = parse_canvas_name(name);
    REQUIRE(parsed);
    CHECK(parsed->late);
    CHECK(parsed->student == "kimlee_2001");
  }
  // Bytes that are not UTF-8 (a legacy code page) or a control character are no Canvas name.
  CHECK_FALSE(
      parse_canvas_name("garc\xED"
                        "a_1007_5_flops.cpp"));
  CHECK_FALSE(parse_canvas_name("ada\x1b_1007_5_flops.cpp"));
}

TEST_CASE("canvas names: what Canvas never writes is not taken for its names") {
  for (const char* name :
       {"causal.cpp", "causal (1).cpp", "Lovelace_1001_52345_causal.cpp", "ada_x1_2_causal.cpp",
        "ada_1_y2_causal.cpp", "ada_1_2_", "ada_1_2_.causal.cpp", "ada_LATE_1_causal.cpp",
        "_1_2_causal.cpp", "ada_1_2"}) {
    CAPTURE(name);
    CHECK_FALSE(parse_canvas_name(name));
  }
}

TEST_CASE(
    "canvas download: a folder per student, the latest of a name, other files named, folders "
    "untouched") {
  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls / "carol");
  write(cls / "carol" / "causal.cpp", "carol's own folder");
  write(cls / "lovelaceada_1001_500_causal.cpp", "ada causal, first");
  write(cls / "lovelaceada_LATE_1001_9000_causal.cpp",
        "ada causal, resubmitted late");  // 9000 > 500
  write(cls / "lovelaceada_1001_500_memory.cpp", "ada memory");
  write(cls / "turingalan_1002_501_flops.cpp", "alan flops");
  write(cls / "notes.txt", "not a submission");
  write(cls / ".DS_Store", "hidden: never mentioned");

  const auto unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(unpacked.students == std::vector<std::string>{"lovelaceada_1001", "turingalan_1002"});
  CHECK(unpacked.ignored == std::vector<std::string>{"notes.txt"});
  CHECK(read(staging / "lovelaceada_1001" / "causal.cpp") == "ada causal, resubmitted late");
  CHECK(read(staging / "lovelaceada_1001" / "memory.cpp") == "ada memory");
  CHECK(read(staging / "turingalan_1002" / "flops.cpp") == "alan flops");
  CHECK_FALSE(fs::exists(staging / "carol"));
  CHECK(read(cls / "carol" / "causal.cpp") == "carol's own folder");

  // Again after Alan's file left the download: his folder goes too.
  fs::remove(cls / "turingalan_1002_501_flops.cpp");
  const auto again = grader::unpack_canvas_download(cls, staging);
  CHECK(again.students == std::vector<std::string>{"lovelaceada_1001"});
  CHECK_FALSE(fs::exists(staging / "turingalan_1002"));
  fs::remove_all(root);
}

TEST_CASE("canvas download: a -N copy is a resubmission of the same file, the latest is graded") {
  CHECK(grader::canvas_copy_of("causal-1.cpp") == "causal.cpp");
  CHECK(grader::canvas_copy_of("causal-12.tar.gz") == "causal.tar.gz");
  CHECK(grader::canvas_copy_of("causal.cpp") == "causal.cpp");
  CHECK(grader::canvas_copy_of("causal-v2.cpp") == "causal-v2.cpp");
  CHECK(grader::canvas_copy_of("-1.cpp") == "-1.cpp");

  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls);
  // Ada sent the stub first, then her work; Canvas named the second upload causal-1.cpp.
  write(cls / "lovelaceada_1001_500_causal.cpp", "ada's stub");
  write(cls / "lovelaceada_LATE_1001_9000_causal-1.cpp", "ada's work");
  // Alan's resubmission went the other way round: the plain name is the later one.
  write(cls / "turingalan_1002_700_flops-1.cpp", "alan's first");
  write(cls / "turingalan_1002_701_flops.cpp", "alan's second");
  // Two copies under one id (Canvas gives every file its own, so only a hand-made folder has
  // this): both stay, and the file finder's rules decide.
  write(cls / "hoppergrace_1003_800_memory.cpp", "grace one");
  write(cls / "hoppergrace_1003_800_memory-1.cpp", "grace two");

  const auto unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(read(staging / "lovelaceada_1001" / "causal-1.cpp") == "ada's work");
  CHECK_FALSE(fs::exists(staging / "lovelaceada_1001" / "causal.cpp"));
  CHECK(read(staging / "turingalan_1002" / "flops.cpp") == "alan's second");
  CHECK_FALSE(fs::exists(staging / "turingalan_1002" / "flops-1.cpp"));
  CHECK(fs::exists(staging / "hoppergrace_1003" / "memory.cpp"));
  CHECK(fs::exists(staging / "hoppergrace_1003" / "memory-1.cpp"));
  REQUIRE(unpacked.notes.count("lovelaceada_1001"));
  const std::string note = unpacked.notes.at("lovelaceada_1001").at(0);
  CHECK(note.find("causal-1.cpp (Canvas submission 9000) is graded") != std::string::npos);
  CHECK(note.find("causal.cpp (submission 500)") != std::string::npos);
  CHECK_FALSE(unpacked.notes.count("hoppergrace_1003"));
  fs::remove_all(root);
}

TEST_CASE("canvas download: ids with leading zeros are compared as the numbers they are") {
  // Red-team: ids were compared as "a longer string of digits is a larger number", so an upload
  // under submission 0199 was taken as later than one under 200.
  CHECK(parse_canvas_name("ann_100_0199_flops.cpp")->submission_id == "199");
  CHECK(parse_canvas_name("ann_100_000_flops.cpp")->submission_id == "0");
  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls);
  write(cls / "ann_100_200_flops.cpp", "ann's latest");
  write(cls / "ann_100_0199_flops-1.cpp", "ann's earlier");
  const auto unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(read(staging / "ann_100" / "flops.cpp") == "ann's latest");
  CHECK_FALSE(fs::exists(staging / "ann_100" / "flops-1.cpp"));
  CHECK(unpacked.latest_submission.at("ann_100") == "200");
  // Ids of different lengths: 100 is later than 99 (a survivor of issue 36 compared them as
  // text, which puts "99" after "100").
  write(cls / "bo_101_99_flops.cpp", "bo's earlier");
  write(cls / "bo_101_100_flops-1.cpp", "bo's latest");
  const auto again = grader::unpack_canvas_download(cls, staging);
  CHECK(read(staging / "bo_101" / "flops-1.cpp") == "bo's latest");
  CHECK_FALSE(fs::exists(staging / "bo_101" / "flops.cpp"));
  CHECK(again.latest_submission.at("bo_101") == "100");
  fs::remove_all(root);
}

TEST_CASE("canvas download: a pipe in the class folder is named as not graded, never opened") {
  // Red-team: a FIFO (even one named like a Canvas file) was passed over without a word.
  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls);
  REQUIRE(::mkfifo((cls / "jay_109_300_flops.cpp").c_str(), 0644) == 0);
  REQUIRE(::mkfifo((cls / "pipe").c_str(), 0644) == 0);
  const auto unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(unpacked.students.empty());
  CHECK(unpacked.ignored == std::vector<std::string>{"jay_109_300_flops.cpp", "pipe"});
  fs::remove_all(root);
}

TEST_CASE("canvas names: a student's name with '_' in it, and the readings it makes") {
  // Canvas keeps '_' in a name ("O_Brien, Pat"): such a file was taken for a stray one.
  const auto pat = parse_canvas_name("o_brienpat_1002_52345_causal.cpp");
  REQUIRE(pat);
  CHECK(pat->student == "o_brienpat_1002");
  CHECK(pat->uploaded == "causal.cpp");
  // The late flag is never part of a name: Kim Lee, late, has one reading.
  CHECK(grader::canvas_name_readings("kimlee_late_2001_9_flops.cpp").size() == 1);
  // Red-team (issue 32): a student who named themselves "lovelaceada_1002" (user 1019) writes
  // files that also read as Ada's (user 1002), with an upload named "7777_x.zip".
  const auto two = grader::canvas_name_readings("lovelaceada_1002_1019_7777_x.zip");
  REQUIRE(two.size() == 2);
  CHECK(two[0].student == "lovelaceada_1002");
  CHECK(two[0].uploaded == "7777_x.zip");
  CHECK(two[1].student == "lovelaceada_1002_1019");
  CHECK(two[1].name == "lovelaceada_1002");
  CHECK(two[1].user_id == "1019");
  CHECK(two[1].uploaded == "x.zip");
  CHECK_FALSE(parse_canvas_name("lovelaceada_1002_1019_7777_x.zip"));  // not one reading
  // The name Canvas writes for a roster name.
  CHECK(grader::canvas_file_name_of("Lovelace, Ada") == "lovelaceada");
  CHECK(grader::canvas_file_name_of("García, José") == "garcíajosé");
  CHECK(grader::canvas_file_name_of("O_Brien, Pat") == "o_brienpat");
  CHECK(grader::canvas_file_name_of("李, 明") == "李明");
  // Characters Canvas drops (a curly apostrophe, a no-break space), and letters of any script
  // lower-cased.
  CHECK(grader::canvas_file_name_of("O\u2019Neil,\u00a0Ann") == "oneilann");
  CHECK(grader::canvas_file_name_of("\u00d8rsted, Hans") == "\u00f8rstedhans");
  CHECK(grader::canvas_file_name_of("\u0394\u0397\u039c\u0397\u03a4\u03a1\u0397\u03a3") ==
        "\u03b4\u03b7\u03bc\u03b7\u03c4\u03c1\u03b7\u03c3");
}

TEST_CASE("canvas download: a file that reads as two students' is decided by the roster") {
  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls);
  write(cls / "lovelaceada_1002_5000_flops.cpp", "ada's");
  write(cls / "lovelaceada_1002_5001_2024_notes.zip", "ada's notes");  // her own upload name
  write(cls / "lovelaceada_1002_1019_7777_flops.zip",
        "mallory's");  // 1019 named "lovelaceada_1002"
  write(cls / "turingalan_1003_5002_flops.cpp", "alan's");
  write(cls / "turingalan_late_1003_1020_7778_flops.cpp",
        "eve's");  // 1020 named "turingalan_late_1003"
  const grader::CanvasNames roster = {{"1002", {"lovelaceada"}},
                                      {"1003", {"turingalan"}},
                                      {"1019", {"lovelaceada_1002"}},
                                      {"1020", {"turingalan_late_1003"}}};
  auto unpacked = grader::unpack_canvas_download(cls, staging, roster);
  // Ada keeps her files, and her own "2024_notes.zip" is hers (only her reading is confirmed).
  CHECK(read(staging / "lovelaceada_1002" / "flops.cpp") == "ada's");
  CHECK(read(staging / "lovelaceada_1002" / "2024_notes.zip") == "ada's notes");
  CHECK_FALSE(fs::exists(staging / "lovelaceada_1002" / "7777_flops.zip"));
  // The two files both readings of which the roster confirms: graded for nobody, and named.
  CHECK(unpacked.ambiguous == std::vector<std::string>{"lovelaceada_1002_1019_7777_flops.zip",
                                                       "turingalan_late_1003_1020_7778_flops.cpp"});
  CHECK_FALSE(unpacked.late.count("turingalan_1003"));  // Alan is not made late by it
  CHECK(fs::exists(staging / "turingalan_1003" / "flops.cpp"));
  auto noted = [&](const std::string& student, const std::string& start) {
    for (const auto& note : unpacked.notes[student])
      if (note.rfind(start, 0) == 0) return true;
    return false;
  };
  CHECK(noted("lovelaceada_1002",
              "lovelaceada_1002_1019_7777_flops.zip reads as a file of lovelaceada_1002 or "
              "lovelaceada_1002_1019, and the roster does not tell which"));
  CHECK(noted("lovelaceada_1002",
              "lovelaceada_1002_5001_2024_notes.zip is taken as "
              "lovelaceada_1002's, but reads as a file of lovelaceada_1002 or "
              "lovelaceada_1002_5001 too; the roster confirms"));
  // Red-team: a reading the roster cannot confirm (the name written with a character Canvas
  // drops, or a hidden upload ".x.zip") still keeps the file from the other reading's student.
  write(cls / "lovelaceada_1002_1019_7779_.x.zip", "mallory's hidden");
  const grader::CanvasNames renamed = {{"1002", {"lovelaceada"}},
                                       {"1003", {"turingalan"}},
                                       {"1019", {"lovelaceada_1002\u2019"}},
                                       {"1020", {"turingalan_late_1003\u00a0"}}};
  unpacked = grader::unpack_canvas_download(cls, staging, renamed);
  CHECK(unpacked.ambiguous == std::vector<std::string>{"lovelaceada_1002_1019_7777_flops.zip",
                                                       "lovelaceada_1002_1019_7779_.x.zip",
                                                       "turingalan_late_1003_1020_7778_flops.cpp"});
  CHECK_FALSE(fs::exists(staging / "lovelaceada_1002" / "7779_.x.zip"));
  CHECK_FALSE(unpacked.late.count("turingalan_1003"));
  fs::remove(cls / "lovelaceada_1002_1019_7779_.x.zip");
  // With no roster: the first reading, and the notes say how else it reads.
  unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(unpacked.ambiguous.empty());
  CHECK(fs::exists(staging / "lovelaceada_1002" / "7777_flops.zip"));
  CHECK(noted("lovelaceada_1002",
              "lovelaceada_1002_1019_7777_flops.zip is taken as lovelaceada_1002's, but reads as "
              "a file of lovelaceada_1002 or lovelaceada_1002_1019 too; a roster with Canvas ids "
              "decides"));
  fs::remove_all(root);
}

TEST_CASE("canvas download: two files of one name under one submission id are never merged") {
  // Red-team (issue 32): "_0600_" and "_600_" are one id; the second copy overwrote the first
  // in silence, and which one was kept depended on the folder's order.
  const fs::path root = temp_folder();
  const fs::path cls = root / "class", staging = root / "grades" / "canvas-download";
  fs::create_directories(cls);
  write(cls / "ann_100_600_flops.cpp", "plain id");
  write(cls / "ann_100_0600_flops.cpp", "leading zero");
  const auto unpacked = grader::unpack_canvas_download(cls, staging);
  CHECK(read(staging / "ann_100" / "flops.cpp") == "leading zero");  // first by name
  REQUIRE(unpacked.notes.count("ann_100"));
  CHECK(unpacked.notes.at("ann_100").at(0) ==
        "ann_100_600_flops.cpp has the same name and submission id as ann_100_0600_flops.cpp, "
        "which is graded; it is not");
  fs::remove_all(root);
}
