#include "build_stage.hpp"

#include "build_include_policy.hpp"
#include "build_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace grader::build {

Limits tool_limits(double seconds) {
  Limits limits;
  limits.wall_seconds = seconds;
  limits.address_space_bytes = 4ull << 30;  // cc1plus on Eigen needs well under this
  limits.file_size_bytes = 64ull << 20;  // an object or a runner is a few MB; .fill bombs are not
  limits.output_bytes_kept = 256ull << 10;
  return limits;
}

Stage::Stage(unsigned worker) {
  jail.purpose = FilterPurpose::Build;
  jail.toolchain = true;
  jail.worker = worker;
  jail.work = make_jail_folder(jail);
}

Stage::~Stage() { remove_jail_folder(jail.work); }

bool Stage::put(const fs::path& from, const std::string& name) const {
  std::error_code ec;
  fs::create_directories(host(name).parent_path(), ec);
  fs::copy_file(from, host(name), fs::copy_options::overwrite_existing, ec);
  // Readable by the sandbox's user id, which compiles or links it.
  const bool readable = !ec && ::chmod(host(name).c_str(), 0644) == 0;
  chown_to_sandbox(host(name).parent_path());
  return readable;
}

bool Stage::write(const std::string& name, const std::string& text) const {
  std::error_code ec;
  fs::create_directories(host(name).parent_path(), ec);
  std::ofstream(host(name), std::ios::binary) << text;
  chown_to_sandbox(host(name).parent_path());
  return fs::is_regular_file(host(name), ec);
}

void Stage::chown_to_sandbox(const fs::path& dir) const {
  const unsigned uid = worker_uid(jail.worker);
  if (uid != 0 && dir != jail.work && ::chown(dir.c_str(), uid, uid) != 0) {
    // Ignored: the sandboxed tool then cannot write into the folder, and its own message says
    // so. (Tested rather than cast to void, which g++ 11 still warns about.)
  }
}

RunOutcome Stage::run(const std::vector<std::string>& argv, double seconds,
                      std::uint64_t output_kept) const {
  Limits limits = tool_limits(seconds);
  limits.output_bytes_kept = output_kept;
  return run(argv, limits);
}

RunOutcome Stage::run(const std::vector<std::string>& argv, Limits limits) const {
  Confinement c = confine(jail, argv, limits);
  RunOutcome r = run_sandboxed(c.argv, c.cwd, limits);
  // bubblewrap ended on its own before the tool started: the sandbox's fault, whatever it said.
  if (r.ending == RunOutcome::Ending::Exited && !tool_started(c)) {
    r.ending = RunOutcome::Ending::LaunchFailed;
    r.launch_error = "the sandbox did not start (" + r.output.substr(0, 2000) + ")";
  }
  return r;
}

bool put_kit_headers(const Stage& stage) {
  bool ok = true;
  for (const auto& header : kit_headers())
    ok = stage.put(header, "include/" + header.lexically_relative(normal(header_dir())).string()) &&
         ok;
  return ok;
}

fs::path stage_path(const Stage& stage, const std::string& path) {
  const fs::path p(path);
  return (p.is_relative() ? fs::path(stage.in(path)) : p).lexically_normal();
}

std::string ending_text(const RunOutcome& r, double limit) {
  switch (r.ending) {
    case RunOutcome::Ending::TimedOut:
      return "stopped after the build's time limit of " + std::to_string(static_cast<int>(limit)) +
             " s";
    case RunOutcome::Ending::Signaled: return "killed by " + signal_name(r.signal);
    case RunOutcome::Ending::LaunchFailed: return "could not start: " + r.launch_error;
    case RunOutcome::Ending::Exited: return "exit status " + std::to_string(r.exit_code);
  }
  return "";
}

std::string capped_log(const RunOutcome& r) {
  std::string log = r.output;
  if (r.output_truncated())
    log += "\n[... " + std::to_string(r.output_bytes - r.output.size()) +
           " more bytes of messages not shown]\n";
  return log;
}

}  // namespace grader::build
