// build_runner on fixture submissions: builds, caches, reports errors on the student's own
// path, notices a missing file, and refuses includes from outside the kit.
#include "builder/build_cache.hpp"
#include "builder/build_stage.hpp"
#include "builder/builder.hpp"
#include "grader_config.hpp"
#include "helpers.hpp"
#include "sandbox/isolation.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <thread>

using grader::build_runner;
using grader::BuildResult;
using grader::build::store_digest;
using grader::build::whole_file_digest;
using grader_test::fresh_submission;

namespace {

// Appends one line to the submission's flops/flops.cpp, then builds that exercise.
BuildResult build_flops_with(const std::filesystem::path& dir, const std::string& line) {
  std::ofstream(dir / "flops" / "flops.cpp", std::ios::app) << line << "\n";
  return build_runner("flops", dir);
}

}  // namespace

TEST_CASE("builder: a good file builds, and the second build is served from the cache") {
  const auto dir = fresh_submission("good");
  BuildResult cold = build_runner("flops", dir);
  INFO(cold.log);
  REQUIRE(cold.ok());
  CHECK_FALSE(cold.cached);
  CHECK(cold.status != BuildResult::Status::Missing);
  CHECK(std::filesystem::is_regular_file(cold.runner));
  CHECK(cold.runner.string().find("submissions-cache") != std::string::npos);

  // No timing: "served from the cache" is an event. The warm build says cached, hands back the
  // same runner and links nothing: the runner is the same file (inode) with the same bytes (a
  // relink would write a new file). Its time is refreshed on purpose (least recently used).
  struct stat before {};
  REQUIRE(::stat(cold.runner.c_str(), &before) == 0);
  const std::string cold_bytes = grader_test::slurp(cold.runner);
  BuildResult warm = build_runner("flops", dir);
  CHECK(warm.ok());
  CHECK(warm.cached);
  CHECK(warm.runner == cold.runner);
  CHECK(warm.log == cold.log);
  struct stat after {};
  REQUIRE(::stat(warm.runner.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(grader_test::slurp(warm.runner) == cold_bytes);

  // A cached runner whose bytes changed since it was linked (by anyone) is never run: the
  // next build notices, links it again, and hands back the original bytes.
  std::ofstream(cold.runner, std::ios::app | std::ios::binary) << "tampered";
  BuildResult relinked = build_runner("flops", dir);
  CHECK(relinked.ok());
  CHECK_FALSE(relinked.cached);
  CHECK(grader_test::slurp(relinked.runner) == cold_bytes);
  // ...and the cache is the judge's alone.
  struct stat cache {};
  REQUIRE(::stat(cold.runner.parent_path().parent_path().c_str(), &cache) == 0);
  CHECK((cache.st_mode & 0077) == 0);

  // A changed file is a different key: compiled again, into a different runner.
  std::ofstream(dir / "flops" / "flops.cpp", std::ios::app) << "// edited\n";
  BuildResult edited = build_runner("flops", dir);
  CHECK(edited.ok());
  CHECK_FALSE(edited.cached);
  CHECK(edited.runner != cold.runner);
  std::filesystem::remove_all(dir);
}

// A program's digest guards the cache: a file that cannot be read has none (not the digest of
// nothing, which an empty record would match), and storing a digest that cannot be taken fails
// and records nothing. (Root reads any file, so a missing one stands for an unreadable one.)
TEST_CASE("builder: a program that cannot be read has no digest, and none is stored for it") {
  const auto dir = fresh_submission("good");
  const std::filesystem::path missing = dir / "no-such-program";
  CHECK_FALSE(whole_file_digest(missing).has_value());
  std::error_code ec;
  store_digest(missing, dir / "no-such-program.sha256", ec);
  CHECK(ec == std::errc::no_such_file_or_directory);  // the system's reason, not a made-up one
  CHECK_FALSE(std::filesystem::exists(dir / "no-such-program.sha256"));
  // A record that cannot be written (its folder is missing): the reason is the write's.
  std::ofstream(dir / "program") << "bytes";
  ec.clear();
  store_digest(dir / "program", dir / "no-such-folder" / "program.sha256", ec);
  CHECK(ec == std::errc::no_such_file_or_directory);
  ec.clear();
  store_digest(dir / "program", dir / "program.sha256", ec);
  CHECK_FALSE(ec);
  CHECK(grader_test::slurp(dir / "program.sha256") == whole_file_digest(dir / "program").value());
  CHECK(grader_test::slurp(dir / "program.sha256").size() == 64);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: two exercises built from two threads at once") {
  const auto dir = fresh_submission("good");
  BuildResult flops, causal;
  std::thread a([&] { flops = build_runner("flops", dir); });
  std::thread b([&] { causal = build_runner("causal", dir); });
  a.join();
  b.join();
  INFO(flops.log, causal.log);
  CHECK(flops.ok());
  CHECK(causal.ok());
  CHECK(flops.runner != causal.runner);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: a syntax error fails with file:line on the student's path") {
  const auto dir = fresh_submission("syntax_error");
  BuildResult r = build_runner("flops", dir);
  CHECK_FALSE(r.ok());
  CHECK(r.status == BuildResult::Status::Failed);  // the submission's doing, not the grader's
  const std::string first = grader::first_errors(r.log);
  INFO(r.log);
  CHECK(first.rfind("flops/flops.cpp:6:", 0) == 0);  // the line without its semicolon
  CHECK(first.find("error:") != std::string::npos);
  CHECK(r.log.find("submissions-cache") == std::string::npos);  // no staging path leaks out
  CHECK(r.log.find("-Werror") == std::string::npos);
  // gcc quotes the offending line under the message: it can read the file by the path it names.
  CHECK(r.log.find("    6 |   return T * d_phi * d_v  // line 6: the semicolon is missing") !=
        std::string::npos);
  CHECK(r.log.find("......") == std::string::npos);

  BuildResult again = build_runner("flops", dir);  // a failure is remembered too
  CHECK_FALSE(again.ok());
  CHECK(again.cached);
  CHECK(again.log == r.log);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: a compile error quotes the student's own line, on their path") {
  const auto dir = fresh_submission("good");
  std::ofstream(dir / "flops" / "flops.cpp", std::ios::trunc)
      << "#include \"flops.hpp\"\nthis is not C++\n";
  BuildResult r = build_runner("flops", dir);
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(grader::first_errors(r.log).rfind("flops/flops.cpp:2:", 0) == 0);
  CHECK(r.log.find("    2 | this is not C++") != std::string::npos);
  // ...and the report's message (the first errors) quotes it too.
  CHECK(grader::first_errors(r.log).find("\n    2 | this is not C++\n") != std::string::npos);
  CHECK(r.log.find("#line") == std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: a missing file is reported as missing") {
  const auto dir = fresh_submission("good");
  BuildResult r = build_runner("memory", dir);  // good/ has no memory/memory.cpp
  CHECK(r.status == BuildResult::Status::Missing);
  CHECK_FALSE(r.ok());
  CHECK(r.log.find("memory/memory.cpp") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: a fault of the grader is a fault, with the reason, and no runner") {
  // No harness library for an exercise the kit does not have: the grader's set-up, never the
  // submission's doing.
  const BuildResult r = grader::build_runner_from_source("no_such_exercise", "int x;\n");
  CHECK(r.status == BuildResult::Status::Fault);
  CHECK_FALSE(r.ok());
  CHECK(r.runner.empty());
  CHECK(r.log.rfind("grader fault: no harness library ", 0) == 0);
  CHECK(r.log.back() == '\n');
}

TEST_CASE("builder: a header next to the submission is not picked up") {
  const auto dir = fresh_submission("local_header");
  BuildResult r = build_runner("flops", dir);
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(grader::first_errors(r.log).find("flops/flops.cpp:2:") != std::string::npos);
  CHECK(r.log.find("helper.hpp") != std::string::npos);
  std::filesystem::remove_all(dir);
}

// The compiler runs in the sandbox, which holds the staged source, copies of the kit's API
// headers and /usr: the reference is simply not there to include.
TEST_CASE("builder: including reference code by a relative path is rejected") {
  const auto dir = fresh_submission("smuggle_relative");
  BuildResult r = build_runner("flops", dir);
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(r.runner.empty());
  const std::string first = grader::first_errors(r.log);
  CHECK(first.rfind("flops/flops.cpp:3:", 0) == 0);
  CHECK(first.find("linref/types.hpp: No such file or directory") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: including a reference header by an absolute path is rejected") {
  const auto dir = fresh_submission("good");
  const std::string oracle =
      std::string(LINATTN_SOURCE_DIR) + "/reference/include/linref/types.hpp";
  BuildResult r = build_flops_with(dir, "#include \"" + oracle + "\"");
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(r.runner.empty());
  const std::string first = grader::first_errors(r.log);
  CHECK(first.find("flops/flops.cpp:") == 0);
  CHECK(first.find(oracle + ": No such file or directory") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: including a reference source by an absolute path is rejected") {
  // The oracle's own implementation, compiled into the submission, would let it call the
  // reference; the include must not get through whatever it contains.
  const auto dir = fresh_submission("good");
  const std::string oracle =
      std::string(LINATTN_SOURCE_DIR) + "/reference/src/simple_feature_maps.cpp";
  BuildResult r = build_flops_with(dir, "#include \"" + oracle + "\"");
  INFO(r.log);
  CHECK_FALSE(r.ok());
  // Either refused by the include check or unable to compile it at all; never a runner.
  CHECK(r.runner.empty());
  CHECK(r.log.find("simple_feature_maps.cpp") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: only the kit's API headers are allowed from exercises/") {
  const auto dir = fresh_submission("good");
  // Another exercise's API header: fine.
  BuildResult fine = build_flops_with(dir, "#include \"../memory/memory.hpp\"");
  INFO(fine.log);
  CHECK(fine.ok());
  // A file of the kit, but not a header of it.
  BuildResult refused = build_flops_with(dir, "#include \"../causal/causal.cpp\"");
  INFO(refused.log);
  CHECK_FALSE(refused.ok());
  CHECK(grader::first_errors(refused.log).find("../causal/causal.cpp: No such file or directory") !=
        std::string::npos);
  // A file of the system the sandbox does show, but not a header: refused by the include
  // policy, named, and none of its text quoted.
  const auto other = fresh_submission("good");
  BuildResult data = build_flops_with(other, "#include \"/usr/share/common-licenses/GPL-3\"");
  std::filesystem::remove_all(other);
  INFO(data.log);
  CHECK_FALSE(data.ok());
  CHECK(data.log.find("/usr/share/common-licenses/GPL-3") != std::string::npos);
  CHECK(data.log.find("GNU GENERAL PUBLIC LICENSE") == std::string::npos);
  std::filesystem::remove_all(dir);
}

// The sandbox hides the reference and the kit, so the cases above fail whatever the include
// policy says. /dev/null is in every layer's sandbox and compiles (it is empty): only the policy
// stands between it and a runner, so here the policy alone decides.
TEST_CASE("builder: the include policy alone refuses a file the sandbox shows and that compiles") {
  const auto dir = fresh_submission("good");
  BuildResult r = build_flops_with(dir, "#include \"/dev/null\"");
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(r.runner.empty());
  CHECK(grader::first_errors(r.log).find("flops/flops.cpp:") == 0);
  CHECK(r.log.find("error: includes /dev/null, which is not one of the kit's headers") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: a function left undefined is a link error that names it") {
  const auto dir = fresh_submission("undefined");
  BuildResult r = build_runner("flops", dir);
  INFO(r.log);
  CHECK_FALSE(r.ok());
  CHECK(grader::first_errors(r.log).find("crossover_T") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("builder: first_errors picks the located error lines in order, each with its excerpt") {
  const std::string log =
      "causal/causal.cpp: In function 'f':\n"
      "causal/causal.cpp:3:5: warning: unused variable 'x'\n"
      "    3 |   int x;\n"
      "      |       ^\n"
      "causal/causal.cpp:4:1: error: expected ';' before '}' token\n"
      "    4 | }\n"
      "      | ^\n"
      "causal/causal.cpp:9: error: 'y' was not declared\n"
      "/usr/include/x.h:1:2: fatal error: z.h: No such file or directory\n";
  CHECK(grader::first_errors(log, 2) ==
        "causal/causal.cpp:4:1: error: expected ';' before '}' token\n"
        "    4 | }\n"
        "      | ^\n"
        "causal/causal.cpp:9: error: 'y' was not declared\n");
  CHECK(grader::first_errors(log).find("fatal error: z.h") != std::string::npos);
  CHECK(grader::first_errors("all fine\n").empty());
  // A call in the student's file (compiled with line tables) to a function nothing defines:
  // located there, in the API's words.
  CHECK(grader::first_errors(
            "memory/memory.cpp:12: error: undefined reference to 'linattn::helper(Eigen::Matrix"
            "<double, -1, -1, 0, -1, -1> const&)'\n") ==
        "memory/memory.cpp:12: error: no definition of 'helper(Matrix const&)', which this line "
        "calls\n");
  // So does a build stopped at its time limit, whose compiler printed nothing about the file.
  CHECK(grader::first_errors("x.h:1:1: warning: w\nnote: the compiler was stopped after the "
                             "build's time limit of 120 s\n") ==
        "note: the compiler was stopped after the build's time limit of 120 s\n");
  // A fault of the grader says why, with no compiler error before it.
  CHECK(grader::first_errors("grader fault: no harness library /k/h.a (build the kit first)\n") ==
        "grader fault: no harness library /k/h.a (build the kit first)\n");
}

TEST_CASE("builder: a tool that never started is the sandbox's fault, whatever was printed") {
  // A compiler's message can begin as bubblewrap's own complaints do (a source that says
  // #line 1 "bwrap: "): that is the tool's output, an ordinary ending.
  const grader::build::Stage printing(0);
  const grader::RunOutcome said =
      printing.run({"/bin/sh", "-c",
                    "echo 'bwrap: Creating new namespace failed: Operation not permitted'; "
                    "exit 1"},
                   60);
  CHECK(said.ending == grader::RunOutcome::Ending::Exited);
  CHECK(said.exit_code == 1);
  // Under bubblewrap, a folder it cannot bind stops it before the tool starts: a launch
  // failure, with bubblewrap's words (the other layers bind nothing).
  if (grader::isolation().layer != grader::Layer::Namespaces) return;
  grader::build::Stage broken(0);
  broken.jail.read_only.emplace_back("/nonexistent/linattn-missing", "/missing");
  const grader::RunOutcome r = broken.run({"/bin/true"}, 60);
  CHECK(r.ending == grader::RunOutcome::Ending::LaunchFailed);
  CHECK(r.launch_error.find("bwrap: ") != std::string::npos);
  // A compiler that is not there is the machine's fault as well, not a build error.
  const grader::build::Stage missing(0);
  CHECK(missing.run({"/nonexistent/linattn-cc", "-c", "x.cpp"}, 60).ending ==
        grader::RunOutcome::Ending::LaunchFailed);
}
