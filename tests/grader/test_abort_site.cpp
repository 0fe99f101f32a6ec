// Where an abort stopped (engine/abort_site.hpp): the runner's frames line read and cleaned
// from the output, addr2line's answer read for the student's file, and, whole, a runner built
// from a file whose Eigen product does not fit, run under the sandbox, named at its line.
#include "builder/builder.hpp"
#include "engine/abort_site.hpp"
#include "helpers.hpp"
#include "sandbox/sandbox.hpp"

#include "common/wire.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <string>

using grader::abort_frames;
using grader::site_in_answer;
using grader::without_abort_frames;

TEST_CASE("abort site: the last frames line is the runner's, and none is shown") {
  // The student's code can print a line like the runner's before it aborts; the runner's own
  // comes after the assertion's message, last.
  const std::string output =
      "printed by the student\n"
      "[linattn-runner abort frames: dead beef]\n"
      "runner: Product.h:96: Assertion `lhs.cols() == rhs.rows()' failed.\n"
      "[linattn-runner abort frames: 13c7 zz 15c1 1232]\n";
  CHECK(abort_frames(output) == std::vector<std::string>{"0x13c7", "0x15c1", "0x1232"});
  CHECK(without_abort_frames(output) ==
        "printed by the student\n"
        "runner: Product.h:96: Assertion `lhs.cols() == rhs.rows()' failed.\n");
  CHECK(abort_frames("no frames here\n").empty());
  CHECK(abort_frames("[linattn-runner abort frames: 13c7").empty());  // cut before its end
  std::string many = "[linattn-runner abort frames:";
  for (int i = 0; i < 100; ++i) many += " 1" + std::to_string(i);
  CHECK(abort_frames(many + "]").size() == 64);
  CHECK(abort_frames("[linattn-runner abort frames: 12345678901234567]").empty());  // 17 digits
}

TEST_CASE("abort site: the first line of the student's file among addr2line's") {
  const std::string source = "#include \"causal.hpp\"\n\n  Matrix S = a * b;  \nreturn S;\n";
  const std::string answer =
      "/usr/include/eigen3/Eigen/src/Core/Product.h:96\n"
      "/tmp/stage-1/include/causal/causal.hpp:12\n"
      "/tmp/stage-1/causal/causal.cpp:3 (discriminator 2)\n"
      "/tmp/stage-1/causal/causal.cpp:4\n";
  const auto site = site_in_answer(answer, "causal", source);
  REQUIRE(site);
  CHECK(site->line == 3);
  CHECK(site->text == "Matrix S = a * b;");
  // Another exercise's file, an unknown line (??:0), a line past the file's end: none.
  CHECK_FALSE(site_in_answer(answer, "memory", source));
  CHECK_FALSE(site_in_answer("??:0\n/tmp/stage-1/causal/causal.cpp:?\n", "causal", source));
  CHECK_FALSE(site_in_answer("/tmp/stage-1/causal/causal.cpp:9\n", "causal", source));
}

TEST_CASE("abort site: a runner stopped by Eigen names the student's line") {
  // flops, with a sum whose shapes do not fit on line 10 of the file. Its assertion's call is
  // the last of the statement's code: the return address is already past it (in code GCC
  // files under another line), and only the address one byte back is in the statement.
  const std::string source =
      "#include \"flops.hpp\"\n"
      "#include <Eigen/Dense>\n"
      "namespace linattn {\n"
      "std::int64_t attention_flops(std::int64_t T, std::int64_t d_phi, std::int64_t d_v,\n"
      "                             Order) {\n"
      "  const Eigen::MatrixXd a = Eigen::MatrixXd::Ones(T, d_phi);\n"
      "  const Eigen::MatrixXd b = Eigen::MatrixXd::Ones(d_phi, d_v);\n"
      "  Eigen::MatrixXd c = a * b;  // (T, d_v)\n"
      "  Eigen::MatrixXd d = c;\n"
      "  d += a;  // (T, d_v) + (T, d_phi)\n"
      "  return static_cast<std::int64_t>(d.sum());\n"
      "}\n"
      "std::int64_t crossover_T(std::int64_t, std::int64_t) { return 0; }\n"
      "}  // namespace linattn\n";
  const grader::BuildResult built = grader::build_runner_from_source("flops", source, 0);
  INFO(built.log);
  REQUIRE(built.ok());
  const auto dir =
      std::filesystem::temp_directory_path() / ("grader-abort-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto bytes = wire::encode(
      nlohmann::json{{"function", "attention_flops"},
                     {"calls", {{{"T", 3}, {"d_phi", 2}, {"d_v", 5}, {"order", "left"}}}}});
  std::ofstream(dir / "request.cbor", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  grader::Limits limits;
  limits.wall_seconds = 60;
  const grader::RunOutcome ran = grader::run_sandboxed(
      {built.runner.string(), (dir / "request.cbor").string(), (dir / "reply.cbor").string()}, dir,
      limits);
  std::filesystem::remove_all(dir);
  INFO(ran.output);
  REQUIRE(ran.ending == grader::RunOutcome::Ending::Signaled);
  CHECK(ran.signal == SIGABRT);  // the handler let the abort end the process
  CHECK(ran.output.find("dst.rows() == src.rows()") != std::string::npos);
  REQUIRE_FALSE(abort_frames(ran.output).empty());
  const auto site = grader::abort_site(built.runner, ran.output, "flops", source, 0);
  REQUIRE(site);
  CHECK(site->line == 10);
  CHECK(site->text == "d += a;  // (T, d_v) + (T, d_phi)");

  // The same frames of the same runner are answered once: with the program gone, the answer
  // stays; other frames would need the program again.
  const auto copy = std::filesystem::temp_directory_path() /
                    ("grader-abort-runner-" + std::to_string(::getpid()));
  std::filesystem::copy_file(built.runner, copy);
  REQUIRE(grader::abort_site(copy, ran.output, "flops", source, 0));
  std::filesystem::remove(copy);
  const auto again = grader::abort_site(copy, ran.output, "flops", source, 0);
  REQUIRE(again);
  CHECK(again->line == 10);
  CHECK_FALSE(grader::abort_site(copy, "[linattn-runner abort frames: 10]", "flops", source, 0));
}
