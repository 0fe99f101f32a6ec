// The exercise's precompiled header (build_pch.hpp): GCC really uses it, and a compile with it
// makes the same object, byte for byte but for its line tables, as a compile without it.
#include "builder/build_pch.hpp"
#include "builder/build_stage.hpp"
#include "builder/build_toolchain.hpp"
#include "helpers.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace grader;
using namespace grader::build;

namespace {

struct Compiled {
  RunOutcome run;
  std::string object;  // the bytes of out.o
};

// The fixture's flops.cpp compiled in a stage of its own: by the builder's own command
// (compile_command, with `extra` flags), or by the same command without the precompiled header.
// `first_line` goes before the file's text.
Compiled compile_flops(bool as_the_builder, const std::vector<std::string>& extra,
                       const std::string& first_line = "") {
  const Stage stage(0);
  REQUIRE(stage.write("flops/flops.cpp", first_line + "\n" +
                                             grader_test::slurp(grader_test::fixtures / "good" /
                                                                "flops" / "flops.cpp")));
  REQUIRE(put_kit_headers(stage));
  std::vector<std::string> argv;
  if (as_the_builder) {
    argv = compile_command("flops", stage, "flops/flops.cpp", stage.in("out.o"), extra);
  } else {
    argv = {compiler()};
    for (const auto& flag : compile_flags()) argv.push_back(flag);
    argv.insert(argv.end(), {"-I" + stage.in("include/flops"), "-I" + stage.in("include/common"),
                             "-c", "flops/flops.cpp", "-o", stage.in("out.o")});
  }
  Compiled c{stage.run(argv, kToolSeconds), ""};
  // Compared without the line tables (-g1), which name the file each header was read from:
  // the precompiled copy or the kit's. The code and data are what must not change.
  const std::string strip = "objcopy --strip-debug '" + stage.host("out.o").string() + "'";
  if (c.run.exit_code == 0) REQUIRE(std::system(strip.c_str()) == 0);
  c.object = grader_test::slurp(stage.host("out.o"));
  return c;
}

}  // namespace

TEST_CASE("precompiled header: made once per kit, used by GCC, and the object does not change") {
  const fs::path header = precompiled_header("flops", 0);
  if (isolation().layer != Layer::Namespaces) {
    // Elsewhere the stages see the headers at paths of their own: none is made.
    CHECK(header.empty());
    return;
  }
  REQUIRE_FALSE(header.empty());
  CHECK(fs::file_size(header) > (1u << 20));  // Eigen, parsed: tens of MB
  CHECK(header.filename().string().rfind("flops-", 0) == 0);
  // Asked again, the same file, not made again.
  struct stat first {
  }, again{};
  REQUIRE(::stat(header.c_str(), &first) == 0);
  CHECK(precompiled_header("flops", 1) == header);
  REQUIRE(::stat(header.c_str(), &again) == 0);
  CHECK(again.st_ino == first.st_ino);
  CHECK(again.st_mtim.tv_nsec == first.st_mtim.tv_nsec);

  // -H lists the headers a compile reads; "!" marks a precompiled one it used. The builder's
  // command uses it...
  const Compiled with = compile_flops(true, {"-H"});
  INFO(with.run.output);
  REQUIRE(with.run.exit_code == 0);
  CHECK(with.run.output.find("! /work/pch/flops.hpp.gch") != std::string::npos);
  CHECK(with.run.output.find("Eigen/Dense") == std::string::npos);  // not read again

  // ...and makes the object a compile without it makes.
  const Compiled without = compile_flops(false, {});
  REQUIRE(without.run.exit_code == 0);
  REQUIRE_FALSE(without.object.empty());
  CHECK(with.object == without.object);
}

TEST_CASE("precompiled header: a macro before the include that changes the header is respected") {
  if (precompiled_header("flops", 0).empty()) return;  // none in this layer (above)
  // Eigen reads this macro: GCC must read the header itself, and the object is the one a
  // compile without a precompiled header makes.
  const std::string macro = "#define EIGEN_DONT_VECTORIZE 1";
  const Compiled with = compile_flops(true, {"-H"}, macro);
  INFO(with.run.output);
  REQUIRE(with.run.exit_code == 0);
  CHECK(with.run.output.find("! /work/pch/") == std::string::npos);
  CHECK(with.run.output.find("Eigen/Dense") != std::string::npos);
  const Compiled without = compile_flops(false, {}, macro);
  REQUIRE(without.run.exit_code == 0);
  CHECK(with.object == without.object);
}
