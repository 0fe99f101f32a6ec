// How many jobs the grader runs (util/job_count.hpp): read from fake /proc and /sys trees laid
// out as cgroup v1 and v2 hierarchies write them, and chosen from the tightest limit.
#include "src/util/job_count.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using grader::Capacity;
using grader::choose_job_count;
using grader::read_capacity;

namespace {

constexpr std::uint64_t MiB = 1ull << 20;

struct FakeRoot {
  fs::path path;
  FakeRoot() {
    std::string pattern = (fs::temp_directory_path() / "job-count-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~FakeRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void file(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

}  // namespace

TEST_CASE("capacity: cgroup v2, the tightest limit of the process's cgroup and its parents") {
  FakeRoot root;
  root.file("proc/self/cgroup", "0::/grading/job7\n");
  root.file("proc/self/mountinfo",
            "30 1 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
            "31 1 0:27 / /proc rw - proc proc rw\n");
  root.file("proc/meminfo", "MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n");
  // Gradescope's default: half a CPU and 768 MiB, set on the parent.
  root.file("sys/fs/cgroup/grading/cpu.max", "50000 100000\n");
  root.file("sys/fs/cgroup/grading/memory.max", std::to_string(768 * MiB) + "\n");
  root.file("sys/fs/cgroup/grading/memory.current", std::to_string(200 * MiB) + "\n");
  root.file("sys/fs/cgroup/grading/memory.stat",
            "anon 1\ninactive_file " + std::to_string(100 * MiB) + "\nactive_file 2\n");
  root.file("sys/fs/cgroup/grading/job7/cpu.max", "max 100000\n");
  root.file("sys/fs/cgroup/grading/job7/memory.max", "max\n");
  const Capacity c = read_capacity(root.path);
  REQUIRE(c.quota_cpus);
  CHECK(*c.quota_cpus == doctest::Approx(0.5));
  REQUIRE(c.memory_limit);
  CHECK(*c.memory_limit == 768 * MiB);
  REQUIRE(c.memory_free);
  CHECK(*c.memory_free == 668 * MiB);  // 768 less (200 used less 100 of droppable cache)
  CHECK_FALSE(c.affinity_cpus);        // only read from the real root
}

TEST_CASE("capacity: cgroup v1, separate cpu and memory hierarchies, a container's own root") {
  FakeRoot root;
  root.file("proc/self/cgroup", "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n");
  // The container sees its own cgroup as the mount's root.
  root.file(
      "proc/self/mountinfo",
      "40 30 0:40 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n"
      "41 30 0:41 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct\n");
  root.file("proc/meminfo", "MemAvailable: 1000000 kB\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "150000\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  root.file("sys/fs/cgroup/memory/memory.limit_in_bytes", std::to_string(2048 * MiB) + "\n");
  root.file("sys/fs/cgroup/memory/memory.usage_in_bytes", std::to_string(48 * MiB) + "\n");
  root.file("sys/fs/cgroup/memory/memory.stat", "cache 5\ntotal_inactive_file 0\n");
  const Capacity c = read_capacity(root.path);
  REQUIRE(c.quota_cpus);
  CHECK(*c.quota_cpus == doctest::Approx(1.5));
  REQUIRE(c.memory_limit);
  CHECK(*c.memory_limit == 2048 * MiB);
  REQUIRE(c.memory_free);
  CHECK(*c.memory_free == 1000000ull * 1024);  // MemAvailable is tighter than 2000 MiB free
}

TEST_CASE("capacity: no limits anywhere (v1's unlimited value, -1 quota) leaves them unset") {
  FakeRoot root;
  root.file("proc/self/cgroup", "4:memory:/\n3:cpu:/\n");
  root.file("proc/self/mountinfo",
            "40 30 0:40 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
            "41 30 0:41 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
  root.file("sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
  root.file("sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  root.file("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  const Capacity c = read_capacity(root.path);
  CHECK_FALSE(c.quota_cpus);
  CHECK_FALSE(c.memory_limit);
  CHECK_FALSE(c.memory_free);
}

TEST_CASE("job count: the least of the CPU limits and of memory, and why, in words") {
  Capacity c;
  c.online_cpus = 64;
  CHECK(choose_job_count(0, c).jobs == 64);
  CHECK(choose_job_count(0, c).why == "64 jobs: 64 CPUs on this machine");
  c.affinity_cpus = 8;
  CHECK(choose_job_count(0, c).why == "8 jobs: 8 CPUs in this process's affinity mask");
  c.slurm_cpus = 4;  // a Slurm task on a 64-core node with --cpus-per-task=4
  CHECK(choose_job_count(0, c).jobs == 4);
  CHECK(choose_job_count(0, c).why.find("Slurm") != std::string::npos);
  c.quota_cpus = 0.5;  // half a CPU still runs one job
  CHECK(choose_job_count(0, c).jobs == 1);
  CHECK(choose_job_count(0, c).why == "1 job: a CPU quota of 0.5 CPUs (cgroup)");
  c.quota_cpus = 3.2;  // a part of a CPU counts as one
  CHECK(choose_job_count(0, c).jobs == 4);
  c.quota_cpus = 2.0;
  CHECK(choose_job_count(0, c).jobs == 2);

  // Memory: what is free, less the grader's own reserve, over a compile's peak.
  c.memory_limit = 768 * MiB;
  c.memory_free = 700 * MiB;
  const auto small = choose_job_count(0, c);
  CHECK(small.jobs == 1);
  CHECK(small.why.find("768 MiB memory limit") != std::string::npos);
  c.memory_free = grader::kGraderReserve + 3 * grader::kMemoryPerJob;
  CHECK(choose_job_count(0, c).jobs == 2);  // the CPUs bind before memory does
  c.quota_cpus.reset();
  CHECK(choose_job_count(0, c).jobs == 3);
  c.memory_free = grader::kGraderReserve + 3 * grader::kMemoryPerJob - 1;
  CHECK(choose_job_count(0, c).jobs == 2);
  c.memory_free = 0;  // nothing free still grades, one at a time
  CHECK(choose_job_count(0, c).jobs == 1);

  // --jobs is taken as it is, and said to be.
  CHECK(choose_job_count(5, c).jobs == 5);
  CHECK(choose_job_count(5, c).why == "5 jobs: --jobs 5");
}

TEST_CASE("capacity: this machine's own reading has the affinity mask") {
  const Capacity c = read_capacity();
  REQUIRE(c.affinity_cpus);
  CHECK(*c.affinity_cpus >= 1);
  CHECK(*c.affinity_cpus <= c.online_cpus);
}
