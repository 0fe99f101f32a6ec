// Each confined program runs in a session of its own (sandbox_program.cpp: setsid), and so,
// with the kernel's autogroup scheduling, in a scheduling group of its own: the CPU is shared
// between sessions first. 200 busy threads in one runner then take one group's share, instead
// of leaving an honest neighbour one thread's share in 201 (40 to 400 times slower in the
// chroot layer, issue 31). Measured as two checks of two workers run at once.
#include "sandbox/isolation.hpp"
#include "sandbox/sandbox.hpp"

#include "../skip.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using namespace grader;

namespace {

// Runs the program `busy` with `args` as worker `worker`'s runner is run; returns its wall time.
double run_busy(unsigned worker, const std::vector<std::string>& args, double wall_seconds) {
  const fs::path program = fs::path(GRADER_HOSTILE_DIR) / "grader_hostile_busy";
  Jail jail;
  jail.purpose = FilterPurpose::Runner;
  jail.worker = worker;
  jail.read_only = {{program, "/runner"}};
  jail.work = make_jail_folder(jail);
  jail.read_only = {{readable_copy(jail, program), "/runner"}};
  std::vector<std::string> argv = {inside(jail, jail.read_only.front().first)};
  argv.insert(argv.end(), args.begin(), args.end());
  Limits limits;
  limits.wall_seconds = wall_seconds;
  const Confinement confined = confine(jail, argv, limits);
  RunOutcome r = run_sandboxed(confined.argv, confined.cwd, limits);
  unwrap_signal(r);
  remove_jail_folder(jail.work);
  INFO("output: " << r.output << " launch error: " << r.launch_error);
  CHECK(r.ending == RunOutcome::Ending::Exited);
  CHECK(r.exit_code == 0);
  return r.seconds;
}

bool autogroup_on() {
  std::ifstream in("/proc/sys/kernel/sched_autogroup_enabled");
  int on = 0;
  return in >> on && on == 1;
}

}  // namespace

TEST_CASE("neighbours: 200 busy threads in one runner barely slow another runner") {
  if (isolation().layer == Layer::None) {
    MESSAGE("no sandbox on this machine: nothing to test");
    return;
  }
  if (!autogroup_on())
    return grader_test::skip_test("the kernel's autogroup scheduling is off here");
  MESSAGE("layer: " << std::string(layer_name(isolation().layer)));
  // The honest one alone: the least of two, so that a cold start does not set the measure.
  const std::string work = "300";  // about 0.3 to 1 s of one core's time
  const double alone = std::min(run_busy(0, {"work", work}, 120), run_busy(0, {"work", work}, 120));
  // Then beside 200 spinning threads, which are well under way by the time it starts.
  std::thread hostile([] { run_busy(1, {"spin", "200", "12"}, 60); });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double beside = run_busy(0, {"work", work}, 120);
  hostile.join();
  MESSAGE("alone " << alone << " s, beside 200 busy threads " << beside << " s");
  // Sharing one group with them gives it 1/201 of the CPU (some 100 times slower on two
  // cores); a group of its own, half or more. A machine busy with other work varies both.
  CHECK(beside < 6 * alone);
}
