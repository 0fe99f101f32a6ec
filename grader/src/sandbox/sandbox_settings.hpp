// The sandbox's settings that belong to the machine rather than to the code, in one place (as
// isolate keeps its box ids and folders in default.cf): an administrator whose machine already
// uses these ids or paths changes them here, and nowhere else. Read by isolation.cpp alone.
#pragma once

namespace grader::settings {

// The user ids student code runs under in the chroot layer, and bubblewrap starts under in the
// namespaces layer: ids that belong to no account on this machine. The judge claims one per
// worker, from the first up, so graders running side by side never share one.
inline constexpr unsigned kFirstRunnerUid = 61000;
inline constexpr unsigned kRunnerUidCount = 4000;

// Where an id is claimed: one lock file per id, in a folder only root may enter. A lock lasts
// as long as the grader that holds it.
inline constexpr const char* kUidLockFolder = "/run/linattn-uids";

// The program loader every x86_64 runner names as its interpreter; the chroot layer copies it
// into each runner's folder at this same path.
inline constexpr const char* kLoaderPath = "/lib64/ld-linux-x86-64.so.2";

}  // namespace grader::settings
