// The build cache's key: everything that decides a build's outcome must be in it, or a cached
// object, runner or refusal outlives what made it (a stricter include policy, other flags, a
// build made under another sandbox layer would keep serving old results on a warm cache).
#include "builder.hpp"
#include "grader_config.hpp"
#include "helpers.hpp"
#include "isolation.hpp"
#include "sha256.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The inputs that start with `label`.
std::vector<std::string> starting_with(const std::vector<std::string>& inputs, const std::string& label) {
  std::vector<std::string> found;
  for (const auto& s : inputs)
    if (s.rfind(label, 0) == 0) found.push_back(s);
  return found;
}

bool has(const std::vector<std::string>& inputs, const std::string& s) {
  return std::find(inputs.begin(), inputs.end(), s) != inputs.end();
}

}  // namespace

TEST_CASE("build key: source, kit headers, flags, compiler, builder version, sandbox layer, limits") {
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
  // The builder's version, which names the include and object policies it applies.
  const auto builder = starting_with(in, "builder ");
  REQUIRE(builder.size() == 1);
  CHECK(builder[0].find("include policy v") != std::string::npos);
  CHECK(builder[0].find("object policy v") != std::string::npos);
  // The sandbox layer the compiler runs under, and the compile's limits.
  CHECK(has(in, std::string("sandbox ") + grader::layer_name(grader::isolation().layer)));
  CHECK(starting_with(in, "limits ").size() == 1);
  // Every kit header a submission may include, with its text: an API header and the shared ones.
  const auto headers = starting_with(in, "header ");
  CHECK(headers.size() >= 6);  // five API headers and exercises/common/
  const std::string api = grader_test::slurp(std::filesystem::path(LINATTN_SOURCE_DIR) / "exercises" / "flops" / "flops.hpp");
  REQUIRE(!api.empty());
  CHECK(has(in, "header flops/flops.hpp\n" + api));
  CHECK(starting_with(in, "header common/").size() >= 1);
}

TEST_CASE("build key: the cached object is named by the hash of those inputs, and other sources differ") {
  const auto dir = grader_test::fresh_submission("good");
  const std::string source = grader_test::slurp(dir / "flops" / "flops.cpp");
  const grader::BuildResult r = grader::build_runner("flops", dir);
  INFO(r.log);
  REQUIRE(r.ok);
  // The hash of every input, in order, worked out here.
  grader::Sha256 h;
  for (const auto& input : grader::object_key_inputs(source)) h.add(input);
  const std::string key = h.hex().substr(0, 32);
  CHECK(grader::object_cache_key(source) == key);
  CHECK(std::filesystem::is_regular_file(r.runner.parent_path() / ("obj-" + key + ".o")));
  CHECK(grader::object_cache_key(source + " ") != key);
  std::filesystem::remove_all(dir);
}
