// build_runner: a submission's <ex>/<ex>.cpp compiled against the kit's headers and linked
// with that exercise's harness, cached by content.
//
// Cache layout, under <build>/submissions-cache/<exercise>/:
//   obj-<K>.o / obj-<K>.log    the compiled object and the compiler's messages (warnings)
//   obj-<K>.fail               a deterministic compile failure or rejected include, its log
//   run-<R> / run-<R>.log      the linked runner and the linker's messages
//   run-<R>.fail               a deterministic link failure (e.g. a function left undefined)
// K hashes the staged source, every kit header, the flags, the compiler, the builder's version,
// the sandbox layer and the compile's limits (object_key_inputs); R hashes K and the harness
// library's bytes. Everything is written under a unique temporary name and renamed
// into place, so concurrent builds from several threads or processes never see half a file.
#include "builder.hpp"

#include "sha256.hpp"

#include "build_log.hpp"
#include "grader_config.hpp"
#include "isolation.hpp"
#include "object_policy.hpp"
#include "read_file.hpp"
#include "sandbox.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <mutex>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace grader {

namespace {

// --- small file helpers ------------------------------------------------------------------

// A name no other thread or process will pick: pid, thread, counter.
std::string unique_suffix() {
  static std::atomic<unsigned long> counter{0};
  std::ostringstream s;
  s << ".tmp-" << ::getpid() << "-" << std::hash<std::thread::id>{}(std::this_thread::get_id())
    << "-" << counter++;
  return s.str();
}

// Writes through a temporary name and renames, so readers see the old file or the whole new one.
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

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

fs::path normal(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

bool is_under(const fs::path& file, const fs::path& dir) {
  const std::string f = file.string(), d = dir.string();
  return f.size() > d.size() && f.compare(0, d.size(), d) == 0 &&
         (d.back() == '/' || f[d.size()] == '/');
}

// --- what the kit fixes: compiler, flags, directories --------------------------------------

const fs::path kit_dir{LINATTN_SOURCE_DIR};
const fs::path exercises_dir = kit_dir / "exercises";

// Where the API headers a submission is compiled against come from: the pristine copies a
// student kit carries in grader/data/headers/ (recorded by the release, in the grader's folder,
// which the student does not edit), else the kit's own exercises/ (the instructors' kit).
const fs::path& header_dir() {
  static const fs::path dir = [] {
    const fs::path pristine = kit_dir / "grader" / "data" / "headers";
    std::error_code ec;
    return fs::is_directory(pristine, ec) ? pristine : exercises_dir;
  }();
  return dir;
}

std::vector<std::string> eigen_dirs() { return split(LINATTN_EIGEN_INCLUDE, ';'); }

std::vector<std::string> submission_flags() { return split(LINATTN_SUBMISSION_FLAGS, ' '); }

// The compiler's own include directories (libstdc++, libc, ...), asked once per process.
const std::vector<fs::path>& system_include_dirs() {
  static const std::vector<fs::path> dirs = [] {
    std::vector<fs::path> found;
    Limits limits;
    limits.wall_seconds = 60;
    limits.address_space_bytes = 4ull << 30;
    RunOutcome r = run_sandboxed({LINATTN_CXX, LINATTN_CXX_STANDARD, "-x", "c++", "-E", "-v",
                                  "/dev/null", "-o", "/dev/null"},
                                 fs::temp_directory_path(), limits);
    std::istringstream in(r.output);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
      if (line.rfind("#include <...> search starts here:", 0) == 0) inside = true;
      else if (line.rfind("End of search list.", 0) == 0) inside = false;
      else if (inside && !line.empty() && line[0] == ' ') found.push_back(normal(line.substr(1)));
    }
    return found;
  }();
  return dirs;
}

// The kit's headers a submission may include: each exercise's API header
// (exercises/<e>/<e>.hpp) and the shared headers in exercises/common/. Copies of them are
// staged beside the submission in include/, the only folder of the kit a compiler ever sees.
// All of them go into the object's key, so editing any kit header rebuilds whatever might
// depend on it.
std::vector<fs::path> kit_headers() {
  std::vector<fs::path> headers;
  std::error_code ec;
  for (auto it = fs::directory_iterator(header_dir() / "common", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".hpp" || ext == ".h")) headers.push_back(normal(it->path()));
  }
  for (const char* exercise : {LINATTN_EXERCISE_LIST}) {
    const fs::path api = header_dir() / exercise / (std::string(exercise) + ".hpp");
    if (fs::is_regular_file(api, ec)) headers.push_back(normal(api));
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

// Eigen's and the standard library's headers: found at the same paths inside the sandbox.
bool library_header(const fs::path& file) {
  const fs::path f = normal(file);
  for (const auto& d : eigen_dirs())
    if (is_under(f, normal(d))) return true;
  for (const auto& d : system_include_dirs())
    if (is_under(f, d)) return true;
  return false;
}

// The compiler binary behind LINATTN_CXX (through symlinks), with size and time: a compiler
// upgrade changes the key.
std::string compiler_identity() {
  const fs::path real = normal(LINATTN_CXX);
  struct stat st {};
  std::ostringstream s;
  s << LINATTN_CXX << " -> " << real.string();
  if (::stat(real.c_str(), &st) == 0) s << " " << st.st_size << " " << st.st_mtim.tv_sec;
  return s.str();
}

// The compiler as a path that exists inside the sandbox: /usr/bin/c++ is usually a link
// through /etc/alternatives, which the sandbox does not have.
const std::string& compiler() {
  static const std::string path = [] {
    std::error_code ec;
    const fs::path real = fs::canonical(LINATTN_CXX, ec);
    return ec ? std::string(LINATTN_CXX) : real.string();
  }();
  return path;
}

// gold links a runner in about a third of the time of the default linker (0.08 s against
// 0.22 s here), which matters when one edited file is regraded. Used where the compiler
// driver can find it in the sandbox; asked once per process, when something is first linked.
template <class Stage>
const std::vector<std::string>& linker_choice(const Stage& stage) {
  static std::once_flag once;
  static std::vector<std::string> choice;
  std::call_once(once, [&] {
    const RunOutcome r = stage.run({compiler(), "-fuse-ld=gold", "-Wl,--version"}, 30);
    if (r.ending == RunOutcome::Ending::Exited && r.exit_code == 0) choice = {"-fuse-ld=gold"};
  });
  return choice;
}

// The compiler's flags for a submission: the kit's standard and flags, Eigen as a system library.
std::vector<std::string> compile_flags() {
  std::vector<std::string> flags = {LINATTN_CXX_STANDARD};
  for (const auto& f : submission_flags()) flags.push_back(f);
  flags.push_back("-fdiagnostics-color=never");
  for (const auto& d : eigen_dirs()) {
    flags.push_back("-isystem");
    flags.push_back(d);
  }
  return flags;
}

// The time limit of a compile and of a link (a compile that runs out of it is remembered).
constexpr double kToolSeconds = 120;

// bubblewrap's own complaints (a folder it cannot mount, a program it cannot start) begin with
// its name: a fault of the grader's set-up, never remembered as the submission's failure.
bool sandbox_failed(const std::string& log) { return log.rfind("bwrap: ", 0) == 0; }

// What decides a build besides the source, the headers, the flags and the compiler: the way
// this file stages, confines and polices a build. Change it when any of that changes, and
// every cached object and runner is made again.
constexpr const char* kBuilderVersion =
    "builder v4: staged headers, source at <ex>/<ex>.cpp without #line, sandboxed compile and link, include policy v1, object policy v2, compile time-outs remembered";

// The cache of objects and runners: ours alone (mode 0700), so nothing else on the machine,
// and nothing run in the sandbox, can replace a runner between two grades.
fs::path private_cache_dir() {
  const fs::path dir = fs::path(LINATTN_BUILD_DIR) / "submissions-cache";
  std::error_code ec;
  fs::create_directories(dir, ec);
  ::chmod(dir.c_str(), 0700);
  return dir;
}

std::string whole_file_digest(const fs::path& path) {
  std::string bytes;
  if (!read_file(path, bytes)) return "";
  Sha256 h;
  h.add(bytes);
  return h.hex();
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
  std::string bytes;
  if (!read_file(path, bytes)) return "";
  Sha256 h;
  h.add(bytes);
  std::string digest = h.hex();
  std::lock_guard<std::mutex> lock(mutex);
  memo[id.str()] = digest;
  return digest;
}

// The dependency file written by -MD: "target: dep dep \<newline> dep ...", with spaces in
// names escaped as "\ " and '$' doubled.
std::vector<std::string> parse_depfile(const std::string& text) {
  std::vector<std::string> deps;
  std::size_t i = text.find(": ");
  if (i == std::string::npos) return deps;
  i += 2;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) deps.push_back(current);
    current.clear();
  };
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      const char next = text[i + 1];
      if (next == '\n') { flush(); ++i; continue; }
      if (next == ' ' || next == '#' || next == '\\') { current += next; ++i; continue; }
      current += c;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      current += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return deps;
}

// The line of the submission that mentions `file` in an #include, for a message that points
// at it; 1 if none is found (an include reached through a macro, say).
int include_line(const std::string& source, const fs::path& file) {
  std::istringstream in(source);
  std::string line;
  const std::string name = file.filename().string();
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("include") != std::string::npos && line.find(name) != std::string::npos) return n;
  return 1;
}

std::string ending_text(const RunOutcome& r, double limit) {
  switch (r.ending) {
    case RunOutcome::Ending::TimedOut:
      return "stopped after the build's time limit of " + std::to_string(static_cast<int>(limit)) + " s";
    case RunOutcome::Ending::Signaled: return "killed by " + signal_name(r.signal);
    case RunOutcome::Ending::LaunchFailed: return "could not start: " + r.launch_error;
    case RunOutcome::Ending::Exited: return "exit status " + std::to_string(r.exit_code);
  }
  return "";
}

Limits tool_limits(double seconds) {
  Limits limits;
  limits.wall_seconds = seconds;
  limits.address_space_bytes = 4ull << 30;   // cc1plus on Eigen needs well under this
  limits.file_size_bytes = 64ull << 20;       // an object or a runner is a few MB; .fill bombs are not
  limits.output_bytes_kept = 256ull << 10;
  return limits;
}

}  // namespace

std::vector<std::string> object_key_inputs(const std::string& source) {
  std::vector<std::string> inputs = {"source\n" + source};
  for (const auto& header : kit_headers()) {
    std::string text;
    read_file(header, text);
    inputs.push_back("header " + header.lexically_relative(normal(header_dir())).string() + "\n" + text);
  }
  for (const auto& arg : compile_flags()) inputs.push_back("flag " + arg);
  inputs.push_back("compiler " + compiler_identity());
  // How the builder stages, confines and polices a build (the include and object policies):
  // kBuilderVersion changes whenever any of that does.
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

namespace {

std::string capped_log(const RunOutcome& r) {
  std::string log = r.output;
  if (r.output_truncated())
    log += "\n[... " + std::to_string(r.output_bytes - r.output.size()) + " more bytes of messages not shown]\n";
  return log;
}

// Keeps a cache directory from growing without end as a student edits: once it holds more
// than `keep` files, the oldest go, but never one touched in the last three hours (a batch
// builds every runner before it runs any, and a large class takes a while; another
// thread may be about to run it). Warm hits refresh a runner's time, so this is least
// recently used. A removed log or object only costs a rebuild.
void prune(const fs::path& dir, std::size_t keep = 96) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    files.emplace_back(it->last_write_time(ec), it->path());
  if (files.size() <= keep) return;
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(3);
  for (std::size_t i = keep; i < files.size(); ++i)
    if (files[i].first < cutoff) fs::remove_all(files[i].second, ec);
}

// One confined run of the compiler driver in a fresh stage folder of its own. The stage is
// removed when this goes out of scope, whatever happened.
struct Stage {
  Jail jail;
  explicit Stage(unsigned worker) {
    jail.purpose = FilterPurpose::Build;
    jail.toolchain = true;
    jail.worker = worker;
    jail.work = make_jail_folder(jail);
  }
  ~Stage() { remove_jail_folder(jail.work); }
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;
  fs::path host(const std::string& name) const { return jail.work / name; }
  std::string in(const std::string& name) const { return inside(jail, jail.work / name); }
  // Copies a file into the stage, readable by the sandbox's user.
  bool put(const fs::path& from, const std::string& name) const {
    std::error_code ec;
    fs::create_directories(host(name).parent_path(), ec);
    fs::copy_file(from, host(name), fs::copy_options::overwrite_existing, ec);
    ::chmod(host(name).c_str(), 0644);
    chown_to_sandbox(host(name).parent_path());
    return !ec;
  }
  bool write(const std::string& name, const std::string& text) const {
    std::error_code ec;
    fs::create_directories(host(name).parent_path(), ec);
    std::ofstream(host(name), std::ios::binary) << text;
    chown_to_sandbox(host(name).parent_path());
    return fs::is_regular_file(host(name), ec);
  }
  void chown_to_sandbox(const fs::path& dir) const {
    const unsigned uid = worker_uid(jail.worker);
    if (uid != 0 && dir != jail.work) (void)::chown(dir.c_str(), uid, uid);
  }
  RunOutcome run(const std::vector<std::string>& argv, double seconds,
                 std::uint64_t output_kept = 256ull << 10) const {
    Limits limits = tool_limits(seconds);
    limits.output_bytes_kept = output_kept;
    Confinement c = confine(jail, argv, limits);
    return run_sandboxed(c.argv, c.cwd, limits);
  }
};

// A path the compiler printed, as seen inside: one relative to its working folder (the
// stage) made absolute, and normalized either way.
fs::path stage_path(const Stage& stage, const std::string& path) {
  const fs::path p(path);
  return (p.is_relative() ? fs::path(stage.in(path)) : p).lexically_normal();
}

}  // namespace

BuildResult build_runner(const std::string& exercise, const fs::path& submission_dir, unsigned worker,
                         const fs::path& source_file) {
  const auto start = std::chrono::steady_clock::now();
  BuildResult result;
  auto finish = [&](BuildResult& r) -> BuildResult {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  const std::string shown = exercise + "/" + exercise + ".cpp";  // the path the student knows
  const fs::path source_path =
      source_file.empty() ? submission_dir / exercise / (exercise + ".cpp") : source_file;

  std::error_code ec;
  std::string source;
  if (!fs::is_regular_file(source_path, ec) || !read_file(source_path, source)) {
    result.missing = true;
    result.log = "no " + shown + " in the submission " + submission_dir.string() + "\n";
    return finish(result);
  }
  const fs::path harness =
      fs::path(LINATTN_HARNESS_DIR) / ("liblinattn_harness_" + exercise + ".a");
  if (!fs::is_regular_file(harness, ec)) {
    result.log = "grader fault: no harness library " + harness.string() + " (build the kit first)\n";
    result.fault = true;
    return finish(result);
  }

  // The staged copy: the student's text as it is, at <stage>/<ex>/<ex>.cpp, compiled by that
  // relative path from the stage (the compiler's working folder in every layer), so messages
  // read "<ex>/<ex>.cpp:LINE:COL" and quote the student's line. It sits alone in a stage
  // folder with copies of the kit's headers in include/, and the compiler runs in the
  // sandbox, where that folder and /usr are all there is to see.
  const std::string& staged = source;
  const std::vector<fs::path> kit = kit_headers();

  const std::vector<std::string> flags = compile_flags();
  const std::string object_key = object_cache_key(staged);

  Sha256 runner_hash;
  runner_hash.add(object_key);
  runner_hash.add(file_digest(harness));
  runner_hash.add(std::string(kBuilderVersion) + " link: object, --whole-archive harness, -pthread");
  const std::string runner_key = runner_hash.hex().substr(0, 32);

  const fs::path cache = private_cache_dir() / exercise;
  fs::create_directories(cache, ec);
  const fs::path object = cache / ("obj-" + object_key + ".o");
  const fs::path object_log = cache / ("obj-" + object_key + ".log");
  const fs::path object_fail = cache / ("obj-" + object_key + ".fail");
  const fs::path runner = cache / ("run-" + runner_key);
  const fs::path runner_sum = cache / ("run-" + runner_key + ".sha256");
  const fs::path runner_log = cache / ("run-" + runner_key + ".log");
  const fs::path runner_fail = cache / ("run-" + runner_key + ".fail");

  // Warm paths: a known failure, or a runner already linked whose bytes are still the ones
  // we linked (the cache is ours alone, but a runner is run, not trusted: check every time).
  std::string text;
  if (read_file(object_fail, text)) {
    result.cached = true;
    result.log = text;
    return finish(result);
  }
  std::string recorded_sum;
  if (fs::is_regular_file(runner, ec) && read_file(runner_sum, recorded_sum) &&
      read_file(object_log, result.log)) {
    if (whole_file_digest(runner) == recorded_sum) {
      std::string link_log;
      if (read_file(runner_log, link_log)) result.log += link_log;
      fs::last_write_time(runner, fs::file_time_type::clock::now(), ec);  // recently used
      result.ok = true;
      result.cached = true;
      result.runner = runner;
      return finish(result);
    }
    fs::remove(runner, ec);  // changed since it was linked: link it again
    fs::remove(runner_sum, ec);
  }
  result.log.clear();
  if (read_file(runner_fail, text)) {
    std::string compile_log;
    read_file(object_log, compile_log);
    result.cached = true;
    result.log = compile_log + text;
    return finish(result);
  }

  // Compile, unless the object is already there.
  std::string compile_log;
  if (!fs::is_regular_file(object, ec) || !read_file(object_log, compile_log)) {
    const Stage stage(worker);
    const std::string& source_name = shown;  // relative to the compiler's working folder
    bool staged_ok = stage.write(source_name, staged);
    // The kit's layout, mirrored: an API header includes "../common/linattn.hpp".
    for (const auto& header : kit)
      staged_ok = stage.put(header, "include/" + header.lexically_relative(normal(header_dir())).string()) && staged_ok;
    if (!staged_ok) {
      result.log = "grader fault: cannot stage the submission in " + stage.jail.work.string() + "\n";
      result.fault = true;
      return finish(result);
    }
    std::vector<std::string> argv = {compiler()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-I" + stage.in("include/" + exercise), "-I" + stage.in("include/common"), "-MD", "-MF", stage.in("out.d"), "-c",
                             source_name, "-o", stage.in("out.o")});
    const double limit = kToolSeconds;
    const RunOutcome r = stage.run(argv, limit);
    if (r.ending == RunOutcome::Ending::LaunchFailed) {
      result.log = "grader fault: cannot start the compiler in the sandbox: " + r.launch_error + "\n";
      result.fault = true;
      return finish(result);
    }
    std::string raw_log = capped_log(r);
    if (sandbox_failed(raw_log)) {
      result.log = "grader fault: the sandbox could not start the compiler: " + raw_log;
      result.fault = true;
      return finish(result);
    }
    const std::string include_dir = stage.in("include");
    auto public_header = [&](const std::string& path) {
      return is_under(stage_path(stage, path), fs::path(include_dir)) || library_header(path);
    };
    compile_log = submission_only_log(raw_log, shown, public_header);
    const bool compiled = r.ending == RunOutcome::Ending::Exited && r.exit_code == 0;

    std::string rejected;
    if (compiled) {
      std::string deps_text;
      read_file(stage.host("out.d"), deps_text);
      const auto deps = parse_depfile(deps_text);
      for (const auto& dep : deps) {
        if (dep == source_name || public_header(dep)) continue;
        rejected += shown + ":" + std::to_string(include_line(source, dep)) + ": error: includes " +
                    dep + ", which is not one of the kit's headers, Eigen or the standard "
                    "library; a submission is its own .cpp file and may include only those\n";
      }
      if (deps.empty()) rejected = shown + ":1: error: grader fault: no dependency list from the compiler\n";
      // What the object holds: nothing that runs before the harness, nothing that replaces
      // what it relies on (object_policy.hpp). readelf runs in the sandbox like the compiler.
      const RunOutcome elf =
          stage.run({"/usr/bin/readelf", "-W", "-S", "-s", stage.in("out.o")}, 60, 64ull << 20);
      if (elf.ending != RunOutcome::Ending::Exited || elf.exit_code != 0 || elf.output_truncated()) {
        result.log = compile_log + "grader fault: cannot list the object's sections and symbols: " +
                     elf.output.substr(0, 300) + elf.launch_error + "\n";
        result.fault = true;
        return finish(result);
      }
      rejected += object_policy_violations(elf.output, shown);
    }

    if (!compiled || !rejected.empty()) {
      std::string log = compile_log + rejected;
      if (!compiled) {
        if (raw_log.find("No such file or directory") != std::string::npos)
          log += "note: only " + shown + " is taken from a submission; headers always come from "
                 "the kit (exercises/" + exercise + "/, exercises/common/), Eigen and the "
                 "standard library\n";
        if (r.ending != RunOutcome::Ending::Exited || r.exit_code == 0)
          log += "the compiler was " + ending_text(r, limit) + "\n";
      }
      // A compiler that reported errors, or an include refused, is a property of the text and
      // is remembered. So is running out of the compile's time (two minutes, against seconds
      // for any real submission): a file built to keep the compiler busy would otherwise cost
      // those minutes again on every grade. A crash of the compiler is not remembered.
      if (r.ending == RunOutcome::Ending::TimedOut)
        log += "note: this result is remembered; change the file to compile it again\n";
      if (!rejected.empty() || r.ending == RunOutcome::Ending::Exited ||
          r.ending == RunOutcome::Ending::TimedOut)
        write_file_atomically(object_fail, log);
      result.log = log;
      return finish(result);
    }
    write_file_atomically(object_log, compile_log);
    const fs::path tmp_object = object.string() + unique_suffix();
    fs::copy_file(stage.host("out.o"), tmp_object, ec);
    if (!ec) fs::rename(tmp_object, object, ec);
    if (ec) fs::remove(tmp_object, ec);
    if (ec) {
      result.log = compile_log + "grader fault: cannot store " + object.string() + ": " + ec.message() + "\n";
      result.fault = true;
      return finish(result);
    }
  }

  // Link, in a stage of its own: the student's object and the whole harness (its main, meter
  // and bindings register themselves from static initialisers, which a plain archive link
  // would drop).
  const Stage stage(worker);
  if (!stage.put(object, "student.o") || !stage.put(harness, "harness.a")) {
    result.log = compile_log + "grader fault: cannot stage the link in " + stage.jail.work.string() + "\n";
    result.fault = true;
    return finish(result);
  }
  std::vector<std::string> link = {compiler(), stage.in("student.o")};
  const auto& linker = linker_choice(stage);
  link.insert(link.end(), linker.begin(), linker.end());
  link.insert(link.end(), {"-Wl,--whole-archive", stage.in("harness.a"), "-Wl,--no-whole-archive",
                           "-pthread", "-o", stage.in("runner")});
  const double limit = kToolSeconds;
  const RunOutcome r = stage.run(link, limit);
  if (r.ending == RunOutcome::Ending::LaunchFailed) {
    result.log = compile_log + "grader fault: cannot start the linker in the sandbox: " + r.launch_error + "\n";
    result.fault = true;
    return finish(result);
  }
  std::string link_log = capped_log(r);
  if (sandbox_failed(link_log)) {
    result.log = compile_log + "grader fault: the sandbox could not start the linker: " + link_log;
    result.fault = true;
    return finish(result);
  }
  replace_all(link_log, stage.in("student.o"), shown);
  replace_all(link_log, stage.in("runner"), "the runner");
  link_log = submission_only_log(link_log, shown, [](const std::string&) { return false; });
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    std::string log = link_log;
    if (log.find("undefined reference") != std::string::npos)
      log += "note: every function declared in exercises/" + exercise + "/" + exercise +
             ".hpp needs a definition in " + shown + ", with exactly that signature (a stub that "
             "throws NotImplemented is fine); a header of your own in the submission is not used\n";
    if (r.ending == RunOutcome::Ending::Exited) write_file_atomically(runner_fail, log);
    else log += "the linker was " + ending_text(r, limit) + "\n";
    result.log = compile_log + log;
    return finish(result);
  }
  write_file_atomically(runner_log, link_log);
  const fs::path tmp_runner = runner.string() + unique_suffix();
  fs::copy_file(stage.host("runner"), tmp_runner, ec);
  if (!ec) ::chmod(tmp_runner.c_str(), 0700);
  if (!ec) write_file_atomically(runner_sum, whole_file_digest(tmp_runner));
  if (!ec) fs::rename(tmp_runner, runner, ec);
  if (ec) {
    fs::remove(tmp_runner, ec);
    result.log = compile_log + "grader fault: cannot store " + runner.string() + "\n";
    result.fault = true;
    return finish(result);
  }
  prune(cache);
  result.ok = true;
  result.log = compile_log + link_log;
  result.runner = runner;
  return finish(result);
}

ScratchBuild build_scratch(const std::string& exercise,
                           const std::vector<std::pair<std::string, std::string>>& sources) {
  ScratchBuild result;
  const Stage stage(0);
  std::vector<std::string> argv = {compiler(), LINATTN_CXX_STANDARD};
  for (const auto& f : submission_flags()) argv.push_back(f);
  argv.push_back("-fdiagnostics-color=never");
  for (const auto& d : eigen_dirs()) argv.insert(argv.end(), {"-isystem", d});
  argv.insert(argv.end(), {"-I" + stage.in("include/" + exercise), "-I" + stage.in("include/common")});
  bool staged_ok = true;
  for (const auto& header : kit_headers())
    staged_ok = stage.put(header, "include/" + header.lexically_relative(normal(header_dir())).string()) && staged_ok;
  // Each source at its own relative path in the stage, compiled by that path (see build_runner).
  for (const auto& [name, text] : sources) {
    staged_ok = stage.write(name, text) && staged_ok;
    argv.push_back(name);
  }
  if (!staged_ok) {
    result.log = "grader fault: cannot stage the sources\n";
    return result;
  }
  argv.insert(argv.end(), {"-pthread", "-o", stage.in("program")});
  const RunOutcome r = stage.run(argv, 240);
  std::string log = capped_log(r);
  replace_all(log, stage.in("program"), "the program");
  auto own = [&](const std::string& path) {
    for (const auto& source : sources)
      if (path == source.first) return true;
    return false;
  };
  result.log = own_files_only_log(log, own, [&](const std::string& path) {
    return is_under(stage_path(stage, path), fs::path(stage.in("include"))) || library_header(path);
  });
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    if (r.ending != RunOutcome::Ending::Exited) result.log += "the compiler was " + ending_text(r, 240) + "\n";
    return result;
  }
  std::string pattern = (fs::temp_directory_path() / "linattn-try-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    result.log += "grader fault: cannot make a folder for the program\n";
    return result;
  }
  result.program = fs::path(pattern) / "program";
  std::error_code ec;
  fs::copy_file(stage.host("program"), result.program, ec);
  ::chmod(result.program.c_str(), 0755);
  result.ok = !ec;
  return result;
}

// A linker's "undefined reference" line names the harness function that made the call and
// spells Eigen's types in full; a student needs only the missing function, in the API's words.
std::string readable_link_error(const std::string& line) {
  const std::string marker = "undefined reference to ";
  const auto at = line.find(marker);
  if (at == std::string::npos) return line;
  std::string what = line.substr(at + marker.size());
  replace_all(what, "Eigen::Matrix<double, -1, -1, 0, -1, -1>", "Matrix");
  replace_all(what, "Eigen::Matrix<double, -1, 1, 0, -1, 1>", "Vector");
  replace_all(what, "std::function<Matrix (Matrix const&)>", "FeatureMap");
  replace_all(what, "linattn::", "");
  return "error: no definition of " + what + " (the signature the kit's header declares)";
}

std::vector<std::string> edited_headers() {
  std::vector<std::string> edited;
  if (normal(header_dir()) == normal(exercises_dir)) return edited;
  for (const auto& pristine : kit_headers()) {
    const fs::path rel = pristine.lexically_relative(normal(header_dir()));
    std::string kept, local;
    read_file(pristine, kept);
    if (!read_file(exercises_dir / rel, local) || local != kept) edited.push_back("exercises/" + rel.string());
  }
  return edited;
}

std::string first_errors(const std::string& log, int max_lines) {
  // "file:line: error: ..." or "file:line:col: fatal error: ...".
  static const std::regex located(R"(^[^\s:][^:]*:\d+(:\d+)?: (fatal )?error: .*)");
  // The source line gcc quotes under a message and its caret line: "    4 | }", "      | ^".
  static const std::regex excerpt(R"(^\s*\d*\s*\|.*)");
  std::vector<std::string> lines, fallback;
  std::istringstream in(log);
  std::string line;
  bool quoting = false;  // after a located error: its excerpt goes with it
  while (std::getline(in, line)) {
    if (std::regex_match(line, located)) {
      lines.push_back(line);
      quoting = true;
      continue;
    }
    if (quoting && std::regex_match(line, excerpt)) {
      lines.back() += "\n" + line;
      continue;
    }
    quoting = false;
    if (line.find("undefined reference") != std::string::npos || line.find("error:") != std::string::npos)
      fallback.push_back(readable_link_error(line));
  }
  if (lines.empty()) lines = fallback;  // link errors carry no line numbers
  std::string out;
  for (int i = 0; i < static_cast<int>(lines.size()) && i < max_lines; ++i) out += lines[i] + "\n";
  // The builder's own explanations ("note: ..." at the start of a line) always follow: they
  // say what a bare compiler or linker message does not, e.g. that headers come from the kit.
  std::istringstream notes(log);
  while (std::getline(notes, line))
    if (line.rfind("note: ", 0) == 0) out += line + "\n";
  return out;
}

}  // namespace grader
