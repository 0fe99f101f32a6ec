// build_scratch (builder.hpp): ./kit try's program, each of its sources compiled in the sandbox
// to an object of the try cache, keyed by content, then linked, so that a second `./kit try`
// compiles nothing and an edit of one file compiles that file alone.
#include "../sandbox/program_copy.hpp"
#include "../util/read_file.hpp"
#include "../util/sha256.hpp"
#include "build_cache.hpp"
#include "build_include_policy.hpp"
#include "build_log.hpp"
#include "build_paths.hpp"
#include "build_pch.hpp"
#include "build_stage.hpp"
#include "build_toolchain.hpp"
#include "builder.hpp"
#include "builder_sources.hpp"
#include "grader_config.hpp"

#include <system_error>

namespace fs = std::filesystem;

namespace grader {

using namespace build;

namespace {

// One source of a scratch program compiled to an object in the try cache, unless an object of
// the same key is there. Returns false with `log` set when it does not compile.
bool scratch_object(const std::string& exercise, const std::string& name, const std::string& text,
                    const fs::path& object, std::string& log, bool& compiled) {
  std::error_code ec;
  const fs::path object_log = object.string() + ".log";
  compiled = false;
  if (fs::is_regular_file(object, ec) && read_file(object_log, log)) {
    fs::last_write_time(object, fs::file_time_type::clock::now(), ec);  // recently used
    return true;
  }
  compiled = true;
  const Stage stage(0);
  const std::vector<std::string> argv = compile_command(exercise, stage, name, stage.in("out.o"));
  // At its relative path, compiled by it (see build_runner).
  const bool staged_ok = stage.write(name, text) && put_kit_headers(stage);
  if (!staged_ok) {
    log = "grader fault: cannot stage " + name + "\n";
    return false;
  }
  const RunOutcome r = stage.run(argv, 240);
  log = own_files_only_log(
      capped_log(r), [&](const std::string& path) { return path == name; },
      [&](const std::string& path) {
        return is_under(stage_path(stage, path), fs::path(stage.in("include"))) ||
               library_header(path);
      });
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    if (r.ending != RunOutcome::Ending::Exited)
      log += "note: the compiler was " + ending_text(r, 240) + "\n";
    return false;
  }
  const fs::path tmp = object.string() + unique_suffix();
  fs::copy_file(stage.host("out.o"), tmp, ec);
  if (!ec) fs::rename(tmp, object, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return true;  // compiled, but not stored: the caller finds no object and says so
  }
  write_file_atomically(object_log, log);
  return true;
}

// What decides a scratch object: everything that decides a submission's object
// (object_key_inputs: the text, the kit's headers, the compiler, the builder, the sandbox),
// and the scratch program's own name and flags.
std::string scratch_object_key(const std::string& name, const std::string& text) {
  Sha256 h;
  for (const auto& input : object_key_inputs(text)) h.add(input);
  h.add("scratch " + name + " " LINATTN_CXX_STANDARD);
  for (const auto& f : submission_flags()) h.add("flag " + f);
  return h.hex().substr(0, 32);
}

// Links a scratch program from its objects (the sources' names in the log) and stores it at
// `program`, its digest at `program_sum`; false, with the log in result.log, when it cannot.
bool link_scratch(const std::vector<fs::path>& objects,
                  const std::vector<std::pair<std::string, std::string>>& sources,
                  const fs::path& program, const fs::path& program_sum, ScratchBuild& result) {
  const Stage stage(0);
  std::vector<std::string> argv = {compiler()};
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::string staged = "object-" + std::to_string(i) + ".o";
    if (!stage.put(objects[i], staged)) {
      result.log += "grader fault: cannot stage the objects\n";
      return false;
    }
    argv.push_back(stage.in(staged));
  }
  argv.insert(argv.end(), {"-pthread", "-o", stage.in("program")});
  const RunOutcome r = stage.run(argv, 240);
  std::string log = capped_log(r);
  replace_all(log, stage.in("program"), "the program");
  for (std::size_t i = 0; i < objects.size(); ++i)
    replace_all(log, stage.in("object-" + std::to_string(i) + ".o"), sources[i].first);
  result.log += own_files_only_log(
      log,
      [&](const std::string& path) {
        for (const auto& source : sources)
          if (path == source.first) return true;
        return false;
      },
      [](const std::string&) { return false; });
  if (r.ending != RunOutcome::Ending::Exited || r.exit_code != 0) {
    if (r.ending != RunOutcome::Ending::Exited)
      result.log += "note: the linker was " + ending_text(r, 240) + "\n";
    return false;
  }
  std::error_code ec;
  const fs::path tmp = program.string() + unique_suffix();
  copy_program(stage.host("program"), tmp, 0755, ec);
  if (!ec) store_digest(tmp, program_sum, ec);
  if (!ec) fs::rename(tmp, program, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    result.log += "grader fault: cannot store the program in " + program.parent_path().string() +
                  ": " + why + "\n";
    return false;
  }
  return true;
}

}  // namespace

ScratchBuild build_scratch(const std::string& exercise,
                           const std::vector<std::pair<std::string, std::string>>& sources) {
  ScratchBuild result;
  // The try cache: one object per source, keyed by its content, and the linked program keyed
  // by its objects, so that running `./kit try` again compiles nothing and an edit of one file
  // compiles that file alone.
  const fs::path dir = cache_entry(exercise, "", "").dir / "try";
  std::error_code ec;
  fs::create_directories(dir, ec);
  Sha256 program_key;
  program_key.add(std::string("builder ") + LINATTN_BUILDER_SOURCES_SHA256 +
                  " link: objects, -pthread");
  std::vector<fs::path> objects;
  for (const auto& [name, text] : sources) {
    const std::string key = scratch_object_key(name, text);
    program_key.add(key);
    objects.push_back(dir / ("obj-" + key + ".o"));
    std::string log;
    bool compiled = false;
    const bool ok = scratch_object(exercise, name, text, objects.back(), log, compiled);
    if (compiled) result.compiled.push_back(name);
    result.log += log;
    if (!ok || !fs::is_regular_file(objects.back(), ec)) {
      if (ok)
        result.log +=
            "grader fault: cannot store the object of " + name + " in " + dir.string() + "\n";
      return result;
    }
  }
  const std::string key = program_key.hex().substr(0, 32);
  const fs::path program = dir / ("prog-" + key), program_sum = dir / ("prog-" + key + ".sha256");
  std::string recorded;
  // A program is run, not trusted: its bytes are checked against the digest taken at its link.
  if (fs::is_regular_file(program, ec) && read_file(program_sum, recorded) &&
      whole_file_digest(program) == recorded) {
    fs::last_write_time(program, fs::file_time_type::clock::now(), ec);
    result.program = program;
    result.ok = true;
    return result;
  }
  result.linked = true;
  if (!link_scratch(objects, sources, program, program_sum, result)) return result;
  prune(dir, 32);
  result.program = program;
  result.ok = true;
  return result;
}

}  // namespace grader
