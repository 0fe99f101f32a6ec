// The object policy on real objects, compiled here from small sources, read with libelf: what
// a crafted name or size did to readelf's columns does nothing here, and the allow-list keeps a
// submission to its exercise's functions and names of its own.
#include "builder/elf_symbols.hpp"
#include "builder/object_policy.hpp"
#include "builder/runner_symbols.hpp"
#include "grader_config.hpp"

#include <doctest/doctest.h>

#include <elf.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace grader;

namespace {

// `source` compiled with the submissions' compiler into an object in a fresh folder.
fs::path compiled(const std::string& source) {
  static int count = 0;
  const fs::path dir =
      fs::temp_directory_path() /
      ("linattn-object-policy-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
  fs::create_directories(dir);
  std::ofstream(dir / "s.cpp") << source;
  const std::string command = std::string(LINATTN_CXX) + " " + LINATTN_CXX_STANDARD +
                              " -O2 -isystem " + LINATTN_EIGEN_INCLUDE + " -c " +
                              (dir / "s.cpp").string() + " -o " + (dir / "s.o").string();
  REQUIRE(std::system(command.c_str()) == 0);
  return dir / "s.o";
}

const fs::path kMemoryHarness = fs::path(LINATTN_HARNESS_DIR) / "liblinattn_harness_memory.a";

std::string refusals(const std::string& source) {
  const auto runner = runner_symbols_of(kMemoryHarness);
  INFO(runner->error);
  REQUIRE(runner->error.empty());
  return object_policy_violations(read_elf(compiled(source)), *runner, "memory/memory.cpp");
}

}  // namespace

TEST_CASE("object policy: the harness's names are read from its archive and the libraries") {
  const auto runner = runner_symbols_of(kMemoryHarness);
  INFO(runner->error);
  REQUIRE(runner->error.empty());
  // The three functions of memory.hpp, and nothing else of namespace linattn.
  CHECK(runner->api.size() == 3);
  for (const auto& name : runner->api) CHECK(name.rfind("_ZN7linattn", 0) == 0);
  CHECK(runner->harness_defined.count("main") == 1);
  CHECK(runner->harness_used.count("memcmp") + runner->library.count("memcmp") >= 1);
  CHECK(runner->library.count("clock_gettime") == 1);
  CHECK(runner->library.count("_Znwm") == 1);
  // std::to_string's table, a static local of an inline function: bound STB_GNU_UNIQUE.
  CHECK(runner->harness_unique.count("_ZZNSt8__detail18__to_chars_10_implIjEEvPcjT_E8__digits") ==
        1);
  CHECK(runner->harness_unique.count("main") == 0);
  // The binding code around a student's call has internal linkage (api.hpp): none of it is a
  // global symbol that a submission's definition of the same name could take the place of.
  for (const auto& name : runner->harness_defined) {
    INFO(name);
    CHECK(name.find("12make_binding") == std::string::npos);
    CHECK(name.find("10call_bound") == std::string::npos);
    CHECK(name.find("5watch") == std::string::npos);
  }
}

TEST_CASE("object policy: a section of type PREINIT_ARRAY with a space in its name is refused") {
  // readelf printed this as name "x", type "y": the text rule saw nothing.
  const std::string refused = refusals(
      "static void early() {}\n"
      "__attribute__((section(\"\\\"x y\\\",\\\"aw\\\",@preinit_array #\"), used))\n"
      "static void (*entry)() = early;\n");
  CHECK(refused.find("section x y,") != std::string::npos);
  CHECK(refused.find("before the grader's harness is set up") != std::string::npos);
}

TEST_CASE("object policy: init sections are refused by type and by name, whatever the name") {
  const std::string refused = refusals(
      "static void early() {}\n"
      "__attribute__((section(\".myinit,\\\"aw\\\",@init_array #\"), used)) static void (*a)() = "
      "early;\n"
      "__attribute__((section(\".preinit_array\"), used)) static void (*b)() = early;\n"
      "int sink;\n"
      "__attribute__((constructor(101))) static void prioritized() { sink = 1; }\n"
      "__attribute__((constructor)) static void plain() { sink = 2; }\n"
      "struct S { S(); } s;  S::S() {}\n");
  CHECK(refused.find("section .myinit,") != std::string::npos);
  CHECK(refused.find("section .preinit_array,") != std::string::npos);
  CHECK(refused.find("section .init_array.00101") != std::string::npos);
  CHECK(refused.find("section .init_array,") == std::string::npos);  // plain constructors: fine
}

TEST_CASE("object policy: GCC's intermediate (LTO) code is refused, however it got in") {
  // The section an object compiled with -flto carries; here written by asm, as a file could
  // with the bytes of an object compiled elsewhere. The linker plugin would claim it.
  const std::string refused = refusals(
      "asm(\".section .gnu.lto_.symtab.0123456789abcdef,\\\"e\\\",@progbits\\n.byte "
      "0\\n.previous\");\n"
      "int sink;\n");
  CHECK(refused.find("section .gnu.lto_.symtab.0123456789abcdef, which holds GCC's intermediate") !=
        std::string::npos);
  CHECK(refusals("int sink;\n").find("intermediate") == std::string::npos);
}

TEST_CASE("object policy: a section only the linker makes is refused") {
  const std::string refused = refusals(
      "asm(\".section .interp,\\\"a\\\",@progbits\\n.string \\\"/x/ld.so\\\"\\n.previous\");\n"
      "int sink;\n");
  CHECK(refused.find("section .interp, which only the linker makes") != std::string::npos);
  CHECK(refusals("int sink;\n").find("only the linker makes") == std::string::npos);
}

TEST_CASE("object policy: C-linkage definitions are refused whatever their size") {
  // A size over 99,999 bytes shifted readelf's columns: memcmp went unseen.
  const std::string refused = refusals(
      "#include <cstddef>\n"
      "extern \"C\" int memcmp(const void*, const void*, std::size_t) {\n"
      "  asm volatile(\".skip 100000\");\n  return 0;\n}\n"
      "extern \"C\" int clock_gettime(int, void*) { return 0; }\n");
  CHECK(refused.find("C-linkage symbol memcmp") != std::string::npos);
  CHECK(refused.find("C-linkage symbol clock_gettime") != std::string::npos);
}

TEST_CASE("object policy: a definition in the grader's namespaces is refused") {
  const std::string refused = refusals(
      "#include <functional>\n"
      "namespace api {\n"
      "struct Schema;\n"
      "template <class R, class... A> std::function<int()> make_binding(const Schema&, R "
      "(*)(A...));\n"
      "template <> std::function<int()> make_binding<double, int>(const Schema&, double (*)(int)) "
      "{\n"
      "  return [] { return 1; };\n}\n}\n"
      "namespace wire { int helper() { return 2; } }\n"
      "namespace runner { int helper() { return 3; } }\n");
  // Each of the three namespaces by the namespace rule itself (one letter dropped from one of
  // its prefixes survived when only "some rule refused it" was checked: issue 36).
  for (const char* name : {"make_binding", "wire::helper()", "runner::helper()"}) {
    CAPTURE(name);
    const auto at = refused.find(name);
    REQUIRE(at != std::string::npos);
    const auto line_end = refused.find('\n', at);
    CHECK(refused.substr(at, line_end - at).find("in the grader's own namespace") !=
          std::string::npos);
  }
  // Names that only start like them are the student's own (a prefix one letter short, "6runne"
  // for runner, would take runnez for the grader's).
  const std::string own = refusals(
      "namespace apx { int a() { return 1; } }\n"
      "namespace wirx { int w() { return 2; } }\n"
      "namespace runnez { int r() { return 3; } }\n"
      "int use() { return apx::a() + wirx::w() + runnez::r(); }\n");
  CHECK(own.find("in the grader's own namespace") == std::string::npos);
}

TEST_CASE("object policy: an honest object passes, library inline copies and all") {
  // std::endl makes the compiler emit a weak copy of std::ctype<char>::do_widen, which
  // libstdc++ exports too; helpers of the student's own are unique names.
  const std::string refused = refusals(
      "#include <Eigen/Dense>\n#include <iostream>\n#include <memory>\n"
      "namespace linattn {\n"
      "double crosstalk_energy(const Eigen::MatrixXd& K);\n"
      "namespace { double twice(double x) { return 2 * x; } }\n"
      "double shared_helper(double x) { return x + 1; }\n"
      "double crosstalk_energy(const Eigen::MatrixXd& K) {\n"
      "  std::cout << K.rows() << std::endl;\n"
      "  auto p = std::make_shared<double>(twice(K.sum()));\n"
      "  return shared_helper(*p);\n}\n}\n");
  CHECK(refused.empty());
}

TEST_CASE("object policy: a library's inline copies are hidden before the link") {
  // Linked as it is, the program exports its weak copy of std::ctype<char>::do_widen, and
  // libstdc++'s own calls go to it; hidden, the library keeps its own copy.
  const fs::path object =
      compiled("#include <iostream>\nint main() { std::cout << 1 << std::endl; }\n");
  const auto runner = runner_symbols_of(kMemoryHarness);
  const std::set<std::string> copies = library_copies(read_elf(object), *runner);
  const std::string widen = "_ZNKSt5ctypeIcE8do_widenEc";
  REQUIRE(copies.count(widen) == 1);
  CHECK(copies.count("main") == 0);
  auto exported = [&](const fs::path& o) {
    const fs::path program = o.parent_path() / "program";
    const std::string command =
        std::string(LINATTN_CXX) + " " + o.string() + " -o " + program.string();
    REQUIRE(std::system(command.c_str()) == 0);
    REQUIRE(std::system(program.string().c_str()) == 0);
    const ElfContents dynamic = read_elf(program);  // a PIE: its .dynsym
    REQUIRE(dynamic.error.empty());
    for (const auto& s : dynamic.symbols)
      if (s.name == widen && s.defined) return true;
    return false;
  };
  CHECK(exported(object));
  CHECK(hide_symbols(object, copies).empty());
  const ElfContents hidden = read_elf(object);
  REQUIRE(hidden.error.empty());
  for (const auto& s : hidden.symbols) {
    if (!s.defined) continue;
    INFO(s.name);
    CHECK(s.visibility == (copies.count(s.name) ? STV_HIDDEN : STV_DEFAULT));
  }
  CHECK(!exported(object));
}

TEST_CASE("object policy: the allow-list, name by name") {
  RunnerSymbols runner;
  runner.api = {"_ZN7linattn4readEv"};
  runner.harness_defined = {"_ZN5Eigen6inlineEv"};
  runner.harness_used = {"_ZNSt6chrono3_V212steady_clock3nowEv"};
  runner.library = {"_ZNKSt5ctypeIcE8do_widenEc", "_ZNSt6chrono3_V212steady_clock3nowEv"};
  auto one = [&](const std::string& name, unsigned char bind) {
    ElfContents object;
    object.symbols.push_back({name, bind, STT_FUNC, true});
    return object_policy_violations(object, runner, "m.cpp");
  };
  CHECK(one("_ZN7linattn4readEv", STB_GLOBAL).empty());        // the exercise's function
  CHECK(one("_ZN7linattn6helperEv", STB_GLOBAL).empty());      // a name of its own
  CHECK(one("_ZN5Eigen6inlineEv", STB_WEAK).empty());          // the harness's copy is kept
  CHECK(one("_ZNKSt5ctypeIcE8do_widenEc", STB_WEAK).empty());  // a header's inline copy
  ElfContents data;  // a library's data, even weak, is not a function's inline copy
  data.symbols.push_back({"_ZNKSt5ctypeIcE8do_widenEc", STB_WEAK, STT_OBJECT, true});
  CHECK(object_policy_violations(data, runner, "m.cpp").find("the standard library's own") !=
        std::string::npos);
  CHECK(
      one("_ZN5Eigen6inlineEv", STB_GLOBAL).find("take the place of the grader's harness's own") !=
      std::string::npos);
  CHECK(one("_ZNKSt5ctypeIcE8do_widenEc", STB_GLOBAL).find("the standard library's own") !=
        std::string::npos);
  for (const unsigned char bind : {STB_GLOBAL, STB_WEAK})
    CHECK(one("_ZNSt6chrono3_V212steady_clock3nowEv", bind)
              .find("which the grader's harness calls") != std::string::npos);
  CHECK(one("_Znwm", STB_WEAK).find("operator new") != std::string::npos);
  // .symver: the harness's library call, under a version the linker takes for the plain name.
  CHECK(one("_ZNSt6chrono3_V212steady_clock3nowEv@@GLIBCXX_3.4.19", STB_GLOBAL)
            .find("versioned name") != std::string::npos);
  CHECK(one("_ZN7linattn6helperEv@V1", STB_GLOBAL).find("versioned name") != std::string::npos);
  CHECK(one("DW.ref.__gxx_personality_v0", STB_WEAK).empty());
  // Undefined names are the student's calls, not definitions...
  ElfContents calls;
  calls.symbols.push_back({"memcmp", STB_GLOBAL, STT_NOTYPE, false});
  calls.symbols.push_back({"_ZN5Eigen6inlineEv", STB_GLOBAL, STT_NOTYPE, false});
  CHECK(object_policy_violations(calls, runner, "m.cpp").empty());
  // ...but the grader's own code and data are not the student's to call or read:
  // runner::binding_table() hands out the table of bindings.
  calls.symbols.push_back({"_ZN6runner13binding_tableEv", STB_GLOBAL, STT_NOTYPE, false});
  CHECK(object_policy_violations(calls, runner, "m.cpp").find("which is the grader's own") !=
        std::string::npos);
  // A unique symbol binds like a global: it would take the place of the harness's weak copy,
  // so it passes only where the harness's own copy is unique too (two are a link error).
  CHECK(one("_ZN5Eigen6inlineEv", STB_GNU_UNIQUE)
            .find("take the place of the grader's harness's own") != std::string::npos);
  runner.harness_unique = {"_ZN5Eigen6inlineEv"};
  CHECK(one("_ZN5Eigen6inlineEv", STB_GNU_UNIQUE).empty());
  CHECK(one("_ZN7linattn6helperEv", STB_GNU_UNIQUE).empty());  // a name of its own
}

TEST_CASE("object policy: an object past the reader's bounds is the student's build error") {
  std::string source;
  for (int i = 0; i < 100; ++i)
    source += "static int f" + std::to_string(i) + "() { return " + std::to_string(i) +
              "; }\n"
              "int (*keep" +
              std::to_string(i) + ")() = f" + std::to_string(i) + ";\n";
  const fs::path object = compiled(source);
  ElfBounds bounds;
  bounds.max_symbols = 50;
  const ElfContents read = read_elf(object, bounds);
  CHECK(read.error.find("more than the grader reads (50)") != std::string::npos);
  RunnerSymbols runner;
  const std::string refused = object_policy_violations(read, runner, "m.cpp");
  CHECK(refused.find("m.cpp: error: the compiled object is not one the grader reads") == 0);
  ElfBounds few_sections;
  few_sections.max_sections = 5;  // checked from the ELF header, before libelf sets them up
  CHECK(read_elf(object, few_sections).error.find("sections, more than the grader reads (5)") !=
        std::string::npos);
  CHECK(read_elf(object).error.empty());  // within the usual bounds
  // Not an ELF file, and not a file at all: errors, not crashes.
  std::ofstream(object) << "not an object";
  CHECK(!read_elf(object).error.empty());
  CHECK(!read_elf(object.parent_path() / "missing.o").error.empty());
  fs::remove_all(object.parent_path());
}
