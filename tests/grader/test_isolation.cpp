// The sandbox really is in force: a program run the way runners are run cannot open the kit's
// files, make a socket or fork; and the compile-log filter keeps other files' text out.
#include "builder/build_log.hpp"
#include "grader_config.hpp"
#include "sandbox/isolation.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/sandbox.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace grader;

namespace {

// Runs the hostile program `try_reach` with `args` as a check's runner is run; its exit status
// is the errno its attempt got.
int reach(const std::vector<std::string>& args) {
  const fs::path program = fs::path(GRADER_HOSTILE_DIR) / "grader_hostile_try_reach";
  Jail jail;
  jail.purpose = FilterPurpose::Runner;
  jail.read_only = {{program, "/runner"}};
  jail.work = make_jail_folder(jail);
  // As the judge does it: the sandbox's user id may not reach the build folder.
  jail.read_only = {{readable_copy(jail, program), "/runner"}};
  std::vector<std::string> argv = {inside(jail, jail.read_only.front().first)};
  argv.insert(argv.end(), args.begin(), args.end());
  Limits limits;
  limits.wall_seconds = 30;
  const Confinement confined = confine(jail, argv, limits);
  RunOutcome r = run_sandboxed(confined.argv, confined.cwd, limits);
  unwrap_signal(r);
  remove_jail_folder(jail.work);
  INFO("output: " << r.output << " launch error: " << r.launch_error);
  REQUIRE(r.ending == RunOutcome::Ending::Exited);
  return r.exit_code;
}

}  // namespace

TEST_CASE("a sandboxed program cannot open the kit's files") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  for (const char* file :
       {"/README.md", "/solutions/memory/memory.cpp", "/reference/src/memory.cpp"}) {
    const int got = reach({"open", std::string(LINATTN_SOURCE_DIR) + file});
    CAPTURE(file);
    CHECK((got == ENOENT || got == EACCES));
  }
  // The control: the program itself works, and a file that is there opens.
  CHECK(reach({"open", "/runner"}) == 0);
}

TEST_CASE("a sandboxed runner can make no socket and start no process") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  CHECK(reach({"socket"}) == EPERM);
  CHECK(reach({"fork"}) == EPERM);
}

// Namespaces are a way back to privileges: the filter refuses unshare and setns outright.
// unshare(0) changes nothing and setns(-1, 0) names no descriptor, so without the filter the
// kernel's answers would be 0 and EBADF; only the filter gives EPERM.
TEST_CASE("a sandboxed runner can neither unshare nor setns") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  CHECK(reach({"unshare"}) == EPERM);
  CHECK(reach({"setns"}) == EPERM);
}

// System V IPC and POSIX message queues outlive a run outside bubblewrap (no IPC namespace),
// and carry answers between runs: the filter refuses every call that makes or uses one. Without
// it each attempt below succeeds (try_reach removes what it made).
TEST_CASE("a sandboxed runner can make no System V IPC object and no message queue") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  MESSAGE("layer: " << std::string(layer_name(isolation().layer)));
  CHECK(reach({"shmget"}) == EPERM);
  CHECK(reach({"msgget"}) == EPERM);
  CHECK(reach({"semget"}) == EPERM);
  CHECK(reach({"mq_open"}) == EPERM);
}

// The judge's environment (paths, tokens, whatever its caller set) stays out of the runner:
// bubblewrap starts it with --clearenv, the other layers with a short list of their own.
TEST_CASE("a sandboxed runner does not see the judge's environment") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  REQUIRE(::setenv("LINATTN_JUDGE_ONLY", "secret", 1) == 0);
  const int got = reach({"env", "LINATTN_JUDGE_ONLY"});
  // The control: the same program run plainly, outside the sandbox, does see the variable.
  const std::string plain = (fs::path(GRADER_HOSTILE_DIR) / "grader_hostile_try_reach").string() +
                            " env LINATTN_JUDGE_ONLY";
  const int status = std::system(plain.c_str());
  ::unsetenv("LINATTN_JUDGE_ONLY");
  CHECK(got == 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
}

TEST_CASE("the compile log keeps the submission's lines and hides other files' text") {
  const std::string log =
      "In file included from memory/memory.cpp:2:\n"
      "/usr/share/doc/secret.txt:1:1: error: 'hello' does not name a type\n"
      "    1 | hello world SECRET\n"
      "      | ^~~~~\n"
      "/usr/include/eigen3/Eigen/src/Core/GeneralProduct.h:419:38: error: static assertion failed: "
      "INVALID_MATRIX_PRODUCT\n"
      "  419 |   EIGEN_STATIC_ASSERT(ProductIsValid || SameSizes, INVALID_MATRIX_PRODUCT)\n"
      "memory/memory.cpp:7:12: error: 'x' was not declared in this scope\n"
      "    7 |   return x;\n"
      "      |          ^\n"
      "/usr/bin/ld: memory/memory.cpp: undefined reference to `linattn::read'\n";
  const std::string kept = submission_only_log(
      log, "memory/memory.cpp",
      [](const std::string& path) { return path.rfind("/usr/include/", 0) == 0; });
  CHECK(kept.find("SECRET") == std::string::npos);
  CHECK(kept.find("does not name a type") == std::string::npos);
  CHECK(kept.find("/usr/share/doc/secret.txt") != std::string::npos);  // named, not quoted
  CHECK(kept.find("INVALID_MATRIX_PRODUCT") != std::string::npos);     // Eigen's message kept
  CHECK(kept.find("EIGEN_STATIC_ASSERT(") == std::string::npos);       // its source line not
  CHECK(kept.find("    7 |   return x;") != std::string::npos);        // the student's own line
  CHECK(kept.find("undefined reference") != std::string::npos);        // the linker's words
  CHECK(kept.find("In file included from memory/memory.cpp:2:") != std::string::npos);
}

TEST_CASE("Landlock keeps a program to /usr and its own folder (the chroot layer's compilers)") {
  if (!landlock_available()) {
    MESSAGE("this kernel has no Landlock: nothing to test");
    return;
  }
  char pattern[] = "/tmp/linattn-landlock-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const fs::path folder = pattern;
  const fs::path program = folder / "try_reach";
  fs::copy_file(fs::path(GRADER_HOSTILE_DIR) / "grader_hostile_try_reach", program);
  auto reach_here = [&](const std::string& path) {
    Limits limits;
    limits.wall_seconds = 30;
    const UniqueFd ruleset = landlock_ruleset({"/usr"}, {folder.string()}, {"/dev/null"});
    REQUIRE(ruleset.valid());
    limits.landlock_ruleset = ruleset.get();
    const RunOutcome r = run_sandboxed({program.string(), "open", path}, folder, limits);
    INFO(r.output << r.launch_error);
    REQUIRE(r.ending == RunOutcome::Ending::Exited);
    return r.exit_code;
  };
  CHECK(reach_here(std::string(LINATTN_SOURCE_DIR) + "/README.md") == EACCES);
  CHECK(reach_here("/etc/passwd") == EACCES);
  CHECK(reach_here("/usr/include/stdio.h") == 0);  // the toolchain's files: readable
  CHECK(reach_here(program.string()) == 0);        // its own folder too
  fs::remove_all(folder);
}

// bubblewrap starts from a folder of the host; the program's own folder (/work for a compiler,
// /tmp for a runner) is given to it by --chdir, inside. A host without a /work (Ubuntu's
// images) could start no compiler when the inside folder was also the host's working folder.
TEST_CASE("bubblewrap starts from the host's root, and the program's folder is set inside") {
  if (isolation().layer != Layer::Namespaces) {
    MESSAGE("not the namespaces layer here: nothing to test");
    return;
  }
  for (const bool toolchain : {true, false}) {
    CAPTURE(toolchain);
    Jail jail;
    jail.purpose = toolchain ? FilterPurpose::Build : FilterPurpose::Runner;
    jail.toolchain = toolchain;
    jail.work = make_jail_folder(jail);
    Limits limits;
    const Confinement confined = confine(jail, {"/usr/bin/true"}, limits);
    remove_jail_folder(jail.work);
    CHECK(confined.cwd == "/");
    const auto chdir = std::find(confined.argv.begin(), confined.argv.end(), "--chdir");
    REQUIRE(chdir + 1 < confined.argv.end());
    CHECK(*(chdir + 1) == (toolchain ? "/work" : "/tmp"));
  }
}

TEST_CASE("sandbox: two grading processes never run as the same user id") {
  // The id's lock file is held exclusively: two grader processes (two grade-all runs on one
  // machine, a test beside another) each get an id of their own. A shared lock let both take
  // the first id, which only a test racing another under -j2 used to notice (issue 36).
  if (::geteuid() != 0) {
    MESSAGE("not root: runners keep the caller's id, nothing to allocate");
    return;
  }
  int ids[2];
  REQUIRE(::pipe(ids) == 0);
  int hold[2];
  REQUIRE(::pipe(hold) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // another grading process: takes an id, says which, keeps it until told
    ::close(ids[0]);
    ::close(hold[1]);
    unsigned id = 0;
    try {
      id = grader::worker_uid(901);
    } catch (...) {
    }
    if (::write(ids[1], &id, sizeof id) != sizeof id) ::_exit(1);
    char done;
    (void)::read(hold[0], &done, 1);
    ::_exit(0);
  }
  ::close(ids[1]);
  ::close(hold[0]);
  unsigned theirs = 0;
  REQUIRE(::read(ids[0], &theirs, sizeof theirs) == sizeof theirs);
  const unsigned mine = grader::worker_uid(902);
  ::close(hold[1]);  // the child may end now
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ids[0]);
  CHECK(theirs != 0);
  CHECK(mine != 0);
  CHECK(mine != theirs);
}

// Ubuntu 23.10 and later keep user namespaces from programs without an AppArmor profile, so
// bubblewrap cannot start for a user other than root ("setting up uid map: Permission
// denied"): where the kernel's setting says so, the advice names it and both ways out.
TEST_CASE("the advice without a sandbox names Ubuntu's restriction where the kernel has it on") {
  const fs::path dir = fs::temp_directory_path() / ("linattn-userns-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "on") << "1\n";
  std::ofstream(dir / "off") << "0\n";
  const std::string on = userns_restriction_hint(dir / "on");
  CHECK(on.find("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0") !=
        std::string::npos);
  CHECK(on.find("AppArmor profile") != std::string::npos);
  CHECK(userns_restriction_hint(dir / "off").empty());
  CHECK(userns_restriction_hint(dir / "missing").empty());  // a kernel without the setting
  fs::remove_all(dir);
}
