// An exercise's API header, compiled once into a GCC precompiled header: a submission's compile
// then loads the parsed header (Eigen and all) instead of parsing it again, which is most of
// the time of compiling a short file (backward here: 2.3 s plain, 1.4 s with it).
//
// GCC uses one only where it is sure of the result: for the first #include of the file, if the
// flags and the macros defined before it match those it was built with; otherwise it reads the
// header itself, as without one. Built by the same compiler, from the same staged headers at
// the same paths, with the same flags, the object is byte-identical either way (tested). It is
// used in the namespaces layer only, where every stage sees the headers at the same path
// (/work/include/...), so the paths it records are the ones a compile without it would print.
#pragma once

#include "build_stage.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace grader::build {

// The precompiled <exercise>.hpp for this kit, toolchain and builder, in the build cache
// (<cache>/precompiled-headers/<exercise>-<key>.gch), built in the sandbox on first use; an
// empty path where none is used (another layer, or the build of it failed).
std::filesystem::path precompiled_header(const std::string& exercise, unsigned worker);

// Makes a compile in `stage` use it: puts it in the stage's pch/ and returns the flag that puts
// that folder first on the include path, before the exercise's header; empty (no flag) where
// none is used.
std::vector<std::string> precompiled_header_flags(const std::string& exercise, const Stage& stage);

// The command that compiles `source` (relative to the stage, the compiler's working folder) into
// `object` in `stage`, as every compile of exercise code runs: the kit's compiler and flags,
// the exercise's precompiled header where there is one, the kit's headers; `extra` before the
// source. The submission's compile and ./kit try's both use it.
std::vector<std::string> compile_command(const std::string& exercise, const Stage& stage,
                                         const std::string& source, const std::string& object,
                                         const std::vector<std::string>& extra = {});

}  // namespace grader::build
