// Copies of programs started while other threads fork (grader/src/sandbox/program_copy.hpp).
// Without the lock between copies and forks, a child forked by one thread during another
// thread's copy holds the copy open for writing, and starting the copy fails with "Text file
// busy" (ETXTBSY): seen in CI as a check lost to "could not start the runner". Here three
// threads copy a program (this test program, a megabyte or so, like a runner) and start the
// copy, over and over, while two more keep starting short sleeps (a sandbox's supervisor
// lives as long as its program, holding whatever it inherited); every start must succeed.
#include "sandbox/program_copy.hpp"
#include "sandbox/sandbox.hpp"

#include <doctest/doctest.h>

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

TEST_CASE("program copy: copies started while other threads fork never find the file busy") {
  std::string pattern = (fs::temp_directory_path() / "linattn-program-copy-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  const fs::path folder = pattern;
  grader::Limits limits;
  limits.wall_seconds = 30;

  const fs::path program = fs::read_symlink("/proc/self/exe");
  constexpr int kCopiers = 3, kForkers = 2, kRounds = 150;
  std::atomic<int> busy{0}, other_failures{0}, copy_failures{0};
  std::atomic<bool> copying{true};
  std::string first_problem;
  std::atomic_flag noted = ATOMIC_FLAG_INIT;

  std::vector<std::thread> forkers;
  for (int f = 0; f < kForkers; ++f)
    forkers.emplace_back([&] {
      while (copying) grader::run_sandboxed({"/bin/sleep", "0.05"}, "/", limits);
    });
  std::vector<std::thread> copiers;
  for (int c = 0; c < kCopiers; ++c)
    copiers.emplace_back([&, c] {
      for (int round = 0; round < kRounds; ++round) {
        const fs::path copy = folder / ("copy-" + std::to_string(c) + "-" + std::to_string(round));
        std::error_code ec;
        grader::copy_program(program, copy, 0755, ec);
        if (ec) {
          ++copy_failures;
          continue;
        }
        const grader::RunOutcome r =
            grader::run_sandboxed({copy.string(), "--version"}, "/", limits);
        if (r.ending == grader::RunOutcome::Ending::Exited && r.exit_code == 0) continue;
        (r.launch_error.find("busy") != std::string::npos ? busy : other_failures)++;
        if (!noted.test_and_set()) first_problem = r.launch_error;
      }
    });
  for (auto& t : copiers) t.join();
  copying = false;
  for (auto& t : forkers) t.join();
  fs::remove_all(folder);

  INFO("first failed start: " << first_problem);
  CHECK(copy_failures == 0);
  CHECK(busy == 0);
  CHECK(other_failures == 0);
}
