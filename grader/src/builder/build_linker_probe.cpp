#include "build_linker_probe.hpp"

#include "build_toolchain.hpp"

#include <mutex>

namespace grader::build {

// gold links a runner in about a third of the time of the default linker (0.08 s against
// 0.22 s here), which matters when one edited file is regraded. Used where the compiler
// driver can find it in the sandbox; asked once per process, when something is first linked.
const std::vector<std::string>& linker_choice(const Stage& stage) {
  static std::once_flag once;
  static std::vector<std::string> choice;
  std::call_once(once, [&] {
    const RunOutcome r = stage.run({compiler(), "-fuse-ld=gold", "-Wl,--version"}, 30);
    if (r.ending == RunOutcome::Ending::Exited && r.exit_code == 0) choice = {"-fuse-ld=gold"};
  });
  return choice;
}

}  // namespace grader::build
