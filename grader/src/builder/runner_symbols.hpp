// What the rest of a runner defines and references: the exercise's harness (a static library
// linked whole) and the shared libraries every C++ program links (libstdc++, libm, libc,
// libgcc_s). The object policy (object_policy.hpp) reads it to tell a student's own symbols,
// which nothing else uses, from names that would take the place of the grader's or the
// library's code.
#pragma once

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace grader {

struct RunnerSymbols {
  std::set<std::string> api;              // what the harness calls and the student defines:
                                          // the exercise's functions (linattn::...)
  std::set<std::string> harness_defined;  // every global the harness defines
  std::set<std::string> harness_used;     // every global the harness uses and does not define
  std::set<std::string> harness_unique;   // those it defines as STB_GNU_UNIQUE (a static local
                                          // of an inline function): a second one is a link error
  std::set<std::string> library;          // every global a library defines or uses
  std::string error;                      // non-empty: a file could not be read (a grader fault)
};

// Read from `harness` (the exercise's archive) and `libraries`.
RunnerSymbols runner_symbols(const std::filesystem::path& harness,
                             const std::vector<std::filesystem::path>& libraries);

// The same for the kit's harness of `exercise` and the libraries the build found
// (LINATTN_RUNNER_LIBRARIES), read once per harness file and kept.
std::shared_ptr<const RunnerSymbols> runner_symbols_of(const std::filesystem::path& harness);

}  // namespace grader
