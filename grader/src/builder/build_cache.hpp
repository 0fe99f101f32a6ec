// The builder's cache of compiled objects and linked runners, kept by content so that a warm
// grade compiles nothing and editing one file rebuilds only its runner.
//
// Layout, under <build>/submissions-cache/<exercise>/:
//   obj-<K>.o / obj-<K>.log    the compiled object and the compiler's messages (warnings)
//   obj-<K>.fail               a deterministic compile failure or rejected include, its log
//   run-<R> / run-<R>.log      the linked runner and the linker's messages
//   run-<R>.sha256             the runner's digest when it was linked, checked before each use
//   run-<R>.fail               a deterministic link failure (e.g. a function left undefined)
// K hashes the staged source, every kit header, the flags, the compiler, the digest of the
// builder's sources, the sandbox layer and the compile's limits (object_key_inputs,
// builder.hpp); R hashes K and the harness library's bytes. Everything is written under a
// unique temporary name and renamed into place, so concurrent builds from several threads or
// processes never see half a file.
#pragma once

#include "builder.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace grader::build {

// A name no other thread or process will pick, to append to a file's name while writing it.
std::string unique_suffix();

// Writes through a temporary name and renames, so readers see the old file or the whole new one.
bool write_file_atomically(const std::filesystem::path& path, const std::string& content);

// The SHA-256 of a file's bytes as hex; none if it cannot be read. A cached program is used only
// when its digest equals the recorded one, so an unreadable program (none) never matches, and
// one that cannot be digested when it is stored is not stored.
std::optional<std::string> whole_file_digest(const std::filesystem::path& path);

// Records `program`'s digest in `sum`; sets ec when the program cannot be read back or the
// record cannot be written (a program its owner cannot read, a full disk).
void store_digest(const std::filesystem::path& program, const std::filesystem::path& sum,
                  std::error_code& ec);

// The runner's key: the object's key and the harness library's bytes.
std::string runner_key(const std::string& object_key, const std::filesystem::path& harness);

// The files of one build in the cache (see the layout above), in the exercise's folder of the
// cache, which this makes if needed.
struct CacheEntry {
  std::filesystem::path dir;
  std::filesystem::path object, object_log, object_fail;
  std::filesystem::path runner, runner_sum, runner_log, runner_fail;
};
CacheEntry cache_entry(const std::string& exercise, const std::string& object_key,
                       const std::string& runner_key);

// The warm paths: true when the cache answers, with `result` filled in: a failure remembered,
// or a runner already linked whose bytes are still the ones we linked (the cache is ours
// alone, but a runner is run, not trusted: checked every time). A runner that changed since
// it was linked is removed, to be linked again.
bool answer_from_cache(const CacheEntry& entry, BuildResult& result);

// Keeps a cache folder from growing without end (least recently used, see build_cache.cpp).
void prune(const std::filesystem::path& dir, std::size_t keep = 96);

}  // namespace grader::build
