#include "runner_symbols.hpp"

#include "elf_symbols.hpp"
#include "grader_config.hpp"

#include <gelf.h>

#include <map>
#include <mutex>
#include <sstream>

namespace grader {

RunnerSymbols runner_symbols(const std::filesystem::path& harness,
                             const std::vector<std::filesystem::path>& libraries) {
  RunnerSymbols r;
  for (const ElfContents& member : read_elf_archive(harness)) {
    if (!member.error.empty()) {
      r.error = "cannot read the harness " + harness.string() + ": " + member.error;
      return r;
    }
    for (const ElfSymbol& s : member.symbols) {
      if (s.bind == STB_LOCAL) continue;
      (s.defined ? r.harness_defined : r.harness_used).insert(s.name);
      if (s.defined && s.bind == STB_GNU_UNIQUE) r.harness_unique.insert(s.name);
    }
  }
  for (const std::string& name : r.harness_defined) r.harness_used.erase(name);
  // The exercise's functions: what the harness takes the address of and leaves to the
  // student's object to define.
  for (const std::string& name : r.harness_used)
    if (name.rfind("_ZN7linattn", 0) == 0) r.api.insert(name);
  for (const auto& library : libraries) {
    const ElfContents lib = read_elf(library);
    if (!lib.error.empty()) {
      r.error = "cannot read the library " + library.string() + ": " + lib.error;
      return r;
    }
    for (const ElfSymbol& s : lib.symbols)
      if (s.bind != STB_LOCAL) r.library.insert(s.name);
  }
  return r;
}

std::shared_ptr<const RunnerSymbols> runner_symbols_of(const std::filesystem::path& harness) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const RunnerSymbols>> known;
  std::error_code ec;  // a harness rebuilt while the process runs is read again
  const auto stamp = std::filesystem::last_write_time(harness, ec).time_since_epoch().count();
  const std::lock_guard<std::mutex> lock(mutex);
  auto& entry = known[harness.string() + "@" + std::to_string(stamp)];
  if (!entry) {
    std::vector<std::filesystem::path> libraries;
    std::istringstream list(LINATTN_RUNNER_LIBRARIES);  // separated by ';', from CMake
    for (std::string path; std::getline(list, path, ';');)
      if (!path.empty()) libraries.emplace_back(path);
    entry = std::make_shared<const RunnerSymbols>(runner_symbols(harness, libraries));
  }
  return entry;
}

}  // namespace grader
