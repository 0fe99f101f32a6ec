// What a compiled submission may not contain. The runner's harness closes execve from its
// first constructor and meters the heap through malloc; code that runs before that constructor
// (.preinit_array, prioritized constructors, IFUNC resolvers) or that replaces what the harness
// or the C library rely on (C-linkage symbols such as __libc_start_main, prctl or malloc;
// operator new and delete) would get around both. A submission is C++ in namespace linattn and
// helpers of its own: it never needs any of these.
#pragma once

#include <string>

namespace grader {

// `readelf -W -S -s` of the submission's object file. Returns one line per thing refused,
// "<shown>: error: ..." each, or an empty string when the object is acceptable.
std::string object_policy_violations(const std::string& readelf_output, const std::string& shown);

}  // namespace grader
