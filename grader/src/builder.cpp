// build_runner: a submission's <ex>/<ex>.cpp compiled against the kit's headers and linked
// with that exercise's harness, cached by content.
//
// Cache layout, under <build>/submissions-cache/<exercise>/:
//   obj-<K>.o / obj-<K>.log    the compiled object and the compiler's messages (warnings)
//   obj-<K>.fail               a deterministic compile failure or rejected include, its log
//   run-<R> / run-<R>.log      the linked runner and the linker's messages
//   run-<R>.fail               a deterministic link failure (e.g. a function left undefined)
// K hashes the staged source, every kit header, the flags and the compiler; R hashes K and the
// harness library's bytes. Everything is written under a unique temporary name and renamed
// into place, so concurrent builds from several threads or processes never see half a file.
#include "builder.hpp"

#include "sha256.hpp"

#include "grader_config.hpp"
#include "sandbox.hpp"

#include <sys/stat.h>
#include <unistd.h>

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

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

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

// Every file of the kit a submission may include: each exercise's API header
// (exercises/<e>/<e>.hpp) and the shared headers in exercises/common/. Nothing else under
// exercises/ counts, so a helper header a student adds next to their file in their copy of
// the kit is refused like any other outside file. All of them go into the object's key, so
// editing any kit header rebuilds whatever might depend on it.
std::vector<fs::path> kit_headers() {
  std::vector<fs::path> headers;
  std::error_code ec;
  for (auto it = fs::directory_iterator(exercises_dir / "common", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".hpp" || ext == ".h")) headers.push_back(normal(it->path()));
  }
  for (const char* exercise : {LINATTN_EXERCISE_LIST}) {
    const fs::path api = exercises_dir / exercise / (std::string(exercise) + ".hpp");
    if (fs::is_regular_file(api, ec)) headers.push_back(normal(api));
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

bool allowed_include(const fs::path& file, const std::vector<fs::path>& kit) {
  const fs::path f = normal(file);
  if (std::find(kit.begin(), kit.end(), f) != kit.end()) return true;
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

// gold links a runner in about a third of the time of the default linker (0.08 s against
// 0.22 s here), which matters when one edited file is regraded. Used where the compiler
// driver can find it; asked once per process, and only when something has to be linked.
const std::vector<std::string>& linker_choice() {
  static const std::vector<std::string> choice = [] {
    Limits limits;
    limits.wall_seconds = 30;
    limits.address_space_bytes = 4ull << 30;
    RunOutcome r = run_sandboxed({LINATTN_CXX, "-fuse-ld=gold", "-Wl,--version"},
                                 fs::temp_directory_path(), limits);
    const bool gold = r.ending == RunOutcome::Ending::Exited && r.exit_code == 0;
    return gold ? std::vector<std::string>{"-fuse-ld=gold"} : std::vector<std::string>{};
  }();
  return choice;
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
  limits.file_size_bytes = 512ull << 20;
  limits.output_bytes_kept = 256ull << 10;
  return limits;
}

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

}  // namespace

BuildResult build_runner(const std::string& exercise, const fs::path& submission_dir) {
  const auto start = std::chrono::steady_clock::now();
  BuildResult result;
  auto finish = [&](BuildResult& r) -> BuildResult {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  const std::string shown = exercise + "/" + exercise + ".cpp";  // the path the student knows
  const fs::path source_path = submission_dir / exercise / (exercise + ".cpp");

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

  // The staged copy: the student's text under a #line that keeps messages on their own path.
  // It sits alone in a directory of its own, so `#include "x.hpp"` cannot find a header the
  // student put next to their file; headers come from the kit's include directories only.
  std::string staged = "#line 1 \"" + shown + "\"\n" + source;
  if (!source.empty() && source.back() != '\n') staged += '\n';

  std::vector<std::string> compile = {LINATTN_CXX, LINATTN_CXX_STANDARD};
  for (const auto& f : submission_flags()) compile.push_back(f);
  compile.push_back("-fdiagnostics-color=never");
  compile.push_back("-I" + (exercises_dir / exercise).string());
  compile.push_back("-I" + (exercises_dir / "common").string());
  for (const auto& d : eigen_dirs()) {
    compile.push_back("-isystem");
    compile.push_back(d);
  }

  Sha256 object_hash;
  object_hash.add(staged);
  const std::vector<fs::path> kit = kit_headers();
  for (const auto& header : kit) {
    std::string text;
    read_file(header, text);
    object_hash.add(header.string());
    object_hash.add(text);
  }
  for (const auto& arg : compile) object_hash.add(arg);
  object_hash.add(compiler_identity());
  const std::string object_key = object_hash.hex().substr(0, 32);

  Sha256 runner_hash;
  runner_hash.add(object_key);
  runner_hash.add(file_digest(harness));
  // The link recipe, by name: change the string when changing how runners are linked. (Gold
  // or the default linker give equivalent programs, so which one is not part of the key.)
  runner_hash.add(std::string("link v1: object, --whole-archive harness, -pthread"));
  const std::string runner_key = runner_hash.hex().substr(0, 32);

  const fs::path cache = fs::path(LINATTN_BUILD_DIR) / "submissions-cache" / exercise;
  fs::create_directories(cache, ec);
  const fs::path object = cache / ("obj-" + object_key + ".o");
  const fs::path object_log = cache / ("obj-" + object_key + ".log");
  const fs::path object_fail = cache / ("obj-" + object_key + ".fail");
  const fs::path runner = cache / ("run-" + runner_key);
  const fs::path runner_log = cache / ("run-" + runner_key + ".log");
  const fs::path runner_fail = cache / ("run-" + runner_key + ".fail");

  // Warm paths: a known failure, or a runner already linked.
  std::string text;
  if (read_file(object_fail, text)) {
    result.cached = true;
    result.log = text;
    return finish(result);
  }
  if (fs::is_regular_file(runner, ec) && read_file(object_log, result.log)) {
    std::string link_log;
    if (read_file(runner_log, link_log)) result.log += link_log;
    fs::last_write_time(runner, fs::file_time_type::clock::now(), ec);  // recently used
    result.ok = true;
    result.cached = true;
    result.runner = runner;
    return finish(result);
  }
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
    const fs::path stage = cache / ("stage-" + object_key + unique_suffix());
    fs::create_directories(stage, ec);
    const fs::path staged_path = stage / (exercise + ".cpp");
    const fs::path tmp_object = stage / "out.o";
    const fs::path depfile = stage / "out.d";
    std::ofstream(staged_path, std::ios::binary) << staged;
    std::vector<std::string> argv = compile;
    argv.insert(argv.end(), {"-MD", "-MF", depfile.string(), "-c", staged_path.string(), "-o",
                             tmp_object.string()});
    const Limits limits = tool_limits(120);
    RunOutcome r = run_sandboxed(argv, stage, limits);
    compile_log = capped_log(r);
    replace_all(compile_log, staged_path.string(), shown);
    const bool compiled = r.ending == RunOutcome::Ending::Exited && r.exit_code == 0;

    std::string rejected;
    if (compiled) {
      std::string deps_text;
      read_file(depfile, deps_text);
      const auto deps = parse_depfile(deps_text);
      for (std::size_t i = 0; i < deps.size(); ++i) {
        if (normal(deps[i]) == normal(staged_path)) continue;  // the submission itself
        if (allowed_include(deps[i], kit)) continue;
        rejected += shown + ":" + std::to_string(include_line(source, deps[i])) +
                    ": error: includes " + normal(deps[i]).string() +
                    ", which is not one of the kit's headers, Eigen or the standard library; a "
                    "submission is its own .cpp file and may include only those\n";
      }
      if (deps.empty()) rejected = shown + ":1: error: grader fault: no dependency list from the compiler\n";
    }

    if (!compiled || !rejected.empty()) {
      std::string log = compile_log + rejected;
      if (!compiled) {
        if (log.find("No such file or directory") != std::string::npos)
          log += "note: only " + shown + " is taken from a submission; headers always come from "
                 "the kit (exercises/" + exercise + "/, exercises/common/), Eigen and the "
                 "standard library\n";
        if (r.ending != RunOutcome::Ending::Exited || r.exit_code == 0)
          log += "the compiler was " + ending_text(r, limits.wall_seconds) + "\n";
      }
      // A compiler that reported errors, or an include refused, is a property of the text and
      // is remembered; a time-out or a crash of the compiler may not be, and is not.
      if (!rejected.empty() || r.ending == RunOutcome::Ending::Exited)
        write_file_atomically(object_fail, log);
      fs::remove_all(stage, ec);
      result.log = log;
      return finish(result);
    }
    write_file_atomically(object_log, compile_log);
    fs::rename(tmp_object, object, ec);
    fs::remove_all(stage, ec);
    if (ec) {
      result.log = compile_log + "grader fault: cannot store " + object.string() + ": " + ec.message() + "\n";
      result.fault = true;
      return finish(result);
    }
  }

  // Link: the student's object and the whole harness (its main, meter and bindings register
  // themselves from static initialisers, which a plain archive link would drop).
  const fs::path tmp_runner = runner.string() + unique_suffix();
  std::vector<std::string> link = {LINATTN_CXX, object.string()};
  const auto& linker = linker_choice();
  link.insert(link.end(), linker.begin(), linker.end());
  link.insert(link.end(), {"-Wl,--whole-archive", harness.string(), "-Wl,--no-whole-archive",
                           "-pthread", "-o", tmp_runner.string()});
  const Limits limits = tool_limits(120);
  RunOutcome r = run_sandboxed(link, cache, limits);
  std::string link_log = capped_log(r);
  replace_all(link_log, object.string(), shown);
  replace_all(link_log, tmp_runner.string(), "the runner");
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    fs::remove(tmp_runner, ec);
    std::string log = link_log;
    if (log.find("undefined reference") != std::string::npos)
      log += "note: every function declared in exercises/" + exercise + "/" + exercise +
             ".hpp needs a definition in " + shown + ", with exactly that signature (a stub that "
             "throws NotImplemented is fine); a header of your own in the submission is not used\n";
    if (r.ending == RunOutcome::Ending::Exited) write_file_atomically(runner_fail, log);
    else log += "the linker was " + ending_text(r, limits.wall_seconds) + "\n";
    result.log = compile_log + log;
    return finish(result);
  }
  write_file_atomically(runner_log, link_log);
  fs::rename(tmp_runner, runner, ec);
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

std::string first_errors(const std::string& log, int max_lines) {
  // "file:line: error: ..." or "file:line:col: fatal error: ...".
  static const std::regex located(R"(^[^\s:][^:]*:\d+(:\d+)?: (fatal )?error: .*)");
  std::vector<std::string> lines, fallback;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (std::regex_match(line, located)) lines.push_back(line);
    else if (line.find("undefined reference") != std::string::npos ||
             line.find("error:") != std::string::npos)
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
