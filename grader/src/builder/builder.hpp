// Building one exercise of a submission into its runner program: the student's .cpp compiled
// with the kit's headers and flags, linked with that exercise's harness. Results are cached
// by content, so a warm grade compiles nothing and editing one file rebuilds only its runner.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace grader {

struct BuildResult {
  // How the build ended, as a check's Status says how a check did.
  enum class Status {
    Built,    // `runner` is the program to run
    Failed,   // the submission's own doing: it does not compile or link, or was refused
    Missing,  // the submission has no such file
    Fault,    // the grader's own failure (no harness, a full disk, a sandbox that did not start)
    // The compiler or linker was killed from outside its limits (out of memory): the machine's
    // doing; the engine builds it again alone (sandbox/outside_kill.hpp).
    KilledFromOutside,
  };
  Status status = Status::Failed;
  bool ok() const { return status == Status::Built; }
  bool cached = false;  // nothing was compiled
  double seconds = 0.0;
  std::string log;               // compiler and linker output, paths shown as the student's
  std::filesystem::path runner;  // the program to run, if ok
};

// exercise: "causal"; source: the bytes of the student's file (find_files.hpp read them through
// its door: the builder never opens a submission's file itself). The compiler and the
// linker run in the sandbox (isolation.hpp); `worker` picks the user id they run under in the
// chroot layer, so that builds running side by side never share one.
BuildResult build_runner_from_source(const std::string& exercise, const std::string& source,
                                     unsigned worker = 0);
// The same for <submission_dir>/<ex>/<ex>.cpp, read through find_files.hpp's door.
BuildResult build_runner(const std::string& exercise, const std::filesystem::path& submission_dir,
                         unsigned worker = 0);

// What decides whether a submission's source compiles, and to what, each as a labelled text:
// "source\n<text>", "header <name>\n<text>" for each kit header, "flag <arg>" for each compiler
// flag, "compiler <path and identity>", "builder <version>" (how the builder stages, confines
// and polices includes and objects), "sandbox <layer>" and "limits <...>" of the compile. The
// cached object is obj-<object_cache_key>.o, the hash of all of them in this order, so a change
// to any one compiles again: a cached refusal or runner never outlives the rules that made it.
std::vector<std::string> object_key_inputs(const std::string& source);
std::string object_cache_key(const std::string& source);

// A scratch program (./kit try): `sources` as {name shown in messages, text}, each compiled in
// the sandbox with the kit's flags and headers (without the harness), then linked together.
// Cached by content in the exercise's folder of the build cache (try/): an object per source,
// keyed like a submission's object plus the source's name, and the program keyed by its
// objects, so a second run compiles nothing and an edit compiles the edited file alone. The
// program stays in the cache (checked against its digest before each use): do not remove it.
struct ScratchBuild {
  bool ok = false;
  std::string log;                // messages about the sources only (see build_log.hpp)
  std::filesystem::path program;  // if ok
  std::vector<std::string>
      compiled;         // the sources compiled this time (the rest came from the cache)
  bool linked = false;  // false: the program itself came from the cache
};
ScratchBuild build_scratch(const std::string& exercise,
                           const std::vector<std::pair<std::string, std::string>>& sources);

// The API headers under exercises/ that differ from the pristine copies submissions are
// compiled against (a student kit's grader/data/headers/), as "exercises/causal/causal.hpp";
// empty in the instructors' kit, whose exercises/ is the original.
std::vector<std::string> edited_headers();

// The first compiler errors as "file:line: message" lines, at most `max_lines`.
std::string first_errors(const std::string& log, int max_lines = 5);

}  // namespace grader
