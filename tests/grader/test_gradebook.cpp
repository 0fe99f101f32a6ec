// The file finder (grader/src/util/find_files.hpp) and the gradebook, its exports and the
// similarity report (grader/src/course/gradebook.hpp), on hand-made folders and reports.
#include <doctest/doctest.h>

#include "src/course/gradebook.hpp"
#include "src/util/find_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace grader;
namespace gb = grader::gradebook;
using nlohmann::json;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gradebook-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void file(const std::string& rel, const std::string& text = "// code\n") const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      out.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

// A native report's exercise entry, as the engine writes it.
json exercise(const std::string& name, double score, double max, bool built = true,
              const std::string& source_status = "found") {
  return {{"name", name},
          {"score", score},
          {"max_score", max},
          {"build", {{"ok", built}}},
          {"source_status", source_status}};
}

json report(std::vector<json> exercises) {
  double score = 0, max = 0;
  for (const auto& e : exercises) {
    score += e["score"].get<double>();
    max += e["max_score"].get<double>();
  }
  return {{"score", score}, {"max_score", max}, {"exercises", exercises}};
}

const std::vector<std::string> kTwo = {"flops", "causal"};

// A class of five: ok, partial, build error, missing file, not in the roster; and a roster
// entry with no submission. Names with a comma, unicode, spaces.
gb::Book sample_class(std::vector<gb::Student>& roster) {
  roster = gb::parse_roster(
      "Folder,Student ID,Name,Email\n"
      "ada,1001,\"Lovelace, Ada\",ada@example.org\n"
      "zoe*,1002,Zoë Ünal-Åström,zoe@example.org\n"
      "li,1003,李 小龙,li@example.org\n"
      "max,1004,Max Mustermann,max@example.org\n"
      "nobody,1005,Nora Nobody,nora@example.org\n");
  std::map<std::string, json> reports;
  reports["ada"] = report({exercise("flops", 10, 10), exercise("causal", 35, 35)});
  reports["zoe_unal_42"] = report({exercise("flops", 10, 10), exercise("causal", 12.5, 35)});
  reports["li"] = report({exercise("flops", 10, 10), exercise("causal", 0, 35, false)});
  reports["max"] = report({exercise("flops", 0, 10, false, "missing"), exercise("causal", 35, 35)});
  reports["stranger"] = report({exercise("flops", 10, 10), exercise("causal", 35, 35)});
  return gb::join(roster, reports, kTwo);
}

}  // namespace

// --- the file finder ----------------------------------------------------------------------

TEST_CASE("finder: the kit's layout, a flat upload, a nested one") {
  TempDir d;
  d.file("a/causal/causal.cpp");
  d.file("b/causal.cpp");
  d.file("c/Submission 3/src/causal.cpp");
  auto a = find_exercise_source(d.path / "a", "causal");
  CHECK(a.kind == FoundSource::Kind::Found);
  CHECK(a.shown == "causal/causal.cpp");
  auto b = find_exercise_source(d.path / "b", "causal");
  CHECK(b.kind == FoundSource::Kind::Found);
  CHECK(b.shown == "causal.cpp");
  auto c = find_exercise_source(d.path / "c", "causal");
  CHECK(c.kind == FoundSource::Kind::Found);
  CHECK(c.shown == "Submission 3/src/causal.cpp");
  CHECK(fs::equivalent(c.path, d.path / "c/Submission 3/src/causal.cpp"));
}

TEST_CASE("finder: __MACOSX and hidden files are never candidates") {
  TempDir d;
  d.file("s/__MACOSX/causal.cpp", "junk");
  d.file("s/._causal.cpp", "junk");
  d.file("s/.git/causal.cpp", "junk");
  auto none = find_exercise_source(d.path / "s", "causal");
  CHECK(none.kind == FoundSource::Kind::Missing);
  CHECK(none.problem("causal").find("No file causal/causal.cpp") != std::string::npos);
  d.file("s/work/causal.cpp");
  auto one = find_exercise_source(d.path / "s", "causal");
  CHECK(one.kind == FoundSource::Kind::Found);
  CHECK(one.shown == "work/causal.cpp");
}

TEST_CASE("finder: download and case variants count when they are the only candidate") {
  for (const char* name : {"causal (1).cpp", "Causal.cpp", "CAUSAL(2).cpp", "causal-1.cpp"}) {
    TempDir d;
    d.file(std::string("s/") + name);
    auto f = find_exercise_source(d.path / "s", "causal");
    CHECK_MESSAGE(f.kind == FoundSource::Kind::Found, name);
    CHECK(f.shown == name);
  }
  for (const char* name :
       {"causal_linear.cpp", "mycausal.cpp", "causal.hpp", "causal (x).cpp", "causal.cpp.bak"})
    CHECK_MESSAGE(!names_exercise_file(name, "causal"), name);
}

TEST_CASE(
    "finder: two candidates are ambiguous, with both named, the kit layout wins and says so") {
  TempDir d;
  d.file("s/causal (1).cpp");
  d.file("s/old/causal.cpp");
  auto f = find_exercise_source(d.path / "s", "causal");
  CHECK(f.kind == FoundSource::Kind::Ambiguous);
  REQUIRE(f.candidates.size() == 2);
  CHECK(f.candidates[0] == "causal (1).cpp");
  CHECK(f.candidates[1] == "old/causal.cpp");
  const std::string why = f.problem("causal");
  CHECK(why.find("causal (1).cpp") != std::string::npos);
  CHECK(why.find("old/causal.cpp") != std::string::npos);
  CHECK(f.path.empty());
  d.file("s/causal/causal.cpp");
  auto g = find_exercise_source(d.path / "s", "causal");
  CHECK(g.kind == FoundSource::Kind::Found);
  CHECK(g.shown == "causal/causal.cpp");
  CHECK(g.ignored.size() == 2);
}

TEST_CASE("finder: a symbolic link is never taken") {
  TempDir d;
  d.file("elsewhere/secret.cpp");
  fs::create_directories(d.path / "s");
  fs::create_symlink(d.path / "elsewhere/secret.cpp", d.path / "s/causal.cpp");
  CHECK(find_exercise_source(d.path / "s", "causal").kind == FoundSource::Kind::Missing);
}

// --- roster and CSV -----------------------------------------------------------------------

TEST_CASE("roster: quoted commas, unicode, a byte-order mark, CRLF, header aliases") {
  const auto roster = gb::parse_roster(
      "\xEF\xBB\xBF"
      "Submission,SIS User ID,Student,E-mail\r\n"
      "ada,1001,\"Lovelace, Ada\",ada@example.org\r\n"
      "\r\n"
      "zoe,1002,\"Zoë \"\"Z\"\" Ünal\",zoe@example.org\r\n");
  REQUIRE(roster.size() == 2);
  CHECK(roster[0].folder == "ada");
  CHECK(roster[0].id == "1001");
  CHECK(roster[0].name == "Lovelace, Ada");
  CHECK(roster[1].name == "Zoë \"Z\" Ünal");
  CHECK(roster[1].email == "zoe@example.org");
  CHECK_THROWS_WITH_AS(gb::parse_roster("folder,name\nada,Ada\n"),
                       doctest::Contains("no id column"), std::runtime_error);
  CHECK_THROWS_AS(gb::parse_roster("folder,id\n\"ada,1\n"), std::runtime_error);
  // Without a folder column, the ids name the folders.
  CHECK(gb::parse_roster("id,name\n1001,Ada\n")[0].folder == "1001");
}

TEST_CASE("csv fields round-trip through the parser") {
  const std::vector<std::string> fields = {"plain", "a, b", "say \"hi\"", "Zoë 李", ""};
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + gb::csv_field(fields[i]);
  const auto rows = gb::parse_csv(line + "\n");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0] == fields);
  // A quoted line end is part of its field when read (a roster may hold one); the exports
  // write it as the text \x0a (csv injection tests).
  CHECK(gb::parse_csv("\"two\nlines\",x\n") ==
        std::vector<std::vector<std::string>>{{"two\nlines", "x"}});
}

TEST_CASE("csv: a quote left open names the line it opened on, a CRLF counted once anywhere") {
  // A roster saved by a spreadsheet may begin with an empty line, CRLF like every other.
  for (const std::string& start :
       {std::string("\r\n"), std::string("\xEF\xBB\xBF\r\n"), std::string("\n")}) {
    CAPTURE(start);
    try {
      gb::parse_csv(start + "name,id\r\n\"ada,1\r\nzoe,2\r\n");
      FAIL("an open quote was accepted");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "the quote opened on line 3 is never closed");
    }
  }
}

// --- statuses and the gradebook -----------------------------------------------------------

TEST_CASE(
    "statuses: ok, partial, build_error, missing_files, ambiguous, per exercise and per "
    "submission") {
  CHECK(std::string(gb::exercise_status(exercise("causal", 35, 35))) == "ok");
  CHECK(std::string(gb::exercise_status(exercise("causal", 0, 35))) == "partial");
  CHECK(std::string(gb::exercise_status(exercise("causal", 0, 35, false))) == "build_error");
  CHECK(std::string(gb::exercise_status(exercise("causal", 0, 35, false, "missing"))) ==
        "missing_files");
  CHECK(std::string(gb::exercise_status(exercise("causal", 0, 35, false, "ambiguous"))) ==
        "ambiguous");
  CHECK(gb::submission_status({"ok", "ok"}) == "ok");
  CHECK(gb::submission_status({"ok", "partial"}) == "partial");
  CHECK(gb::submission_status({"partial", "missing_files"}) == "missing_files");
  CHECK(gb::submission_status({"missing_files", "build_error"}) == "build_error");
  CHECK(gb::submission_status({"missing_files", "ambiguous"}) == "ambiguous");
}

TEST_CASE("gradebook: two competing files are `ambiguous`, and the notes name both") {
  json causal = exercise("causal", 0, 35, false, "ambiguous");
  causal["source_others"] = {"causal (1).cpp", "old/causal.cpp"};
  std::map<std::string, json> reports = {{"erin", report({exercise("flops", 10, 10), causal})}};
  const gb::Book book = gb::join({}, reports, {"flops", "causal"});
  const auto rows = lines(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 2);
  CHECK(
      rows[1] ==
      "erin,,,,10,0,10,10,45,no,0,ambiguous,ok,ambiguous,"
      "\"not in the roster; several files, none graded: causal (causal (1).cpp, old/causal.cpp)\"");
  CHECK(gb::facts(book, book.rows[0]).missing.empty());  // competing files are not a missing file
}

TEST_CASE("gradebook: roster columns, statuses, a row per student and per stranger") {
  std::vector<gb::Student> roster;
  const gb::Book book = sample_class(roster);
  const auto rows = lines(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 7);  // header, five roster entries, one stranger
  CHECK(rows[0] ==
        "submission,student_id,name,email,flops,causal,total,total_after_late,max_score,late,days_"
        "late,status,"
        "flops_status,causal_status,notes");
  CHECK(rows[1] == "ada,1001,\"Lovelace, Ada\",ada@example.org,10,35,45,45,45,no,0,ok,ok,ok,");
  CHECK(rows[2] ==
        "zoe_unal_42,1002,Zoë "
        "Ünal-Åström,zoe@example.org,10,12.5,22.5,22.5,45,no,0,partial,ok,partial,");
  CHECK(rows[3] ==
        "li,1003,李 小龙,li@example.org,10,0,10,10,45,no,0,build_error,ok,build_error,does not "
        "build: causal");
  CHECK(rows[4] ==
        "max,1004,Max "
        "Mustermann,max@example.org,0,35,35,35,45,no,0,missing_files,missing_files,ok,missing: "
        "flops");
  CHECK(rows[5] ==
        ",1005,Nora "
        "Nobody,nora@example.org,0,0,0,0,45,no,0,missing_files,missing_files,missing_files,no "
        "submission");
  CHECK(rows[6] == "stranger,,,,10,35,45,45,45,no,0,ok,ok,ok,not in the roster");
  CHECK(book.not_in_roster == std::vector<std::string>{"stranger"});
  CHECK(book.no_submission == std::vector<std::string>{"1005 Nora Nobody"});
}

TEST_CASE("exports: Canvas's and Moodle's import columns, one row per roster student, id,score") {
  std::vector<gb::Student> roster;
  const gb::Book book = sample_class(roster);
  const auto canvas = gb::parse_csv(gb::canvas_csv(book, "Linear attention", false));
  REQUIRE(canvas.size() == 6);
  CHECK(canvas[0] == std::vector<std::string>{"Student", "ID", "SIS User ID", "SIS Login ID",
                                              "Section", "Linear attention"});
  CHECK(canvas[1] == std::vector<std::string>{"Lovelace, Ada", "", "1001", "", "", "45"});
  CHECK(canvas[2][0] == "Zoë Ünal-Åström");
  // No submission: an empty cell, so that an import keeps what the LMS has (issue 32).
  CHECK(canvas[5] == std::vector<std::string>{"Nora Nobody", "", "1005", "", "", ""});
  for (const auto& row : canvas) CHECK(row.size() == canvas[0].size());

  const auto moodle = gb::parse_csv(gb::moodle_csv(book, "Linear attention", false));
  REQUIRE(moodle.size() == 6);
  CHECK(moodle[0] == std::vector<std::string>{"First name", "Last name", "ID number",
                                              "Email address", "Linear attention"});
  CHECK(moodle[3] == std::vector<std::string>{"李 小龙", "", "1003", "li@example.org", "10"});
  for (const auto& row : moodle) CHECK(row.size() == moodle[0].size());

  const auto scores = lines(gb::scores_csv(book, false));
  CHECK(scores == std::vector<std::string>{"id,score", "1001,45", "1002,22.5", "1003,10", "1004,35",
                                           "1005,"});
}

TEST_CASE("exports: no submission is an empty cell, 0 only when the course asks for it") {
  // An import of 0 would overwrite a grade entered by hand (issue 32). A graded student keeps
  // the score, a grader_fault stays empty either way, a missing file inside a submission is a
  // real 0 (the student handed something in).
  std::vector<gb::Student> roster;
  const gb::Book book = sample_class(roster);
  for (const bool zero : {false, true}) {
    CAPTURE(zero);
    const std::string none = zero ? "0" : "";
    const auto canvas = gb::parse_csv(gb::canvas_csv(book, "x", false, zero));
    REQUIRE(canvas.size() == 6);
    CHECK(canvas[1].back() == "45");
    CHECK(canvas[4].back() == "35");  // max: a missing file, graded
    CHECK(canvas[5].back() == none);  // nobody: no folder
    const auto moodle = gb::parse_csv(gb::moodle_csv(book, "x", false, zero));
    CHECK(moodle[5].back() == none);
    CHECK(lines(gb::scores_csv(book, false, zero)).back() == "1005," + none);
  }
  // The gradebook itself keeps its zeros and says why.
  const auto table = gb::parse_csv(gb::gradebook_csv(book, false));
  CHECK(table[5][6] == "0");
  CHECK(table[5].back() == "no submission");
}

TEST_CASE("exports: Canvas's Test Student is left out, and its gradebook row says so") {
  const auto roster = gb::parse_roster(
      "Student,ID,SIS User ID,SIS Login ID,Section,Part 1 (12345)\n"
      "    Points Possible,,,,,100.00\n"
      "\"Lovelace, Ada\",1001,S-17,ada,Section 1,\n"
      "\"Student, Test\",1999,,,Section 1,\n");
  REQUIRE(roster.size() == 2);
  CHECK_FALSE(roster[0].test_student);
  CHECK(roster[1].test_student);
  CHECK(gb::is_test_student("Test Student"));
  CHECK_FALSE(gb::is_test_student("Tess Student"));
  // With a submission (an instructor trying Student View) and without one.
  for (const bool handed_in : {false, true}) {
    CAPTURE(handed_in);
    std::map<std::string, json> reports = {
        {"lovelaceada_1001", report({exercise("flops", 10, 10)})}};
    if (handed_in) reports["studenttest_1999"] = report({exercise("flops", 3, 10)});
    const gb::Book book = gb::join(roster, reports, {"flops"});
    CHECK(book.no_submission.empty());  // not "in the roster, no submission"
    for (const bool zero : {false, true}) {
      const auto canvas = gb::parse_csv(gb::canvas_csv(book, "Part 1", false, zero));
      REQUIRE(canvas.size() == 2);
      CHECK(canvas[1][0] == "Lovelace, Ada");
      CHECK(gb::parse_csv(gb::moodle_csv(book, "x", false, zero)).size() == 2);
      CHECK(lines(gb::scores_csv(book, false, zero)) ==
            std::vector<std::string>{"id,score", "S-17,10"});
    }
    const auto table = gb::parse_csv(gb::gradebook_csv(book, false));
    REQUIRE(table.size() == 3);
    CHECK(table[2][2] == "Student, Test");
    CHECK(table[2].back().find("Canvas's Test Student: not exported, not counted") == 0);
  }
}

TEST_CASE("exports: the Canvas column is the roster's own header for the assignment") {
  // Canvas's export names an assignment's column "Title (id)"; importing under that name fills
  // the assignment, any other name makes a new one.
  const auto roster = gb::parse_roster(
      "Student,ID,SIS User ID,SIS Login ID,Section,Warm-up (12001),Part 1 (12345),"
      "Current Score\n"
      "\"Lovelace, Ada\",1001,S-17,ada,Section 1,,,\n");
  const gb::Book book =
      gb::join(roster, {{"lovelaceada_1001", report({exercise("flops", 10, 10)})}}, {"flops"});
  CHECK(gb::canvas_column(book, {"default", "Part 1"}) == "Part 1 (12345)");
  CHECK(gb::canvas_column(book, {"part 1"}) == "Part 1 (12345)");              // any ASCII case
  CHECK(gb::canvas_column(book, {"Part 1 (12345)"}) == "Part 1 (12345)");      // named in full
  CHECK(gb::canvas_column(book, {"Part 2", "Linear attention"}) == "Part 2");  // none: the default
  CHECK(gb::canvas_column(book, {"Part"}) == "Part");  // a prefix is no match
  const auto canvas =
      gb::parse_csv(gb::canvas_csv(book, gb::canvas_column(book, {"default", "Part 1"}), false));
  CHECK(canvas[0].back() == "Part 1 (12345)");
  // A roster of its own (no such column): the default, as before.
  std::vector<gb::Student> plain;
  CHECK(gb::canvas_column(sample_class(plain), {"default", "Part 1"}) == "default");
}

TEST_CASE("gradebook: an exercise the grader could not grade (grader_fault) writes no score") {
  // The machine ran short of memory grading ada's causal: her other exercise stands, but no
  // total, and the exports leave her cell empty (an import then keeps what the LMS has).
  const auto roster = gb::parse_roster(
      "Folder,Student ID,Name,Email\n"
      "ada,1001,Ada,ada@example.org\n"
      "bob,1002,Bob,bob@example.org\n");
  json faulted = exercise("causal", 0, 35);
  faulted["checks"] =
      json::array({{{"name", "recurrent/hand-example"}, {"status", "passed"}},
                   {{"name", "recurrent/linear-time"}, {"status", "grader_fault"}}});
  std::map<std::string, json> reports;
  reports["ada"] = report({exercise("flops", 10, 10), faulted});
  reports["bob"] = report({exercise("flops", 10, 10), exercise("causal", 35, 35)});
  const gb::Book book = gb::join(roster, reports, kTwo);
  CHECK(gb::exercise_status(faulted) == std::string("grader_fault"));
  CHECK(gb::submission_status({"partial", "grader_fault", "build_error"}) == "grader_fault");

  const auto table = gb::parse_csv(gb::gradebook_csv(book, false));
  REQUIRE(table.size() == 3);
  const auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(table[0].begin(), table[0].end(), name) -
                                    table[0].begin());
  };
  const auto& ada = table[1];
  CHECK(ada[col("flops")] == "10");
  CHECK(ada[col("causal")] == "");
  CHECK(ada[col("total")] == "");
  CHECK(ada[col("total_after_late")] == "");
  CHECK(ada[col("status")] == "grader_fault");
  CHECK(ada[col("causal_status")] == "grader_fault");
  CHECK(ada[col("notes")].find("not graded, the grader's fault") != std::string::npos);
  CHECK(table[2][col("total")] == "45");

  CHECK(gb::parse_csv(gb::canvas_csv(book, "x", false))[1].back() == "");
  CHECK(gb::parse_csv(gb::moodle_csv(book, "x", false))[1].back() == "");
  // Asking for 0 where there is no submission changes nothing here: ada handed hers in.
  CHECK(gb::parse_csv(gb::canvas_csv(book, "x", false, true))[1].back() == "");
  CHECK(lines(gb::scores_csv(book, false, true)) ==
        std::vector<std::string>{"id,score", "1001,", "1002,45"});
  CHECK(lines(gb::scores_csv(book, false)) ==
        std::vector<std::string>{"id,score", "1001,", "1002,45"});
}

TEST_CASE("--bom: every file starts with the UTF-8 byte-order mark, and only then") {
  std::vector<gb::Student> roster;
  const gb::Book book = sample_class(roster);
  for (bool bom : {false, true}) {
    for (const std::string& text : {gb::gradebook_csv(book, bom), gb::canvas_csv(book, "x", bom),
                                    gb::moodle_csv(book, "x", bom), gb::scores_csv(book, bom)}) {
      CHECK((text.rfind("\xEF\xBB\xBF", 0) == 0) == bom);
      CHECK(text.find("\xEF\xBB\xBF", 1) == std::string::npos);
    }
  }
  CHECK(gb::parse_csv(gb::canvas_csv(book, "x", true))[0][0] == "Student");
}

// --- removed folders and similarity -------------------------------------------------------

TEST_CASE("reports of removed submissions are removed, the others kept") {
  TempDir d;
  d.file("reports/alice.json", "{}");
  d.file("reports/gone.json", "{}");
  d.file("reports/notes.txt", "keep");
  const auto removed = gb::remove_stale_reports(d.path / "reports", {"alice"});
  CHECK(removed == std::vector<std::string>{"gone"});
  CHECK(fs::exists(d.path / "reports/alice.json"));
  CHECK(!fs::exists(d.path / "reports/gone.json"));
  CHECK(fs::exists(d.path / "reports/notes.txt"));
}

namespace {

// A submission's file as a student might write it, and the stub it started from.
const std::string kStub =
    "#include \"causal.hpp\"\n"
    "namespace linattn {\n"
    "Matrix causal(const Matrix& Q, const Matrix& K) {\n"
    "  throw NotImplemented(\"causal\");\n"
    "}\n"
    "}  // namespace linattn\n";
const std::string kMine =
    "#include \"causal.hpp\"\n"
    "namespace linattn {\n"
    "// Running sums, one token at a time.\n"
    "Matrix causal(const Matrix& Q, const Matrix& K) {\n"
    "  Matrix out(Q.rows(), K.cols());\n"
    "  Vector state = Vector::Zero(K.cols());\n"
    "  for (Eigen::Index t = 0; t < Q.rows(); ++t) {\n"
    "    state += K.row(t).transpose();\n"
    "    const double norm = Q.row(t).dot(state) + 1e-6;\n"
    "    out.row(t) = state.transpose() / norm;\n"
    "  }\n"
    "  return out;\n"
    "}\n"
    "}  // namespace linattn\n";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("similarity: comments, spacing, line ends, a byte-order mark and names do not count") {
  namespace sim = grader::similarity;
  CHECK(sim::tokens("\xEF\xBB\xBFint  x = a+1; // c\r\n/* d */ return \"a  b\";") ==
        std::vector<std::string>{"int", "ID", "=", "ID", "+", "1", ";", "return", "\"a  b\"", ";"});
  CHECK(sim::tokens("a <<= b->c; x = 1.5e-3f; s = u8\"x y\"; r = R\"(a \" b)\";") ==
        std::vector<std::string>{"ID", "<<=", "ID", "->", "ID", ";", "ID", "=", "1.5e-3f", ";",
                                 "ID", "=", "u8\"x y\"", ";", "ID", "=", "R\"(a \" b)\"", ";"});
  // Issue 32: a byte-order mark alone, or CRLF line ends, hid an identical file; so did
  // renamed variables.
  const std::string bom_crlf = "\xEF\xBB\xBF" + replace_all(kMine, "\n", "\r\n");
  const std::string renamed = replace_all(
      replace_all(replace_all(kMine, "state", "acc"), "norm", "denominator"), "out", "result");
  const std::string recommented = replace_all(
      replace_all(kMine, "// Running sums, one token at a time.\n", "/* mine */"), "  ", "\t");
  for (const auto& copy : {bom_crlf, renamed, recommented}) {
    CHECK(sim::digest(copy) == sim::digest(kMine));
    CHECK(sim::fingerprint(copy).kgrams == sim::fingerprint(kMine).kgrams);
  }
  // A changed constant or operator is a change.
  CHECK(sim::digest(replace_all(kMine, "1e-6", "1e-9")) != sim::digest(kMine));
}

TEST_CASE("similarity: the pairs alike beyond the stub, with their share of matching tokens") {
  namespace sim = grader::similarity;
  const std::string renamed = replace_all(replace_all(kMine, "state", "s"), "Q", "queries");
  // One statement added: most of the file still matches, not all of it.
  const std::string edited =
      replace_all(kMine, "  return out;\n", "  if (out.rows() > 100000) throw 1;\n  return out;\n");
  // An honest other way to write it.
  const std::string other =
      "#include \"causal.hpp\"\n"
      "namespace linattn {\n"
      "Matrix causal(const Matrix& Q, const Matrix& K) {\n"
      "  Matrix kernel = (Q * K.transpose()).triangularView<Eigen::Lower>();\n"
      "  Vector denominators = kernel.rowwise().sum().array() + 1e-6;\n"
      "  return (kernel * K).array().colwise() / denominators.array();\n"
      "}\n"
      "}  // namespace linattn\n";
  // The stub with two of its names swapped: alike to the stub as a stream of "ID"s, yet not
  // the stub as handed out.
  const std::string swapped =
      replace_all(replace_all(replace_all(kStub, "& Q", "& T"), "& K", "& Q"), "& T", "& K");
  std::map<std::string, std::map<std::string, gb::ClassSource>> sources;
  for (const auto& [name, text] : std::map<std::string, std::string>{{"ann", kMine},
                                                                     {"ben", renamed},
                                                                     {"cat", edited},
                                                                     {"dan", other},
                                                                     {"eve", kStub},
                                                                     {"fay", kStub + "\n"},
                                                                     {"gus", swapped}})
    sources["causal"][name] = gb::class_source(gb::class_source_json(name + "/causal.cpp", text));
  const auto pairs = gb::similar_pairs(sources, {{"causal", kStub}});
  REQUIRE(pairs.size() == 3);  // ann-ben, then ann-cat and ben-cat; never dan, eve or fay
  CHECK(pairs[0].pair.a == "ann");
  CHECK(pairs[0].pair.b == "ben");
  CHECK(pairs[0].pair.share == 1.0);
  CHECK(pairs[0].pair.matched_a == pairs[0].pair.counted_a);
  CHECK(pairs[0].pair.counted_a > 40);  // the loop's tokens; the stub's are not counted
  for (std::size_t i : {1, 2}) {
    CAPTURE(i);
    CHECK(pairs[i].exercise == "causal");
    CHECK(pairs[i].pair.b == "cat");
    CHECK(pairs[i].pair.share < 1.0);
    CHECK(pairs[i].pair.share > 0.75);
    CHECK(pairs[i].pair.matched_b < pairs[i].pair.counted_b);  // cat's added line is not
  }
  // The stub alone matches nothing: untouched stubs are not alike.
  const auto stubs_only = gb::similar_pairs(
      {{"causal", {{"eve", sources["causal"]["eve"]}, {"fay", sources["causal"]["fay"]}}}},
      {{"causal", kStub}});
  CHECK(stubs_only.empty());
  // A starter left as handed out: the stub token for token (eve; fay only added a line break),
  // and nobody who wrote a line (ann, ben, cat, dan) or swapped its names (gus); an exercise
  // with no stub leaves nobody.
  CHECK(gb::left_as_handed_out(sources, {{"causal", kStub}}) ==
        std::map<std::string, std::set<std::string>>{{"causal", {"eve", "fay"}}});
  CHECK(gb::left_as_handed_out(sources, {{"memory", kStub}}).empty());

  // The book points into the roster: the roster must outlive it.
  const auto roster = gb::parse_roster("folder,id,name\nann,1,Ann\n");
  const gb::Book book =
      gb::join(roster, {{"ann", report({exercise("causal", 35, 35)})}}, {"causal"});
  const auto rows = gb::parse_csv(gb::similarity_csv(pairs, book, false));
  REQUIRE(rows.size() == 7);
  CHECK(rows[0] == std::vector<std::string>{"exercise", "group", "hash", "submission", "student_id",
                                            "name", "file", "share", "tokens", "matched"});
  CHECK(rows[1][0] == "causal");
  CHECK(rows[1][1] == "1");
  CHECK(rows[1][2] == gb::class_source_json("", kMine)["hash"].get<std::string>().substr(0, 16));
  CHECK(rows[1][2] == rows[2][2]);  // the same stream
  CHECK(rows[1][3] == "ann");
  CHECK(rows[1][4] == "1");
  CHECK(rows[1][5] == "Ann");
  CHECK(rows[1][6] == "ann/causal.cpp");
  CHECK(rows[1][7] == "1");
  CHECK(rows[2][3] == "ben");
  CHECK(rows[3][1] == "2");
  CHECK(std::stod(rows[3][7]) < 1);
  // A report written before fingerprints: compared with nothing, and no error.
  CHECK(gb::class_source(json{{"file", "x.cpp"}, {"hash", "ab"}}).print.kgrams.empty());
}

TEST_CASE("similarity: a pair is listed from 75% of its tokens alike, not below") {
  namespace sim = grader::similarity;
  // Two files of 20 tokens, so 11 k-grams of 10 tokens each, sharing their first `shared`
  // k-grams: those cover tokens 0 to shared + 8, so shared + 9 of each file's 20 match.
  auto file = [](std::uint32_t own, std::size_t shared) {
    sim::Fingerprint f;
    f.tokens = 20;
    for (std::uint32_t i = 0; i < 11; ++i) f.kgrams.push_back(i < shared ? 100 + i : own + i);
    return f;
  };
  const sim::Fingerprint no_stub;
  for (const auto& [shared, share] :
       std::vector<std::pair<std::size_t, double>>{{5, 0.70}, {6, 0.75}, {7, 0.80}, {11, 1.0}}) {
    CAPTURE(shared);
    const auto pairs =
        sim::similar_pairs({{"ann", file(1000, shared)}, {"ben", file(2000, shared)}}, no_stub);
    REQUIRE(pairs.size() == (share >= 0.75 ? 1u : 0u));
    if (!pairs.empty()) CHECK(pairs[0].share == doctest::Approx(share));
  }
}

TEST_CASE("csv injection: a cell that starts like a formula is written as text, in every export") {
  for (const std::string lead : {"=", "+", "-", "@"}) {
    CAPTURE(lead);
    const std::string cell = lead + "1+2";
    const auto rows = gb::parse_csv(gb::csv_field(cell) + "\n");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0] == "'" + cell);  // shown as text, the original after the apostrophe
  }
  CHECK(gb::csv_field("1+2") == "1+2");
  CHECK(gb::csv_field("a=b") == "a=b");

  // A folder named =1+2 in the gradebook, and a path a student chose in the similarity report.
  std::map<std::string, json> reports = {{"=1+2", report({exercise("flops", 10, 10)})},
                                         {"@bob", report({exercise("flops", 10, 10)})}};
  const gb::Book book = gb::join({}, reports, {"flops"});
  for (const auto& row : gb::parse_csv(gb::gradebook_csv(book, false)))
    for (const auto& cell : row) {
      CAPTURE(cell);
      CHECK((cell.empty() || std::string("=+-@\t\r").find(cell[0]) == std::string::npos));
    }
  gb::SimilarPair pair{"flops", {"=1+2", "@bob", 1.0, 20, 20, 20, 20}, {}, {}};
  pair.a.file = "=HYPERLINK(\"x\").cpp";
  pair.b.file = "-flops.cpp";
  const auto sim = gb::parse_csv(gb::similarity_csv({pair}, book, false));
  REQUIRE(sim.size() == 3);
  CHECK(sim[1][3] == "'=1+2");
  CHECK(sim[1][6] == "'=HYPERLINK(\"x\").cpp");
  CHECK(sim[2][6] == "'-flops.cpp");
}

TEST_CASE(
    "csv injection: formulas after blanks, in full width, or after a semicolon are written as "
    "text") {
  // Red-team: only the very first character was looked at, and ';' (the separator of Excel in
  // many European locales) was not quoted, so "x;=1+2" became two cells, the second a formula.
  for (const std::string cell : {"  =1+2",
                                 "\xEF\xBC\x9D"
                                 "1+2",
                                 " \xEF\xBC\x8B"
                                 "1"}) {
    CAPTURE(cell);
    const auto rows = gb::parse_csv(gb::csv_field(cell) + "\n");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0] == "'" + cell);
  }
  // A leading line end or tab (which some importers trim) is shown as an escape: no formula.
  CHECK(gb::csv_field("\n=1+2") == "\\x0a=1+2");
  CHECK(gb::csv_field("\r=1+2") == "\\x0d=1+2");
  CHECK(gb::csv_field(" \t@SUM(A1)") == " \\x09@SUM(A1)");
  CHECK(gb::csv_field("x;=1+2") == "\"x;'=1+2\"");
  CHECK(gb::csv_field("x; @A1") == "\"x;' @A1\"");
  CHECK(gb::csv_field("missing: flops; does not build: causal") ==
        "missing: flops; does not build: causal");
  CHECK(gb::csv_field("a = b") == "a = b");  // '=' inside a cell is no formula
  CHECK(gb::csv_field("Zoë") == "Zoë");
  CHECK(gb::csv_field("   ") == "   ");
  // A Canvas upload whose name is a formula, as the gradebook's notes show it after a "; ".
  json r = report({exercise("flops", 10, 10)});
  r["intake"] = {"=HYPERLINK(\"http://x\").cpp (Canvas submission 900) is graded"};
  const gb::Book book = gb::join({}, {{"kim", r}}, {"flops"});
  const std::string csv = gb::gradebook_csv(book, false);
  CHECK(csv.find("\"not in the roster;' =HYPERLINK") != std::string::npos);
}

TEST_CASE("csv injection: a tab inside a cell starts no formula in a Tab-delimited import") {
  // Red-team (issue 32): a folder "x<Tab>=HYPERLINK(..)" opened as Tab-separated values is two
  // cells, the second a formula; quoting alone helps only an importer that honours quotes. A tab
  // in a cell is now written as the text \x09, so no import can split the cell there.
  for (const std::string cell : {"x\t=1+2", "ada\t@SUM(A1)", "a\t \t-1",
                                 "x\t\xEF\xBC\x9D"
                                 "1"}) {
    CAPTURE(cell);
    const std::string field = gb::csv_field(cell);
    CHECK(field.find('\t') == std::string::npos);
    CHECK(field.find("\\x09") != std::string::npos);
    CHECK(gb::parse_csv(field + "\n").at(0).size() == 1);
  }
  CHECK(gb::csv_field("x\t=1+2") == "x\\x09=1+2");
  // In the exports: a roster name with a tab.
  const auto roster = gb::parse_roster("folder,id,name\nada,1,\"Ada\t=HYPERLINK(\"\"x\"\")\"\n");
  const gb::Book book = gb::join(roster, {{"ada", report({exercise("flops", 10, 10)})}}, {"flops"});
  CHECK(gb::canvas_csv(book, "x", false).find("Ada\\x09=HYPERLINK") != std::string::npos);
  CHECK(gb::gradebook_csv(book, false).find("Ada\\x09=HYPERLINK") != std::string::npos);
}

TEST_CASE("exports: control characters of a roster cell, a folder or a note are shown as text") {
  // Red-team (issue 32): a roster name with an escape sequence, a folder with a newline, an
  // 8-bit CSI byte (0x9B) and a byte that is not UTF-8 were copied into every export as they
  // were: a terminal that shows the file obeys them, a line-based import splits the row.
  const auto roster = gb::parse_roster(
      "folder,id,name\nada,1,\"Ada\x1b]0;pwned\x07\"\n\"forged\nrow\",2,\"Bob\x9b"
      "2J\xff\"\n");
  json r = report({exercise("flops", 10, 10)});
  r["intake"] = {"notes\x1b[2J.txt was left out"};
  const gb::Book book = gb::join(
      roster, {{"ada", r}, {"forged\nrow", report({exercise("flops", 5, 10)})}}, {"flops"});
  for (const std::string& csv : {gb::gradebook_csv(book, false), gb::canvas_csv(book, "x", false),
                                 gb::moodle_csv(book, "x", false)}) {
    CAPTURE(csv);
    for (const unsigned char c : csv)
      CHECK((c == '\n' || (c >= 0x20 && c != 0x7f && c != 0x9b && c != 0xff)));
    // One line per row: the header and the two students.
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
  }
  const std::string book_csv = gb::gradebook_csv(book, false);
  CHECK(book_csv.find("Ada\\x1b]0;pwned\\x07") != std::string::npos);
  CHECK(book_csv.find("forged\\x0arow") != std::string::npos);
  CHECK(book_csv.find("Bob\\x9b2J\\xff") != std::string::npos);
  CHECK(book_csv.find("notes\\x1b[2J.txt was left out") != std::string::npos);
  CHECK(gb::csv_field("García 李明") == "García 李明");  // letters of any script as they are
}

TEST_CASE("gradebook: how grade-all took the files (the report's intake) is in the notes") {
  json r = report({exercise("flops", 10, 10)});
  r["intake"] = {"flops-1.cpp (Canvas submission 900) is graded", "kim.zip was unpacked (1 file)"};
  const gb::Book book = gb::join({}, {{"kim", r}}, {"flops"});
  const auto rows = lines(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 2);
  CHECK(rows[1] ==
        "kim,,,,10,10,10,10,no,0,ok,ok,not in the roster; flops-1.cpp (Canvas submission 900) is "
        "graded; "
        "kim.zip was unpacked (1 file)");
}

TEST_CASE("roster: Canvas's own gradebook export, as it comes") {
  // As Canvas writes it: the Points Possible row, ID = Canvas's user id, SIS User ID = the
  // student's id, one student without an SIS id, assignment columns after.
  const auto roster = gb::parse_roster(
      "Student,ID,SIS User ID,SIS Login ID,Section,Linear attention (4321)\n"
      "    Points Possible,,,,,100.00\n"
      "\"Lovelace, Ada\",1001,S-17,ada,Section 1,\n"
      "\"Turing, Alan\",1002,,alan,Section 1,\n");
  REQUIRE(roster.size() == 2);
  CHECK(roster[0].canvas_id == "1001");
  CHECK(roster[0].id == "S-17");
  CHECK(roster[0].name == "Lovelace, Ada");
  CHECK(roster[0].sis_login_id == "ada");
  CHECK(roster[0].section == "Section 1");
  CHECK(roster[1].id == "1002");  // no SIS id: Canvas's
  CHECK(roster[1].canvas_id == "1002");

  // Download folders are <name>_<canvas id>; a folder named by the student id still matches.
  std::map<std::string, json> reports = {
      {"lovelaceada_1001", report({exercise("flops", 10, 10)})},
      {"1002", report({exercise("flops", 5, 10)})},
      {"hoppergrace_21001", report({exercise("flops", 10, 10)})}};
  const gb::Book book = gb::join(roster, reports, {"flops"});
  CHECK(book.not_in_roster == std::vector<std::string>{"hoppergrace_21001"});
  const auto canvas = gb::parse_csv(gb::canvas_csv(book, "Linear attention", false));
  REQUIRE(canvas.size() == 3);
  CHECK(canvas[1] ==
        std::vector<std::string>{"Lovelace, Ada", "1001", "S-17", "ada", "Section 1", "10"});
  CHECK(canvas[2] ==
        std::vector<std::string>{"Turing, Alan", "1002", "1002", "alan", "Section 1", "5"});
}

TEST_CASE("several folders for one student: the latest is taken, or the one the roster pins") {
  std::map<std::string, json> reports = {{"alice", report({exercise("flops", 2, 10)})},
                                         {"alice_v2", report({exercise("flops", 10, 10)})}};
  const auto roster = gb::parse_roster("folder,id,name\nalice*,1001,Alice\n");
  // By the newest file: alice_v2 is newer, though it sorts second.
  std::map<std::string, gb::Recency> recency = {{"alice", {"", 100}}, {"alice_v2", {"", 200}}};
  gb::Book book = gb::join(roster, reports, {"flops"}, recency);
  CHECK(gb::parse_csv(gb::scores_csv(book, false))[1] == std::vector<std::string>{"1001", "10"});
  auto rows = gb::parse_csv(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1][0] == "alice_v2");
  CHECK(rows[1].back() == "one of 2 folders of 1001, the one in the exports (the newest files)");
  CHECK(rows[2].back() == "one of 2 folders of 1001; the exports take alice_v2");
  REQUIRE(book.several_folders.size() == 1);
  CHECK(book.several_folders[0] ==
        "1001: alice_v2 alice (the exports take alice_v2: the newest files)");

  // By Canvas submission id when both have one, whatever the files' times: 1000 is after 900.
  recency = {{"alice", {"1000", 100}}, {"alice_v2", {"900", 200}}};
  book = gb::join(roster, reports, {"flops"}, recency);
  CHECK(gb::parse_csv(gb::scores_csv(book, false))[1] == std::vector<std::string>{"1001", "2"});

  // Pinned by the roster, whatever is later.
  const auto pinned = gb::parse_roster("folder,id,name,pin\nalice*,1001,Alice,alice\n");
  recency = {{"alice", {"", 100}}, {"alice_v2", {"", 200}}};
  book = gb::join(pinned, reports, {"flops"}, recency);
  CHECK(gb::parse_csv(gb::scores_csv(book, false))[1] == std::vector<std::string>{"1001", "2"});
  CHECK(book.several_folders[0] ==
        "1001: alice alice_v2 (the exports take alice: pinned by the roster)");
}

TEST_CASE(
    "gradebook: late work from the roster's time and Canvas's _LATE_ flag, the exports after the "
    "penalty") {
  const auto roster = gb::parse_roster(
      "folder,id,name,submitted\n"
      "ada,1001,Ada,2026-03-06T23:00:00-05:00\n"  // on time
      "bob,1002,Bob,2026-03-08T10:00:00-05:00\n"  // 34 hours late: 2 days, 20% off
      "cy,1003,Cy,\n");                           // no time: Canvas flagged its files _LATE_
  json cy = report({exercise("flops", 10, 10)});
  cy["canvas_late"] = true;
  gb::Book book = gb::join(roster,
                           {{"ada", report({exercise("flops", 10, 10)})},
                            {"bob", report({exercise("flops", 10, 10)})},
                            {"cy", cy}},
                           {"flops"});
  book.late =
      grader::parse_late_policy("2026-03-06T23:59:00-05:00", json{{"per_day", 10}, {"cap", 50}});
  const auto rows = lines(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] ==
        "submission,student_id,name,email,flops,total,total_after_late,max_score,late,days_late,"
        "status,"
        "flops_status,notes");
  CHECK(rows[1] == "ada,1001,Ada,,10,10,10,10,no,0,ok,ok,");
  CHECK(rows[2] ==
        "bob,1002,Bob,,10,10,8,10,yes,2,ok,ok,"
        "\"late: submitted 2026-03-08T10:00:00-05:00 (roster), 20% off\"");
  CHECK(rows[3] ==
        "cy,1003,Cy,,10,10,9,10,yes,1,ok,ok,"
        "\"late: Canvas's _LATE_ flag, no time known, counted as 1 day, 10% off\"");
  // The LMS gets the score after the penalty.
  CHECK(lines(gb::scores_csv(book, false)) ==
        std::vector<std::string>{"id,score", "1001,10", "1002,8", "1003,9"});
  CHECK(gb::parse_csv(gb::canvas_csv(book, "x", false))[2][5] == "8");
  // A time the roster gets wrong stops before any grading, naming the entry.
  CHECK_THROWS_WITH_AS(gb::parse_roster("folder,id,submitted\nada,1,yesterday\n"),
                       doctest::Contains("roster entry 2"), std::runtime_error);
}

TEST_CASE(
    "gradebook: a student's own due time in the roster (an extension) replaces the assignment's") {
  const auto roster = gb::parse_roster(
      "folder,id,name,submitted,due\n"
      "ada,1001,Ada,2026-03-08T10:00:00-05:00,2026-03-09T23:59:00-05:00\n"  // on time by her
                                                                            // extension
      "bob,1002,Bob,2026-03-08T10:00:00-05:00,2026-03-07T23:59:00-05:00\n"  // 10 hours after his: 1
                                                                            // day
      "cy,1003,Cy,2026-03-08T10:00:00-05:00,\n");  // the assignment's: 2 days
  gb::Book book = gb::join(roster,
                           {{"ada", report({exercise("flops", 10, 10)})},
                            {"bob", report({exercise("flops", 10, 10)})},
                            {"cy", report({exercise("flops", 10, 10)})}},
                           {"flops"});
  book.late = grader::parse_late_policy("2026-03-06T23:59:00-05:00", json{{"per_day", 10}});
  const auto rows = lines(gb::gradebook_csv(book, false));
  REQUIRE(rows.size() == 4);
  CHECK(rows[1] ==
        "ada,1001,Ada,,10,10,10,10,no,0,ok,ok,"
        "on time by the student's own due time 2026-03-09T23:59:00-05:00 (roster)");
  CHECK(
      rows[2] ==
      "bob,1002,Bob,,10,10,9,10,yes,1,ok,ok,\"late: submitted 2026-03-08T10:00:00-05:00 (roster), "
      "against the student's own due time 2026-03-07T23:59:00-05:00, 10% off\"");
  CHECK(rows[3] ==
        "cy,1003,Cy,,10,10,8,10,yes,2,ok,ok,\"late: submitted 2026-03-08T10:00:00-05:00 (roster), "
        "20% off\"");
  CHECK_THROWS_WITH_AS(gb::parse_roster("folder,id,due\nada,1,next week\n"),
                       doctest::Contains("its due time"), std::runtime_error);
}
