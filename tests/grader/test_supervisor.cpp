// The sandbox's supervisor S as a program of its own (supervisor_args.hpp): the judge starts it
// instead of forking itself, and its plan survives the trip through its command line whole. A
// field lost on the way would run a program without a limit, so every field is checked.
#include "sandbox/sandbox.hpp"
#include "sandbox/supervisor_args.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using grader::Limits;
using grader::RunOutcome;
using grader::sandbox::Plan;

TEST_CASE("sandbox: the supervisor is a program of its own, not a copy of the judge") {
  Limits limits;
  limits.wall_seconds = 10;
  // The program's parent is S: a fork of this test program would show this program's file.
  const RunOutcome r =
      grader::run_sandboxed({"/bin/sh", "-c", "readlink /proc/$PPID/exe"}, "/", limits);
  REQUIRE(r.ending == RunOutcome::Ending::Exited);
  CHECK(r.exit_code == 0);
  const std::string exe = r.output.substr(0, r.output.find('\n'));
  const std::string name = "/linattn-sandbox-supervisor";
  CHECK(exe.size() > name.size());
  CHECK(exe.substr(exe.size() - std::min(exe.size(), name.size())) == name);
}

// The wall limit is kept as given, fractions of a second included: a program that ends at once
// under a limit below one second exits on its own; it is not taken for one out of time. (The
// program needs a few milliseconds; 0.95 s leaves it far more than any load could take.)
TEST_CASE("sandbox: a wall limit under a second still lets a quick program end by itself") {
  Limits limits;
  limits.wall_seconds = 0.95;
  const RunOutcome r = grader::run_sandboxed({"/bin/true"}, "/", limits);
  CHECK(r.ending == RunOutcome::Ending::Exited);
  CHECK(r.exit_code == 0);
}

TEST_CASE("sandbox: the supervisor's plan reads back from its command line as it was written") {
  Plan plan;
  plan.args = {"/usr/bin/bwrap", "--", "", "two words", "--env"};
  plan.env = {"A=b c", "--", "LC_ALL=C"};
  plan.cwd = "/tmp/a folder";
  plan.judge_pid = 4242;
  plan.limits.wall_seconds = 0.1;  // not a whole number of any power of two: read back bit for bit
  plan.limits.cpu_seconds = 1.0 / 3.0;
  plan.limits.address_space_bytes = (1ull << 40) + 7;
  plan.limits.file_size_bytes = 12345;
  plan.limits.run_as_uid = 61003;
  plan.limits.chroot_dir = "/tmp/jail x";
  plan.limits.seccomp_program = {0, 1, 0x7f, 0x80, 0xff, 0x10};
  plan.limits.landlock_ruleset = 17;
  plan.pass = {{23, 3}, {31, 9}};

  Plan back;
  std::string error;
  REQUIRE(grader::sandbox::read_plan_arguments(grader::sandbox::plan_arguments(plan), back, error));
  CHECK(error.empty());
  CHECK(back.args == plan.args);
  REQUIRE(back.argv.size() == plan.args.size() + 1);
  for (std::size_t i = 0; i < plan.args.size(); ++i)
    CHECK(std::string(back.argv[i]) == plan.args[i]);
  CHECK(back.argv.back() == nullptr);
  CHECK(back.env == plan.env);
  REQUIRE(back.envp.size() == plan.env.size() + 1);
  CHECK(std::string(back.envp[0]) == "A=b c");
  CHECK(back.envp.back() == nullptr);
  CHECK(back.cwd == plan.cwd);
  CHECK(back.judge_pid == 4242);
  CHECK(back.limits.wall_seconds == plan.limits.wall_seconds);
  CHECK(back.limits.cpu_seconds == plan.limits.cpu_seconds);
  CHECK(back.limits.address_space_bytes == plan.limits.address_space_bytes);
  CHECK(back.limits.file_size_bytes == 12345);
  CHECK(back.limits.run_as_uid == 61003);
  CHECK(back.limits.chroot_dir == plan.limits.chroot_dir);
  CHECK(back.limits.seccomp_program == plan.limits.seccomp_program);
  CHECK(back.limits.landlock_ruleset == grader::kLandlockFd);  // where S finds the ruleset
  // S's own numbers for the descriptors, in order; the program's as the judge asked.
  REQUIRE(back.pass.size() == 2);
  CHECK(back.pass[0] == std::pair<int, int>(grader::sandbox::kSupervisorFirstPassFd, 3));
  CHECK(back.pass[1] == std::pair<int, int>(grader::sandbox::kSupervisorFirstPassFd + 1, 9));

  // Nothing given: no environment of its own (S's is inherited), no Landlock, no chroot.
  Plan bare;
  bare.args = {"/bin/true"};
  bare.judge_pid = 1;
  REQUIRE(grader::sandbox::read_plan_arguments(grader::sandbox::plan_arguments(bare), back, error));
  CHECK(back.envp.empty());
  CHECK(back.limits.landlock_ruleset == -1);
  CHECK(back.limits.chroot_dir.empty());
  CHECK(back.limits.seccomp_program.empty());
  CHECK(back.pass.empty());
}

TEST_CASE("sandbox: the supervisor starts nothing from a command line that is not a plan") {
  Plan plan;
  plan.args = {"/bin/true"};
  plan.judge_pid = 7;
  const std::vector<std::string> good = grader::sandbox::plan_arguments(plan);
  auto refused = [](std::vector<std::string> args) {
    Plan back;
    std::string error;
    const bool read = grader::sandbox::read_plan_arguments(args, back, error);
    return !read && !error.empty();
  };
  CHECK(refused({}));
  CHECK(refused({"--judge-pid", "7", "--wall", "1", "--"}));                // no program
  CHECK(refused({"--wall", "1", "--", "/bin/true"}));                       // no judge
  CHECK(refused({"--judge-pid", "7", "--", "/bin/true"}));                  // no deadline
  CHECK(refused({"--judge-pid", "7x", "--wall", "1", "--", "/bin/true"}));  // not a number
  CHECK(refused({"--judge-pid", "7", "--wall", "1", "--uid", "-1", "--", "/bin/true"}));
  CHECK(refused({"--judge-pid", "7", "--wall", "1", "--seccomp", "0g", "--", "/bin/true"}));
  CHECK(refused({"--judge-pid", "7", "--wall", "1", "--seccomp", "abc", "--", "/bin/true"}));
  CHECK(refused({"--judge-pid", "7", "--wall", "1", "--limitless", "--", "/bin/true"}));
  CHECK(refused({"--judge-pid", "7", "--wall"}));
  std::vector<std::string> many = {"--judge-pid", "7", "--wall", "1"};
  for (int i = 0; i <= grader::sandbox::kMaxPass; ++i) many.insert(many.end(), {"--pass", "3"});
  many.insert(many.end(), {"--", "/bin/true"});
  CHECK(refused(many));  // more descriptors than S has room for
  CHECK(!refused(good));
}
