#include "job_count.hpp"

#include "byte_units.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace grader {

namespace fs = std::filesystem;

namespace {

// A cgroup file holds one number, or "max" (v2) / a huge number (v1) for no limit.
std::optional<std::uint64_t> read_number(const fs::path& file) {
  std::ifstream in(file);
  std::string word;
  if (!(in >> word) || word == "max" || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  try {
    const unsigned long long value = std::stoull(word);
    if (value >= (1ull << 62)) return std::nullopt;  // v1's "unlimited" is 2^63 less a page
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The value of `key` in a "key value" file (memory.stat, meminfo).
std::optional<std::uint64_t> read_keyed(const fs::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value) {
    if (name == key) return value;
    in.ignore(1 << 16, '\n');
  }
  return std::nullopt;
}

struct Mount {
  std::string root, point, type;
  std::vector<std::string> options;  // the super block's: a v1 hierarchy names its controllers
};

std::vector<Mount> cgroup_mounts(const fs::path& root) {
  std::vector<Mount> mounts;
  std::ifstream in(root / "proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    const auto dash = std::find(f.begin(), f.end(), "-");
    if (f.size() < 5 || dash == f.end() || std::distance(dash, f.end()) < 4) continue;
    Mount m{f[3], f[4], *(dash + 1), {}};
    if (m.type != "cgroup" && m.type != "cgroup2") continue;
    std::istringstream opts(*(dash + 3));
    for (std::string o; std::getline(opts, o, ',');) m.options.push_back(o);
    mounts.push_back(m);
  }
  return mounts;
}

// The folders of this process's cgroup for one controller ("" for v2), from its own up to the
// hierarchy's root: a limit anywhere above binds too.
std::vector<fs::path> cgroup_chain(const fs::path& root, const std::vector<Mount>& mounts,
                                   const std::string& controller) {
  std::ifstream in(root / "proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    const bool v2 = line.compare(0, a, "0") == 0 && controllers.empty();
    if (controller.empty() != v2) continue;
    if (!v2 && ("," + controllers + ",").find("," + controller + ",") == std::string::npos)
      continue;
    for (const Mount& m : mounts) {
      const bool fits = v2 ? m.type == "cgroup2"
                           : m.type == "cgroup" && std::find(m.options.begin(), m.options.end(),
                                                             controller) != m.options.end();
      if (!fits) continue;
      // Inside a container the mount's root is the container's own cgroup.
      if (m.root != "/" && path.compare(0, m.root.size(), m.root) == 0)
        path = path.substr(m.root.size());
      const fs::path top = root / fs::path(m.point).relative_path();
      fs::path dir = (top / fs::path(path).relative_path()).lexically_normal();
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) dir = top;
      std::vector<fs::path> chain;
      for (fs::path d = dir;; d = d.parent_path()) {
        chain.push_back(d);
        if (d == top || !d.has_relative_path() || d.parent_path() == d) break;
      }
      return chain;
    }
  }
  return {};
}

void take_least(std::optional<double>& into, double value) {
  if (!into || value < *into) into = value;
}
void take_least(std::optional<std::uint64_t>& into, std::uint64_t value) {
  if (!into || value < *into) into = value;
}

void read_cpu_quota(const fs::path& root, const std::vector<Mount>& mounts, Capacity& c) {
  for (const fs::path& dir : cgroup_chain(root, mounts, "")) {  // v2: "quota period"
    std::ifstream in(dir / "cpu.max");
    std::string quota;
    double period = 0;
    if (in >> quota >> period && quota != "max" && period > 0)
      take_least(c.quota_cpus, std::strtod(quota.c_str(), nullptr) / period);
  }
  for (const fs::path& dir : cgroup_chain(root, mounts, "cpu")) {  // v1: -1 for no quota
    std::ifstream q(dir / "cpu.cfs_quota_us"), p(dir / "cpu.cfs_period_us");
    double quota = -1, period = 0;
    if (q >> quota && p >> period && quota > 0 && period > 0)
      take_least(c.quota_cpus, quota / period);
  }
}

void read_memory(const fs::path& root, const std::vector<Mount>& mounts, Capacity& c) {
  // Page cache that the kernel drops before it kills anything does not count as used.
  struct Files {
    std::string controller, limit, usage, inactive_file;
  };
  for (const Files& f :
       {Files{"", "memory.max", "memory.current", "inactive_file"},
        Files{"memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"}})
    for (const fs::path& dir : cgroup_chain(root, mounts, f.controller)) {
      const auto limit = read_number(dir / f.limit);
      if (!limit) continue;
      take_least(c.memory_limit, *limit);
      std::uint64_t used = read_number(dir / f.usage).value_or(0);
      used -= std::min(used, read_keyed(dir / "memory.stat", f.inactive_file).value_or(0));
      take_least(c.memory_free, *limit - std::min(*limit, used));
    }
  if (const auto available = read_keyed(root / "proc/meminfo", "MemAvailable:"))
    take_least(c.memory_free, *available * 1024);
}

std::string cpus_text(double cpus) {
  std::ostringstream s;
  s << cpus << (cpus == 1 ? " CPU" : " CPUs");
  return s.str();
}

}  // namespace

Capacity read_capacity(const fs::path& root) {
  Capacity c;
  c.online_cpus = std::max(1u, std::thread::hardware_concurrency());
  const auto mounts = cgroup_mounts(root);
  read_cpu_quota(root, mounts, c);
  read_memory(root, mounts, c);
  if (root == "/") {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
      c.affinity_cpus = static_cast<unsigned>(CPU_COUNT(&set));
    if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK")) {
      const long n = std::strtol(slurm, nullptr, 10);
      if (n > 0) c.slurm_cpus = static_cast<unsigned>(n);
    }
  }
  return c;
}

JobCount choose_job_count(int requested, const Capacity& c) {
  const auto said = [](int jobs, const std::string& why) {
    return JobCount{jobs, std::to_string(jobs) + (jobs == 1 ? " job: " : " jobs: ") + why};
  };
  if (requested > 0) return said(requested, "--jobs " + std::to_string(requested));
  // Each limit with its words; the least one decides.
  int jobs = static_cast<int>(c.online_cpus);
  std::string why = cpus_text(c.online_cpus) + " on this machine";
  const auto consider = [&](int n, const std::string& words) {
    n = std::max(1, n);
    if (n < jobs) {
      jobs = n;
      why = words;
    }
  };
  if (c.affinity_cpus)
    consider(static_cast<int>(*c.affinity_cpus),
             cpus_text(*c.affinity_cpus) + " in this process's affinity mask");
  if (c.quota_cpus)
    consider(static_cast<int>(std::ceil(*c.quota_cpus - 1e-9)),
             "a CPU quota of " + cpus_text(*c.quota_cpus) + " (cgroup)");
  if (c.slurm_cpus)
    consider(static_cast<int>(*c.slurm_cpus),
             cpus_text(*c.slurm_cpus) + " allocated by Slurm (SLURM_CPUS_PER_TASK)");
  if (c.memory_free) {
    const std::uint64_t usable = *c.memory_free - std::min(*c.memory_free, kGraderReserve);
    const std::string limit =
        c.memory_limit ? mib(static_cast<double>(*c.memory_limit)) + " memory limit (cgroup), "
                       : "";
    consider(static_cast<int>(usable / kMemoryPerJob),
             limit + mib(static_cast<double>(*c.memory_free)) + " free, " +
                 mib(static_cast<double>(kMemoryPerJob)) + " per job and " +
                 mib(static_cast<double>(kGraderReserve)) + " for the grader");
  }
  return said(jobs, why);
}

}  // namespace grader
