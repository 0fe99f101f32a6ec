// The chroot layer's scratch quota where no tmpfs could be mounted (isolation.cpp,
// mount_scratch): a thread that sums the scratch folder while the runner runs and, the moment
// it holds more than the quota, kills every process of the runner's user id (an id only this
// worker uses, isolation.hpp), so the host's disk takes at most the quota plus what is written
// between two looks, instead of whatever the runner could write before its time ran out.
// Each file is also capped by RLIMIT_FSIZE (Limits::file_size_bytes). What counts is what the
// runner holds, not only what the folder shows: a file deleted while open or mapped keeps its
// blocks on the disk until the runner ends.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace grader {

// The bytes of everything under `dir` (allocated blocks, so sparse files count what they take).
std::uint64_t bytes_under(const std::filesystem::path& dir);

// The files on `scratch`'s file system that processes of `uid` hold open (/proc/<pid>/fd) or
// mapped (/proc/<pid>/map_files) after they were deleted (no link left): each once, by its
// allocated blocks. Where a mapping's file cannot be measured (map_files needs a capability
// the judge may lack), one that was in `scratch` counts as `unmeasured` bytes (the most one
// file may hold: RLIMIT_FSIZE). Files still linked are bytes_under's. `known`, if given: the
// processes of `uid` an earlier call found, looked at again without a walk of /proc; when
// empty, the walk fills it.
struct HeldFiles {
  std::uint64_t bytes = 0;
  std::set<ino_t> seen;
  std::set<std::string> unmeasured;
};
HeldFiles held_deleted_files(unsigned uid, const std::filesystem::path& scratch,
                             std::uint64_t unmeasured, std::vector<std::string>* known = nullptr);

class ScratchWatch {
 public:
  // Watches `scratch` if it is an ordinary folder of the host's (not a mount of its own) and
  // `uid` is not 0; otherwise does nothing. `largest_file_bytes` is the runner's RLIMIT_FSIZE.
  ScratchWatch(std::filesystem::path scratch, std::uint64_t quota_bytes, unsigned uid,
               std::uint64_t largest_file_bytes);
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
  std::uint64_t largest_file_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> tripped_{false};
  std::thread thread_;
};

}  // namespace grader
