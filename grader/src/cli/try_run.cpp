#include "try_run.hpp"

#include "../builder/builder.hpp"
#include "../report/report.hpp"
#include "../sandbox/isolation.hpp"
#include "../sandbox/sandbox.hpp"
#include "../util/find_files.hpp"
#include "../util/read_file.hpp"
#include "grader_config.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace grader {

namespace {

// The student's file and the scratch program (the folder's own try.cpp, else the kit's), read
// as grading reads them; false, said on stderr, when one cannot be read.
bool read_try_sources(const fs::path& dir, const std::string& mine, const std::string& scratch,
                      std::string& mine_text, std::string& scratch_text) {
  // Through the grader's door (find_files.hpp), as grading reads them: no link, at most 1 MiB.
  SubmissionFile own = read_submission_file(dir, mine);
  if (!own.ok()) {
    std::cerr << "linattn-grade: "
              << (own.status == SubmissionFile::Status::Absent ? "no " + (dir / mine).string()
                                                               : own.problem)
              << "\n";
    return false;
  }
  mine_text = std::move(own.bytes);
  // The submission's own scratch program, else the kit's (a folder such as solutions/ has none).
  const fs::path kit_scratch = fs::path(LINATTN_SOURCE_DIR) / "exercises" / scratch;
  SubmissionFile own_scratch = read_submission_file(dir, scratch);
  if (own_scratch.status == SubmissionFile::Status::Refused) {
    std::cerr << "linattn-grade: " << own_scratch.problem << "\n";
    return false;
  }
  if (own_scratch.ok()) {
    scratch_text = std::move(own_scratch.bytes);
  } else {
    if (!read_file(kit_scratch, scratch_text)) {
      std::cerr << "linattn-grade: no " << (dir / scratch).string() << " and no "
                << kit_scratch.string() << " (the exercise's scratch program)\n";
      return false;
    }
    std::cout << "(no " << scratch << " in " << dir.string() << ": using the kit's)\n";
  }
  return true;
}

}  // namespace

int run_try(const std::string& exercise, const fs::path& dir) {
  const std::vector<std::string> known = {LINATTN_EXERCISE_LIST};
  if (std::find(known.begin(), known.end(), exercise) == known.end()) {
    std::cerr << "linattn-grade: no exercise named '" << exercise << "'; the exercises are:";
    for (const auto& e : known) std::cerr << " " << e;
    std::cerr << "\n";
    return 2;
  }
  const std::string mine = exercise + "/" + exercise + ".cpp", scratch = exercise + "/try.cpp";
  std::string mine_text, scratch_text;
  if (!read_try_sources(dir, mine, scratch, mine_text, scratch_text)) return 2;
  std::cout << "Building " << mine << " with " << scratch
            << " (in the sandbox: " << layer_name(isolation().layer) << ")\n"
            << std::flush;
  const ScratchBuild build = build_scratch(exercise, {{mine, mine_text}, {scratch, scratch_text}});
  if (!build.ok) {
    std::cout << printable(build.log) << "It does not build; the messages above say why.\n";
    return 1;
  }
  // Said, so that a student knows a rerun without an edit costs nothing (the build cache).
  if (build.compiled.empty() && !build.linked) {
    std::cout << "(nothing changed since the last build: the program comes from the cache)\n";
  } else if (build.compiled.size() == 1) {
    std::cout << "(compiled " << build.compiled.front() << "; the rest came from the cache)\n";
  }
  Jail jail;
  jail.purpose = FilterPurpose::Runner;
  jail.read_only = {{build.program, "/runner"}};  // the chroot layer copies it in here
  jail.work = make_jail_folder(jail);
  const fs::path program = readable_copy(jail, build.program);
  jail.read_only = {{program, "/runner"}};
  Limits limits;  // a check's default limits
  RunOutcome r;
  {
    const Confinement confined = confine(jail, {inside(jail, program)}, limits);
    r = run_sandboxed(confined.argv, confined.cwd, limits);
    unwrap_signal(r);
  }
  remove_jail_folder(jail.work);  // the program itself stays in the try cache

  std::cout << printable(r.output);
  if (r.output_truncated()) std::cout << "\n[output cut at " << r.output.size() << " bytes]\n";
  switch (r.ending) {
    case RunOutcome::Ending::Exited:
      if (r.exit_code != 0) std::cout << "(the program exited with status " << r.exit_code << ")\n";
      return r.exit_code;
    case RunOutcome::Ending::Signaled:
      std::cout << "(the program crashed: " << signal_name(r.signal) << ")\n";
      return 1;
    case RunOutcome::Ending::TimedOut:
      std::cout << "(stopped after " << limits.wall_seconds << " s, the limit of a check)\n";
      return 1;
    case RunOutcome::Ending::LaunchFailed:
      std::cerr << "linattn-grade: could not start the program: " << r.launch_error << "\n";
      return 2;
  }
  return 2;
}

}  // namespace grader
