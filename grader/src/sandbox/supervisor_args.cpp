#include "supervisor_args.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace grader::sandbox {

namespace {

// Doubles as hexadecimal floating point: read back bit for bit.
std::string exact(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

bool read_number(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

bool read_double(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && *end == '\0';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::vector<std::string> plan_arguments(const Plan& plan) {
  const Limits& l = plan.limits;
  std::vector<std::string> a = {"--judge-pid",     std::to_string(plan.judge_pid),
                                "--wall",          exact(l.wall_seconds),
                                "--cpu",           exact(l.cpu_seconds),
                                "--address-space", std::to_string(l.address_space_bytes),
                                "--file-size",     std::to_string(l.file_size_bytes),
                                "--uid",           std::to_string(l.run_as_uid)};
  if (l.landlock_ruleset >= 0) a.push_back("--landlock");
  if (!l.chroot_dir.empty()) a.insert(a.end(), {"--chroot", l.chroot_dir});
  if (!plan.cwd.empty()) a.insert(a.end(), {"--cwd", plan.cwd});
  if (!l.seccomp_program.empty()) {
    std::string hex;
    for (std::uint8_t b : l.seccomp_program) {
      hex += "0123456789abcdef"[b >> 4];
      hex += "0123456789abcdef"[b & 15];
    }
    a.insert(a.end(), {"--seccomp", hex});
  }
  for (const auto& [ours, theirs] : plan.pass)
    a.insert(a.end(), {"--pass", std::to_string(theirs)});
  for (const auto& e : plan.env) a.insert(a.end(), {"--env", e});
  a.push_back("--");
  a.insert(a.end(), plan.args.begin(), plan.args.end());
  return a;
}

bool read_plan_arguments(const std::vector<std::string>& args, Plan& plan, std::string& error) {
  plan = Plan{};
  plan.limits.landlock_ruleset = -1;
  bool have_pid = false, have_wall = false;
  std::size_t i = 0;
  for (; i < args.size() && args[i] != "--"; ++i) {
    const std::string& name = args[i];
    if (name == "--landlock") {
      plan.limits.landlock_ruleset = kLandlockFd;
      continue;
    }
    if (i + 1 >= args.size()) {
      error = name + " without a value";
      return false;
    }
    const std::string& value = args[++i];
    std::uint64_t n = 0;
    bool ok = true;
    if (name == "--judge-pid") {
      ok = read_number(value, n) && n > 0 && n <= 0x7fffffff;
      plan.judge_pid = static_cast<pid_t>(n);
      have_pid = ok;
    } else if (name == "--wall") {
      ok = read_double(value, plan.limits.wall_seconds);
      have_wall = ok;
    } else if (name == "--cpu") {
      ok = read_double(value, plan.limits.cpu_seconds);
    } else if (name == "--address-space") {
      ok = read_number(value, plan.limits.address_space_bytes);
    } else if (name == "--file-size") {
      ok = read_number(value, plan.limits.file_size_bytes);
    } else if (name == "--uid") {
      ok = read_number(value, n) && n <= 0xffffffffu;
      plan.limits.run_as_uid = static_cast<unsigned>(n);
    } else if (name == "--chroot") {
      plan.limits.chroot_dir = value;
    } else if (name == "--cwd") {
      plan.cwd = value;
    } else if (name == "--seccomp") {
      ok = value.size() % 2 == 0;
      for (std::size_t k = 0; ok && k < value.size(); k += 2) {
        const int hi = hex_digit(value[k]), lo = hex_digit(value[k + 1]);
        ok = hi >= 0 && lo >= 0;
        plan.limits.seccomp_program.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
      }
    } else if (name == "--pass") {
      ok = read_number(value, n) && n <= 1024 &&
           plan.pass.size() < static_cast<std::size_t>(kMaxPass);
      const int ours = kSupervisorFirstPassFd + static_cast<int>(plan.pass.size());
      plan.pass.emplace_back(ours, static_cast<int>(n));
    } else if (name == "--env") {
      plan.env.push_back(value);
    } else {
      error = "unknown option " + name;
      return false;
    }
    if (!ok) {
      error = "bad value for " + name + ": " + value;
      return false;
    }
  }
  if (!have_pid || !have_wall) {
    error = "no --judge-pid or no --wall";
    return false;
  }
  if (i + 1 >= args.size()) {
    error = "no program after --";
    return false;
  }
  plan.args.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  for (auto& a : plan.args) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  for (auto& e : plan.env) plan.envp.push_back(e.data());
  if (!plan.envp.empty()) plan.envp.push_back(nullptr);
  return true;
}

}  // namespace grader::sandbox
