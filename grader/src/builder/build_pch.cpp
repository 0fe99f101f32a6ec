#include "build_pch.hpp"

#include "../util/sha256.hpp"
#include "build_cache.hpp"
#include "build_toolchain.hpp"
#include "builder.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace grader::build {

namespace {

// The stage's folder for the precompiled header, put first on the include path, so that GCC
// finds <exercise>.hpp.gch there before it finds the header itself in include/<exercise>/.
constexpr const char* kStageFolder = "pch";

// A precompiled header of Eigen is about 100 MB, over the 64 MB a compile may write.
constexpr std::uint64_t kHeaderFileBytes = 512ull << 20;

// Everything that decides a submission's object but the source (object_key_inputs), and the
// exercise: a new kit header, flag, compiler or builder makes a new one.
std::string header_key(const std::string& exercise) {
  Sha256 h;
  for (const auto& input : object_key_inputs("")) h.add(input);
  h.add("precompiled header of " + exercise);
  return h.hex().substr(0, 32);
}

// Compiles the exercise's header in a stage laid out as a submission's compile is, and stores
// the result at `target`. False if anything failed: the compiles then go without one.
bool build_header(const std::string& exercise, unsigned worker, const fs::path& target) {
  const Stage stage(worker);
  if (!put_kit_headers(stage)) return false;
  std::vector<std::string> argv = {compiler()};
  for (const auto& flag : compile_flags()) argv.push_back(flag);
  argv.insert(argv.end(),
              {"-I" + stage.in("include/" + exercise), "-I" + stage.in("include/common"), "-x",
               "c++-header", stage.in("include/" + exercise + "/" + exercise + ".hpp"), "-o",
               stage.in("out.gch")});
  Limits limits = tool_limits(kToolSeconds);
  limits.file_size_bytes = kHeaderFileBytes;
  const RunOutcome r = stage.run(argv, limits);
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) return false;
  std::error_code ec;
  const fs::path tmp = target.string() + unique_suffix();
  fs::copy_file(stage.host("out.gch"), tmp, ec);
  if (!ec) fs::permissions(tmp, fs::perms(0644), ec);  // read by the sandbox's user
  if (!ec) fs::rename(tmp, target, ec);
  if (ec) fs::remove(tmp, ec);
  return fs::is_regular_file(target, ec);
}

}  // namespace

fs::path precompiled_header(const std::string& exercise, unsigned worker) {
  if (isolation().layer != Layer::Namespaces) return {};
  // One build per exercise at a time in this process: the other worker waits for it and then
  // uses it. A build that failed is not tried again by this process.
  static std::mutex table;
  static std::map<std::string, std::mutex> building;
  static std::set<std::string> failed;
  std::unique_lock<std::mutex> lock_table(table);
  std::mutex& mine = building[exercise];
  lock_table.unlock();
  std::lock_guard<std::mutex> lock(mine);
  {
    std::lock_guard<std::mutex> again(table);
    if (failed.count(exercise)) return {};
  }
  std::error_code ec;
  const fs::path dir = cache_entry(exercise, "", "").dir.parent_path() / "precompiled-headers";
  fs::create_directories(dir, ec);
  const std::string name = exercise + "-" + header_key(exercise) + ".gch";
  const fs::path file = dir / name;
  if (fs::is_regular_file(file, ec)) return file;
  if (!build_header(exercise, worker, file)) {
    std::lock_guard<std::mutex> again(table);
    failed.insert(exercise);
    return {};
  }
  // The ones made for an older kit, toolchain or builder are never used again; nor is what a
  // build stopped half-way left (an hour old: a build takes seconds, and may be running now).
  const auto stale = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string other = it->path().filename().string();
    if (other == name || other.rfind(exercise + "-", 0) != 0) continue;
    std::error_code ignored;
    const bool finished = it->path().extension() == ".gch";
    if (finished || it->last_write_time(ignored) < stale) fs::remove(it->path(), ignored);
  }
  return file;
}

std::vector<std::string> precompiled_header_flags(const std::string& exercise, const Stage& stage) {
  const fs::path file = precompiled_header(exercise, stage.jail.worker);
  if (file.empty()) return {};
  // A second name for the cached file where the sandbox can reach it (the cache is private to
  // the grader): the file stays the grader's, read-only to the sandbox's user. A copy where a
  // link cannot be made (another file system).
  const std::string name = std::string(kStageFolder) + "/" + exercise + ".hpp.gch";
  std::error_code ec;
  fs::create_directories(stage.host(kStageFolder), ec);
  fs::create_hard_link(file, stage.host(name), ec);
  if (ec && !stage.put(file, name)) return {};
  return {"-I" + stage.in(kStageFolder)};
}

std::vector<std::string> compile_command(const std::string& exercise, const Stage& stage,
                                         const std::string& source, const std::string& object,
                                         const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {compiler()};
  for (const auto& flag : compile_flags()) argv.push_back(flag);
  for (const auto& flag : precompiled_header_flags(exercise, stage)) argv.push_back(flag);
  argv.insert(argv.end(),
              {"-I" + stage.in("include/" + exercise), "-I" + stage.in("include/common")});
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"-c", source, "-o", object});
  return argv;
}

}  // namespace grader::build
