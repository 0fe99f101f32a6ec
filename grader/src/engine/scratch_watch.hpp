// The chroot layer's scratch quota where no tmpfs could be mounted (isolation.cpp,
// mount_scratch): a thread that sums the scratch folder while the runner runs and, the moment
// it holds more than the quota, kills every process of the runner's user id (an id only this
// worker uses, isolation.hpp), so the host's disk takes at most the quota plus what is written
// between two looks, instead of whatever the runner could write before its time ran out.
// Each file is also capped by RLIMIT_FSIZE (Limits::file_size_bytes).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <thread>

namespace grader {

// The bytes of everything under `dir` (allocated blocks, so sparse files count what they take).
std::uint64_t bytes_under(const std::filesystem::path& dir);

class ScratchWatch {
 public:
  // Watches `scratch` if it is an ordinary folder of the host's (not a mount of its own) and
  // `uid` is not 0; otherwise does nothing.
  ScratchWatch(std::filesystem::path scratch, std::uint64_t quota_bytes, unsigned uid);
  ~ScratchWatch();
  ScratchWatch(const ScratchWatch&) = delete;
  ScratchWatch& operator=(const ScratchWatch&) = delete;
  // True if the runner was stopped for going over the quota.
  bool tripped() const { return tripped_.load(); }

 private:
  void watch();
  std::filesystem::path scratch_;
  std::uint64_t quota_;
  unsigned uid_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> tripped_{false};
  std::thread thread_;
};

}  // namespace grader
