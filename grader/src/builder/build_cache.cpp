#include "build_cache.hpp"

#include "../sandbox/isolation.hpp"
#include "../util/read_file.hpp"
#include "../util/sha256.hpp"
#include "build_include_policy.hpp"
#include "build_paths.hpp"
#include "build_stage.hpp"
#include "build_toolchain.hpp"
#include "builder_sources.hpp"
#include "grader_config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

namespace fs = std::filesystem;

namespace grader::build {

namespace {

// What decides a build besides the source, the headers, the flags and the compiler: the way
// the builder and the sandbox stage, confine and police a build. Named by the SHA-256 of their
// sources and of grader/src's headers (grader/CMakeLists.txt works it out), so that changing
// any of them invalidates every cached object, runner and refusal.
constexpr const char* kBuilderVersion = "sources sha256 " LINATTN_BUILDER_SOURCES_SHA256;

// The cache of objects and runners: ours alone (mode 0700), so nothing else on the machine,
// and nothing run in the sandbox, can replace a runner between two grades.
fs::path private_cache_dir() {
  const fs::path dir = fs::path(LINATTN_BUILD_DIR) / "submissions-cache";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot make the build cache " + dir.string() + ": " + ec.message());
  if (::chmod(dir.c_str(), 0700) != 0)
    throw std::runtime_error("cannot make the build cache " + dir.string() +
                             " private: " + std::strerror(errno));
  return dir;
}

// Hashing the harness library (a few MB) once per content version is enough: remember the
// digest under the file's size and modification time.
std::string file_digest(const fs::path& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> memo;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  std::ostringstream id;
  id << path.string() << " " << st.st_size << " " << st.st_mtim.tv_sec << "." << st.st_mtim.tv_nsec
     << " " << st.st_ino;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(id.str());
    if (it != memo.end()) return it->second;
  }
  // A library that cannot be read has no digest, and no runner key: "" would be one, the same
  // for every unreadable library.
  const std::optional<std::string> read = whole_file_digest(path);
  if (!read)
    throw std::runtime_error("cannot read the harness library " + path.string() + ": " +
                             std::strerror(errno));
  std::string digest = *read;
  std::lock_guard<std::mutex> lock(mutex);
  memo[id.str()] = digest;
  return digest;
}

}  // namespace

// A name no other thread or process will pick: pid, thread, counter.
std::string unique_suffix() {
  static std::atomic<unsigned long> counter{0};
  std::ostringstream s;
  s << ".tmp-" << ::getpid() << "-" << std::hash<std::thread::id>{}(std::this_thread::get_id())
    << "-" << counter++;
  return s.str();
}

bool write_file_atomically(const fs::path& path, const std::string& content) {
  const fs::path tmp = path.string() + unique_suffix();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

std::optional<std::string> whole_file_digest(const fs::path& path) {
  std::string bytes;
  if (!read_file(path, bytes)) return std::nullopt;
  Sha256 h;
  h.add(bytes);
  return h.hex();
}

void store_digest(const fs::path& program, const fs::path& sum, std::error_code& ec) {
  // The system's own reason (a program its owner cannot read, a full disk), as errno left it.
  auto failed = [&ec] { ec = std::error_code(errno != 0 ? errno : EIO, std::generic_category()); };
  errno = 0;
  const std::optional<std::string> digest = whole_file_digest(program);
  if (!digest) return failed();
  errno = 0;
  if (!write_file_atomically(sum, *digest)) failed();
}

std::string runner_key(const std::string& object_key, const fs::path& harness) {
  Sha256 runner_hash;
  runner_hash.add(object_key);
  runner_hash.add(file_digest(harness));
  runner_hash.add(std::string(kBuilderVersion) +
                  " link: --whole-archive harness, then object, -pthread");
  return runner_hash.hex().substr(0, 32);
}

CacheEntry cache_entry(const std::string& exercise, const std::string& object_key,
                       const std::string& runner_key) {
  CacheEntry e;
  e.dir = private_cache_dir() / exercise;
  std::error_code ec;
  fs::create_directories(e.dir, ec);
  e.object = e.dir / ("obj-" + object_key + ".o");
  e.object_log = e.dir / ("obj-" + object_key + ".log");
  e.object_fail = e.dir / ("obj-" + object_key + ".fail");
  e.runner = e.dir / ("run-" + runner_key);
  e.runner_sum = e.dir / ("run-" + runner_key + ".sha256");
  e.runner_log = e.dir / ("run-" + runner_key + ".log");
  e.runner_fail = e.dir / ("run-" + runner_key + ".fail");
  return e;
}

bool answer_from_cache(const CacheEntry& entry, BuildResult& result) {
  std::error_code ec;
  std::string text;
  if (read_file(entry.object_fail, text)) {
    result.cached = true;
    result.log = text;
    return true;
  }
  std::string recorded_sum;
  if (fs::is_regular_file(entry.runner, ec) && read_file(entry.runner_sum, recorded_sum) &&
      read_file(entry.object_log, result.log)) {
    if (whole_file_digest(entry.runner) == recorded_sum) {
      std::string link_log;
      if (read_file(entry.runner_log, link_log)) result.log += link_log;
      fs::last_write_time(entry.runner, fs::file_time_type::clock::now(), ec);  // recently used
      result.status = BuildResult::Status::Built;
      result.cached = true;
      result.runner = entry.runner;
      return true;
    }
    fs::remove(entry.runner, ec);  // changed since it was linked: link it again
    fs::remove(entry.runner_sum, ec);
  }
  result.log.clear();
  if (read_file(entry.runner_fail, text)) {
    std::string compile_log;
    read_file(entry.object_log, compile_log);
    result.cached = true;
    result.log = compile_log + text;
    return true;
  }
  return false;
}

// Once a cache folder holds more than `keep` files, the oldest go, but never one touched in
// the last three hours (a batch builds every runner before it runs any, and a large class
// takes a while; another thread may be about to run it). Warm hits refresh a runner's time,
// so this is least recently used. A removed log or object only costs a rebuild.
void prune(const fs::path& dir, std::size_t keep) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    files.emplace_back(it->last_write_time(ec), it->path());
  if (files.size() <= keep) return;
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  const auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(3);
  for (std::size_t i = keep; i < files.size(); ++i)
    if (files[i].first < cutoff) fs::remove_all(files[i].second, ec);
}

}  // namespace grader::build

namespace grader {

using namespace build;

std::vector<std::string> object_key_inputs(const std::string& source) {
  std::vector<std::string> inputs = {"source\n" + source};
  for (const auto& header : kit_headers()) {
    std::string text;
    read_file(header, text);
    inputs.push_back("header " + header.lexically_relative(normal(header_dir())).string() + "\n" +
                     text);
  }
  for (const auto& arg : compile_flags()) inputs.push_back("flag " + arg);
  inputs.push_back("compiler " + compiler_identity());
  // How the builder stages, confines and polices a build (the include and object policies):
  // kBuilderVersion is the digest of the builder's sources: it changes whenever any of that
  // does.
  inputs.push_back(std::string("builder ") + kBuilderVersion);
  inputs.push_back(std::string("sandbox ") + layer_name(isolation().layer));
  const Limits limits = tool_limits(kToolSeconds);
  inputs.push_back("limits " + std::to_string(limits.wall_seconds) + " s, " +
                   std::to_string(limits.address_space_bytes) + " B address space, " +
                   std::to_string(limits.file_size_bytes) + " B files");
  return inputs;
}

std::string object_cache_key(const std::string& source) {
  Sha256 h;
  for (const auto& input : object_key_inputs(source)) h.add(input);
  return h.hex().substr(0, 32);
}

}  // namespace grader
