// The build cache's key: everything that decides a build's outcome must be in it, or a cached
// object, runner or refusal outlives what made it (a stricter include policy, other flags, a
// build made under another sandbox layer would keep serving old results on a warm cache).
#include "builder/builder.hpp"
#include "builder_sources.hpp"
#include "grader_config.hpp"
#include "helpers.hpp"
#include "sandbox/isolation.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The inputs that start with `label`.
std::vector<std::string> starting_with(const std::vector<std::string>& inputs,
                                       const std::string& label) {
  std::vector<std::string> found;
  for (const auto& s : inputs)
    if (s.rfind(label, 0) == 0) found.push_back(s);
  return found;
}

bool has(const std::vector<std::string>& inputs, const std::string& s) {
  return std::find(inputs.begin(), inputs.end(), s) != inputs.end();
}

}  // namespace

TEST_CASE(
    "build key: source, kit headers, flags, compiler, builder version, sandbox layer, limits") {
  const std::vector<std::string> in = grader::object_key_inputs("int x = 1;\n");
  CHECK(has(in, "source\nint x = 1;\n"));
  // The kit's flags, as CMake configured them, each one.
  CHECK(has(in, std::string("flag ") + LINATTN_CXX_STANDARD));
  std::istringstream flags(LINATTN_SUBMISSION_FLAGS);
  int n_flags = 0;
  for (std::string f; flags >> f; ++n_flags) {
    CAPTURE(f);
    CHECK(has(in, "flag " + f));
  }
  CHECK(n_flags > 0);
  // The compiler.
  const auto compiler = starting_with(in, "compiler ");
  REQUIRE(compiler.size() == 1);
  CHECK(compiler[0].find(LINATTN_CXX) != std::string::npos);
  // The builder, by the digest of its sources as they are now (the next test case checks it).
  const auto builder = starting_with(in, "builder ");
  REQUIRE(builder.size() == 1);
  CHECK(builder[0] == std::string("builder sources sha256 ") + LINATTN_BUILDER_SOURCES_SHA256);
  // The sandbox layer the compiler runs under, and the compile's limits.
  CHECK(has(in, std::string("sandbox ") + grader::layer_name(grader::isolation().layer)));
  CHECK(starting_with(in, "limits ").size() == 1);
  // Every kit header a submission may include, with its text: an API header and the shared ones.
  const auto headers = starting_with(in, "header ");
  CHECK(headers.size() >= 6);  // five API headers and exercises/common/
  const std::string api = grader_test::slurp(std::filesystem::path(LINATTN_SOURCE_DIR) /
                                             "exercises" / "flops" / "flops.hpp");
  REQUIRE(!api.empty());
  CHECK(has(in, "header flops/flops.hpp\n" + api));
  CHECK(starting_with(in, "header common/").size() >= 1);
}

// Worked out here again from the files themselves: a digest that CMake failed to bring up to
// date, or one that left out a file of the builder, would let a changed builder keep serving
// what an older one cached.
TEST_CASE("build key: the builder's digest is that of every builder source as it is now") {
  const std::filesystem::path src = std::filesystem::path(LINATTN_SOURCE_DIR) / "grader" / "src";
  // grader/src's files by name: the key names each file without its layer's folder.
  std::map<std::string, std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    if (entry.is_regular_file()) files[entry.path().filename().string()] = entry.path();
  }
  std::istringstream names(LINATTN_BUILDER_SOURCE_FILES);
  std::vector<std::string> listed;
  std::string lines;  // CMake's input: "name sha256\n" per file, raw bytes hashed
  for (std::string name; names >> name;) {
    listed.push_back(name);
    const std::string text = grader_test::slurp(files[name]);
    grader::Sha256 file;
    file.add(text.data(), text.size());
    lines += name + " " + file.hex() + "\n";
  }
  grader::Sha256 all;
  all.add(lines.data(), lines.size());
  CHECK(all.hex() == LINATTN_BUILDER_SOURCES_SHA256);
  CHECK(std::is_sorted(listed.begin(), listed.end()));
  const auto is_listed = [&](const std::string& name) {
    return std::find(listed.begin(), listed.end(), name) != listed.end();
  };
  // What stages, polices and confines a build: the builder, both policies (and the object
  // policy's ELF reader and runner names), the sandbox layers.
  for (const char* name : {"builder.cpp", "build_stage.cpp", "build_include_policy.cpp",
                           "object_policy.cpp", "elf_symbols.cpp", "runner_symbols.cpp",
                           "isolation.cpp", "landlock.cpp", "seccomp_filter.cpp", "sandbox.cpp"}) {
    CAPTURE(name);
    CHECK(is_listed(name));
  }
  // Every header, and every source named like a part of the builder or the sandbox.
  for (const auto& [name, path] : files) {
    const bool part = path.extension() == ".hpp" || name.rfind("build", 0) == 0 ||
                      name.rfind("sandbox", 0) == 0 || name.rfind("object_policy", 0) == 0;
    CAPTURE(name);
    if (part) CHECK(is_listed(name));
  }
}

TEST_CASE(
    "build key: the cached object is named by the hash of those inputs, and other sources differ") {
  const auto dir = grader_test::fresh_submission("good");
  const std::string source = grader_test::slurp(dir / "flops" / "flops.cpp");
  const grader::BuildResult r = grader::build_runner("flops", dir);
  INFO(r.log);
  REQUIRE(r.ok());
  // The hash of every input, in order, worked out here.
  grader::Sha256 h;
  for (const auto& input : grader::object_key_inputs(source)) h.add(input);
  const std::string key = h.hex().substr(0, 32);
  CHECK(grader::object_cache_key(source) == key);
  CHECK(std::filesystem::is_regular_file(r.runner.parent_path() / ("obj-" + key + ".o")));
  CHECK(grader::object_cache_key(source + " ") != key);
  std::filesystem::remove_all(dir);
}
