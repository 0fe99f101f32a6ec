// One confined run of a build tool (the compiler driver, readelf) in a fresh stage folder of
// its own, and how the outcome of such a run reads in a build's log.
#pragma once

#include "../sandbox/isolation.hpp"
#include "../sandbox/sandbox.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace grader::build {

// The time limit of a compile and of a link (a compile that runs out of it is remembered).
inline constexpr double kToolSeconds = 120;

// The limits a build tool runs under, with a wall-clock limit of `seconds`.
Limits tool_limits(double seconds);

// The stage is made for `worker` (its user id in the chroot layer) and removed when this goes
// out of scope, whatever happened.
struct Stage {
  Jail jail;
  explicit Stage(unsigned worker);
  ~Stage();
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;
  // A file of the stage as the judge sees it, and as the tool inside the sandbox sees it.
  std::filesystem::path host(const std::string& name) const { return jail.work / name; }
  std::string in(const std::string& name) const { return inside(jail, jail.work / name); }
  // Copies a file into the stage, readable by the sandbox's user.
  bool put(const std::filesystem::path& from, const std::string& name) const;
  bool write(const std::string& name, const std::string& text) const;
  void chown_to_sandbox(const std::filesystem::path& dir) const;
  // Runs argv (paths as seen inside) in the stage under the build's limits.
  RunOutcome run(const std::vector<std::string>& argv, double seconds,
                 std::uint64_t output_kept = 256ull << 10) const;
  // The same under limits of the caller's choosing (tool_limits with one of them changed).
  RunOutcome run(const std::vector<std::string>& argv, Limits limits) const;
};

// Copies the kit's API headers into the stage's include/, in the kit's layout (an API header
// includes "../common/linattn.hpp"). False if one could not be copied.
bool put_kit_headers(const Stage& stage);

// A path the compiler printed, as seen inside: one relative to its working folder (the
// stage) made absolute, and normalized either way.
std::filesystem::path stage_path(const Stage& stage, const std::string& path);

// How a tool's run ended, for a log: "stopped after the build's time limit of 120 s", ...
std::string ending_text(const RunOutcome& r, double limit);

// The tool's messages, with a line saying how much was cut when they ran over the cap.
std::string capped_log(const RunOutcome& r);

}  // namespace grader::build
