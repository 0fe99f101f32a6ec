// Stubs and solutions cannot drift apart: each exercises/<name>/<name>.cpp must equal, byte for
// byte, the stub derived from solutions/<name>/<name>.cpp by the rules in stub_source.hpp
// (explained in tests/exercises/README.md). On a mismatch the derived text is written to the
// build folder and the message says how to refresh the stub.
#include "stub_source.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

// "line N: want `...`, have `...`" for the first line where a and b differ.
std::string first_difference(const std::string& want, const std::string& have) {
  std::size_t i = 0;
  int line = 1;
  std::size_t line_start = 0;
  while (i < want.size() && i < have.size() && want[i] == have[i]) {
    if (want[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    ++i;
  }
  auto line_of = [line_start](const std::string& s) {
    if (line_start >= s.size()) return std::string("<end of file>");
    return s.substr(line_start, s.find('\n', line_start) - line_start);
  };
  return "line " + std::to_string(line) + ":\n  derived: " + line_of(want) +
         "\n  on disk: " + line_of(have);
}

}  // namespace

TEST_CASE("single-source: every stub is derived from its solution") {
  for (const auto& name : stubgen::exercises(LINATTN_SOURCE_DIR)) {
    CAPTURE(name);
    const std::string solution =
        stubgen::read_file(stubgen::solution_path(LINATTN_SOURCE_DIR, name));
    const std::string derived =
        stubgen::derive_stub(solution, "solutions/" + name + "/" + name + ".cpp");
    const std::string on_disk = stubgen::read_file(stubgen::stub_path(LINATTN_SOURCE_DIR, name));
    if (derived != on_disk) {
      const std::string copy = std::string(LINATTN_DERIVED_DIR) + "/" + name + ".cpp";
      stubgen::write_file(copy, derived);
      FAIL_CHECK("exercises/" << name << "/" << name << ".cpp differs from the stub derived from "
                              << "its solution at " << first_difference(derived, on_disk)
                              << "\nThe derived stub is in " << copy
                              << "; run the target exercises_stubgen to rewrite every stub.");
    }
  }
}

TEST_CASE("single-source: every solution has regions, and no stub keeps a marker") {
  for (const auto& name : stubgen::exercises(LINATTN_SOURCE_DIR)) {
    CAPTURE(name);
    const std::string solution =
        stubgen::read_file(stubgen::solution_path(LINATTN_SOURCE_DIR, name));
    CHECK(solution.find(stubgen::kBegin) != std::string::npos);
    const std::string stub = stubgen::read_file(stubgen::stub_path(LINATTN_SOURCE_DIR, name));
    CHECK(stub.find("SOLUTION") == std::string::npos);
    CHECK(stub.find(stubgen::kStub) == std::string::npos);
    CHECK(stub != solution);
  }
}

TEST_CASE("single-source: the derivation rules on a small example") {
  const std::string solution =
      "#include \"x.hpp\"\n"
      "// BEGIN SOLUTION\n"
      "int f(int a) { return a; }\n"
      "// END SOLUTION\n"
      "// STUB: int f(int /*a*/) {\n"
      "// STUB:   throw 1;\n"
      "// STUB: }\n"
      "// STUB:\n"
      "int g() {\n"
      "    // BEGIN SOLUTION\n"
      "    return 2;\n"
      "    // END SOLUTION\n"
      "    // STUB: return 0;  // starter\n"
      "}\n";
  const std::string want =
      "#include \"x.hpp\"\n"
      "int f(int /*a*/) {\n"
      "  throw 1;\n"
      "}\n"
      "\n"
      "int g() {\n"
      "    return 0;  // starter\n"
      "}\n";
  CHECK(stubgen::derive_stub(solution) == want);
  // Without markers the text is copied unchanged, last line without a newline included.
  CHECK(stubgen::derive_stub("a\n\nb") == "a\n\nb");
}

// A solution saved with CRLF line ends (an editor on Windows): every marker line ends in "\r",
// and is still a marker. The lines copied keep their "\r"; a STUB line's text is written with
// "\n", as the marker's own line end is not part of the text.
TEST_CASE("single-source: markers followed by a carriage return (CRLF) are still markers") {
  const std::string solution =
      "int g() {\r\n"
      "    // BEGIN SOLUTION\r\n"
      "    return 2;\r\n"
      "    // END SOLUTION\r\n"
      "    // STUB: return 0;\r\n"
      "    // STUB:\r\n"
      "}\r\n";
  CHECK(stubgen::derive_stub(solution) == "int g() {\r\n    return 0;\n\n}\r\n");
}

TEST_CASE("single-source: malformed markers are errors") {
  CHECK_THROWS_AS(stubgen::derive_stub("// BEGIN SOLUTION\nx\n"), stubgen::Error);
  CHECK_THROWS_AS(stubgen::derive_stub("// END SOLUTION\n"), stubgen::Error);
  CHECK_THROWS_AS(stubgen::derive_stub("// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION\n"),
                  stubgen::Error);
  CHECK_THROWS_AS(stubgen::derive_stub("// BEGIN SOLUTION\n// STUB: x\n// END SOLUTION\n"),
                  stubgen::Error);
  CHECK_THROWS_AS(stubgen::derive_stub("int x;  // BEGIN SOLUTION\n"), stubgen::Error);
  // The messages name the file and the lines, the region's opening line included.
  CHECK_THROWS_WITH(stubgen::derive_stub("a\n// BEGIN SOLUTION\nx\n", "f.cpp"),
                    "f.cpp: the region opened at line 2 is never closed");
  CHECK_THROWS_WITH(stubgen::derive_stub("a\nb\n// BEGIN SOLUTION\n// BEGIN SOLUTION\n", "f.cpp"),
                    "f.cpp:4: BEGIN SOLUTION inside the region opened at line 3");
}
