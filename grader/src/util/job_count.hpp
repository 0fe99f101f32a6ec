// How many builds and checks to run at a time: what the process may really use, not what the
// host has. std::thread::hardware_concurrency counts the host's CPUs, and ignores the affinity
// mask, a cgroup's CPU quota, a Slurm allocation and memory: in Gradescope's default container
// (768 MB, half a CPU) on a 5-core host it started five compilers and the kernel killed them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace grader {

// What the machine grants this process, each limit where one was found.
struct Capacity {
  unsigned online_cpus = 1;               // the host's (hardware_concurrency)
  std::optional<unsigned> affinity_cpus;  // sched_getaffinity: taskset, a cpuset, Slurm's binding
  std::optional<double> quota_cpus;       // the tightest cgroup CPU quota, in CPUs (0.5: half)
  std::optional<unsigned> slurm_cpus;     // SLURM_CPUS_PER_TASK
  std::optional<std::uint64_t> memory_limit;  // the tightest cgroup memory limit, bytes
  std::optional<std::uint64_t> memory_free;   // what may still be used: the least of
                                              // MemAvailable and every limit less its usage
};

// Reads the above from `root`'s proc/ and sys/fs/cgroup (cgroup v1 and v2), and the process's
// own affinity mask and environment when `root` is "/". Unreadable files leave a field unset.
Capacity read_capacity(const std::filesystem::path& root = "/");

// The memory one job may take at its peak, grader/bench/job-memory.sh's figures with room to
// spare: a compile against Eigen at -O2 takes 180 to 350 MiB resident alone; one exercise
// graded alone (grader, compiler and runners together) 30 to 540 MiB, the most for backward,
// whose time check's inputs are the largest.
inline constexpr std::uint64_t kMemoryPerJob = 512ull << 20;
// What the grader itself holds while it grades (the oracle's cases of every exercise).
inline constexpr std::uint64_t kGraderReserve = 384ull << 20;

struct JobCount {
  int jobs = 1;
  std::string why;  // "2 jobs: 2 CPUs in the affinity mask", "5 jobs: --jobs 5"
};

// `requested` > 0 (--jobs) is taken as it is; otherwise the least of the CPUs (each limit)
// and the memory free divided by kMemoryPerJob (after kGraderReserve), at least 1.
JobCount choose_job_count(int requested, const Capacity& capacity);

}  // namespace grader
