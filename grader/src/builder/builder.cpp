// build_runner: a submission's <ex>/<ex>.cpp compiled against the kit's headers and linked
// with that exercise's harness, cached by content (build_scratch.cpp builds ./kit try's
// program). This file holds the steps of a build; what they rely on has a file of its own:
//   build_toolchain     the compiler, its flags and include folders, fixed by the kit
//   build_include_policy which headers a submission may include, and what it is told if not
//   build_depfile       reading the compiler's -MD dependency list
//   build_cache         keys, the cache's files and their checks, the private folder
//   build_stage         one confined run of a build tool in a stage folder of its own
//   build_linker_probe  gold when the sandbox has it
//   build_pch           the exercise's header, precompiled once, for faster compiles
//   build_error_text    what a report shows first of a failed build (first_errors)
#include "builder.hpp"
#include "../sandbox/outside_kill.hpp"
#include "../sandbox/program_copy.hpp"

#include "../util/find_files.hpp"
#include "../util/read_file.hpp"
#include "../util/sha256.hpp"
#include "build_cache.hpp"
#include "build_depfile.hpp"
#include "build_include_policy.hpp"
#include "build_linker_probe.hpp"
#include "build_log.hpp"
#include "build_paths.hpp"
#include "build_pch.hpp"
#include "build_stage.hpp"
#include "build_toolchain.hpp"
#include "builder_sources.hpp"
#include "elf_symbols.hpp"
#include "grader_config.hpp"
#include "object_policy.hpp"
#include "runner_symbols.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>
#include <system_error>

namespace fs = std::filesystem;

namespace grader {

using namespace build;

BuildResult build_runner(const std::string& exercise, const fs::path& submission_dir,
                         unsigned worker) {
  // Through the finder's door (find_files.hpp): no link followed, at most kMaxSourceBytes.
  const std::string shown = exercise + "/" + exercise + ".cpp";
  SubmissionFile file = read_submission_file(submission_dir, shown);
  if (file.ok()) return build_runner_from_source(exercise, file.bytes, worker);
  BuildResult result;
  const bool missing = file.status == SubmissionFile::Status::Absent;
  result.status = missing ? BuildResult::Status::Missing : BuildResult::Status::Failed;
  result.log = missing ? "no " + shown + " in the submission " + submission_dir.string() + "\n"
                       : file.problem + "\n";
  return result;
}

namespace {

// A failure of the grader itself during a build: thrown by a step, turned into the result in
// one place (build_runner_from_source), whatever the step.
// A compiler or linker killed from outside its limits (sandbox/outside_kill.hpp): the
// machine ran short, not the submission; never remembered in the cache.
struct KilledFromOutside : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct BuildFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a build asks of the toolchain once per process: the compiler's include folders (the
// include policy), whether the sandbox has gold, the runtime libraries and the harness's
// symbols (the object policy). Each is a sandboxed run of the compiler driver or a read of a
// library, tens of milliseconds, asked one after another after the compile unless asked here,
// beside it, on another core. Each answer is made once (thread-safe statics): a later
// question waits for it, and one that failed here is asked again, and fails, where it is
// needed, so its error lands where it always did.
std::future<void> ask_toolchain_beside_compile(const fs::path& harness, unsigned worker) {
  return std::async(std::launch::async, [harness, worker] {
    try {
      system_include_dirs();
      runner_libraries();
      runner_symbols_of(harness);
      const Stage stage(worker);
      linker_choice(stage);
    } catch (const std::exception&) {
      // Asked again where needed (above).
    }
  });
}

// Runs a build tool (the compiler or the linker) in its stage, for at most kToolSeconds, with
// its messages, capped, in `log`. A tool that cannot start, or that was killed from outside its
// limits (the machine ran short), is the grader's fault: thrown, never the submission's.
RunOutcome run_build_tool(const Stage& stage, const std::vector<std::string>& argv,
                          const std::string& tool, std::string& log) {
  const RunOutcome r = stage.run(argv, kToolSeconds);
  if (r.ending == RunOutcome::Ending::LaunchFailed)
    throw BuildFault("cannot start the " + tool + " in the sandbox: " + r.launch_error);
  log = capped_log(r);
  if (const auto how = tool_killed_from_outside(r))
    throw KilledFromOutside("the " + tool + " was killed from outside its limits: " + *how);
  return r;
}

// The steps of build_runner_from_source. `result.log` holds what the student is shown so far
// (the compiler's messages once it ran), which a fault's text follows.
// Compiles the student's text into the cache's object (entry.object, its log beside it), unless
// it is already there. Returns the compiler's messages, trimmed to the student's file; nothing
// when it did not compile or an include was refused (result.log then says why).
std::optional<std::string> compiled_object(const std::string& exercise, const std::string& source,
                                           const fs::path& harness, const CacheEntry& entry,
                                           unsigned worker, BuildResult& result) {
  const std::string shown = exercise + "/" + exercise + ".cpp";  // the path the student knows
  std::string compile_log;
  std::error_code ec;
  if (fs::is_regular_file(entry.object, ec) && read_file(entry.object_log, compile_log))
    return compile_log;
  const std::future<void> toolchain = ask_toolchain_beside_compile(harness, worker);
  // The staged copy: the student's text as it is, at <stage>/<ex>/<ex>.cpp, compiled by that
  // relative path from the stage (the compiler's working folder in every layer), so messages
  // read "<ex>/<ex>.cpp:LINE:COL" and quote the student's line. It sits alone in a stage
  // folder with copies of the kit's headers in include/, and the compiler runs in the
  // sandbox, where that folder and /usr are all there is to see.
  const Stage stage(worker);
  const std::string& source_name = shown;  // relative to the compiler's working folder
  const bool staged_ok = stage.write(source_name, source) && put_kit_headers(stage);
  if (!staged_ok) throw BuildFault("cannot stage the submission in " + stage.jail.work.string());
  const std::vector<std::string> argv = compile_command(
      exercise, stage, source_name, stage.in("out.o"), {"-MD", "-MF", stage.in("out.d")});
  const double limit = kToolSeconds;
  std::string raw_log;
  const RunOutcome r = run_build_tool(stage, argv, "compiler", raw_log);
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
    rejected =
        refused_includes(parse_depfile(deps_text), source_name, shown, source, public_header);
  }
  if (!compiled || !rejected.empty()) {
    std::string log = compile_log + rejected;
    if (!compiled) {
      if (raw_log.find("No such file or directory") != std::string::npos)
        log += "note: only " + shown +
               " is taken from a submission; headers always come from "
               "the kit (exercises/" +
               exercise +
               "/, exercises/common/), Eigen and the "
               "standard library\n";
      if (r.ending != RunOutcome::Ending::Exited || r.exit_code == 0)
        log += "note: the compiler was " + ending_text(r, limit) + "\n";
    }
    // A compiler that reported errors, or an include refused, is a property of the text and
    // is remembered. So is running out of the compile's time (two minutes, against seconds
    // for any real submission): a file built to keep the compiler busy would otherwise cost
    // those minutes again on every grade. A crash of the compiler is not remembered.
    if (r.ending == RunOutcome::Ending::TimedOut)
      log += "note: this result is remembered; change the file to compile it again\n";
    if (!rejected.empty() || r.ending == RunOutcome::Ending::Exited ||
        r.ending == RunOutcome::Ending::TimedOut)
      write_file_atomically(entry.object_fail, log);
    result.log = log;
    return std::nullopt;
  }
  write_file_atomically(entry.object_log, compile_log);
  const fs::path tmp_object = entry.object.string() + unique_suffix();
  fs::copy_file(stage.host("out.o"), tmp_object, ec);
  if (!ec) fs::rename(tmp_object, entry.object, ec);
  if (ec) {
    std::error_code ignored;  // keep ec: it says why the store failed
    fs::remove(tmp_object, ignored);
    result.log = compile_log;
    throw BuildFault("cannot store " + entry.object.string() + ": " + ec.message());
  }
  return compile_log;
}

// Links the harness and the student's object into the cache's runner (entry.runner); `result`
// says how it went, after the compiler's messages.
void link_runner(const std::string& exercise, const fs::path& harness, const CacheEntry& entry,
                 const ElfContents& object, const RunnerSymbols& runner_names, unsigned worker,
                 const std::string& compile_log, BuildResult& result) {
  const std::string shown = exercise + "/" + exercise + ".cpp";
  // Link, in a stage of its own: the whole harness (its main, meter and bindings register
  // themselves from static initialisers, which a plain archive link would drop), then the
  // student's object. The harness comes first so that where both hold a weak copy of the
  // same inline function (Eigen's, the standard library's), the harness's copy is kept.
  const Stage stage(worker);
  if (!stage.put(entry.object, "student.o") || !stage.put(harness, "harness.a"))
    throw BuildFault("cannot stage the link in " + stage.jail.work.string());
  const std::string hidden =
      hide_symbols(stage.host("student.o"), library_copies(object, runner_names));
  if (!hidden.empty()) {
    result.log = compile_log + shown +
                 ": error: the compiled object cannot be prepared for the link: " + hidden + "\n";
    return;
  }
  // -fno-lto: no linker plugin, so no intermediate code in an object is compiled at the link
  // (the policy refuses such sections too); the harness has none.
  std::vector<std::string> link = {compiler(), "-fno-lto"};
  const auto& linker = linker_choice(stage);
  link.insert(link.end(), linker.begin(), linker.end());
  link.insert(link.end(), {"-Wl,--whole-archive", stage.in("harness.a"), "-Wl,--no-whole-archive",
                           stage.in("student.o"), "-pthread", "-o", stage.in("runner")});
  const double limit = kToolSeconds;
  std::string link_log;
  const RunOutcome r = run_build_tool(stage, link, "linker", link_log);
  replace_all(link_log, stage.in("student.o"), shown);
  replace_all(link_log, stage.in("runner"), "the runner");
  link_log = submission_only_log(link_log, shown, [](const std::string&) { return false; });
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    std::string log = link_log;
    if (log.find("undefined reference") != std::string::npos)
      log += "note: every function declared in exercises/" + exercise + "/" + exercise +
             ".hpp needs a definition in " + shown +
             ", with exactly that signature (a stub that "
             "throws NotImplemented is fine); a header of your own in the submission is not used\n";
    if (r.ending == RunOutcome::Ending::Exited) write_file_atomically(entry.runner_fail, log);
    else log += "note: the linker was " + ending_text(r, limit) + "\n";
    result.log = compile_log + log;
    return;
  }
  write_file_atomically(entry.runner_log, link_log);
  const fs::path tmp_runner = entry.runner.string() + unique_suffix();
  std::error_code ec;
  copy_program(stage.host("runner"), tmp_runner, 0700, ec);
  if (!ec) store_digest(tmp_runner, entry.runner_sum, ec);
  if (!ec) fs::rename(tmp_runner, entry.runner, ec);
  if (ec) {
    std::error_code ignored;  // keep ec: it says why the store failed
    fs::remove(tmp_runner, ignored);
    throw BuildFault("cannot store " + entry.runner.string() + ": " + ec.message());
  }
  prune(entry.dir);
  result.status = BuildResult::Status::Built;
  result.log = compile_log + link_log;
  result.runner = entry.runner;
}

void build_steps(const std::string& exercise, const std::string& source, unsigned worker,
                 BuildResult& result) {
  const std::string shown = exercise + "/" + exercise + ".cpp";  // the path the student knows
  std::error_code ec;
  const fs::path harness =
      fs::path(LINATTN_HARNESS_DIR) / ("liblinattn_harness_" + exercise + ".a");
  if (!fs::is_regular_file(harness, ec))
    throw BuildFault("no harness library " + harness.string() + " (build the kit first)");

  const std::string object_key = object_cache_key(source);
  const std::string runner_key = build::runner_key(object_key, harness);
  const CacheEntry entry = cache_entry(exercise, object_key, runner_key);
  if (answer_from_cache(entry, result)) return;
  const std::optional<std::string> compile_log =
      compiled_object(exercise, source, harness, entry, worker, result);
  if (!compile_log) return;
  result.log = *compile_log;

  // What the object holds, read with libelf: nothing that runs before the harness, nothing
  // that takes the place of what the harness or the libraries define or call
  // (object_policy.hpp). Checked against this harness, so at each link; a refusal is
  // remembered with the runner's key, like a failed link.
  const auto runner_names = runner_symbols_of(harness);
  if (!runner_names->error.empty()) throw BuildFault(runner_names->error);
  const ElfContents object = read_elf(entry.object);
  const std::string refused = object_policy_violations(object, *runner_names, shown);
  if (!refused.empty()) {
    write_file_atomically(entry.runner_fail, refused);
    result.log = *compile_log + refused;
    return;
  }
  link_runner(exercise, harness, entry, object, *runner_names, worker, *compile_log, result);
}

}  // namespace

BuildResult build_runner_from_source(const std::string& exercise, const std::string& source,
                                     unsigned worker) {
  const auto start = std::chrono::steady_clock::now();
  BuildResult result;
  try {
    build_steps(exercise, source, worker, result);
  } catch (const KilledFromOutside& e) {
    result.status = BuildResult::Status::KilledFromOutside;
    result.runner.clear();
    result.log += std::string(e.what()) + "\n";
  } catch (const std::exception& e) {
    // The one fault path: a BuildFault of a step, or anything else thrown on the way (the
    // sandbox's set-up, the file system). Never the submission's doing.
    std::string what = e.what();
    if (what.empty() || what.back() != '\n') what += "\n";
    result.status = BuildResult::Status::Fault;
    result.runner.clear();
    result.log += "grader fault: " + what;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace grader
