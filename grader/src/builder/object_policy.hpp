// What a compiled submission may contain, read from its object file with libelf
// (elf_symbols.hpp), never from a tool's printed text. The runner's harness closes execve from
// its first constructor, meters the heap, watches the inputs and answers the judge; a
// submission may not get around it, so its object
//  - has no code that runs before the harness is set up: no section of type PREINIT_ARRAY, no
//    INIT_ARRAY but the plain .init_array (constructors without a priority), nothing named
//    .preinit_array, .init_array.N, .ctors, .init, whatever else the name holds; no IFUNC;
//  - holds no GCC intermediate code (sections .gnu.lto_*, which the linker plugin would compile
//    in place of the object's machine code: the symbols read here would not be those linked);
//  - has no section that only the linker makes (.interp, .dynamic, .got...: gold took an
//    object's .interp for the program's interpreter);
//  - defines, of the names the linker sees, only the exercise's functions (those the harness
//    calls) and names that nothing else in the runner defines or uses. Refused: any C-linkage
//    name (memcmp, clock_gettime, malloc, __libc_start_main...), operator new and delete,
//    anything in the grader's namespaces (api, wire, runner), a strong definition of a name
//    the harness or a library defines (or any but a function's, for a library's name), and
//    any definition of a name the harness uses.
//    Allowed: a weak copy of an inline function the harness also has (the harness is linked
//    first, so its copy is the one kept) or a library has (the same header code; std::endl
//    makes one of std::ctype<char>::do_widen). The latter are hidden before the link
//    (library_copies, hide_symbols), so the library's own calls keep the library's copy.
// Each refusal names the symbol or section; an object past the reader's bounds (a million
// symbols) is refused too: all of these are the student's build errors.
#pragma once

#include "elf_symbols.hpp"
#include "runner_symbols.hpp"

#include <set>
#include <string>

namespace grader {

// One line per thing refused, "<shown>: error: ..." each, or an empty string when the object
// is acceptable. `object` is read_elf's view of the student's object file.
std::string object_policy_violations(const ElfContents& object, const RunnerSymbols& runner,
                                     const std::string& shown);

// The weak definitions the policy lets through because a library defines the same name (and
// nothing of the harness does): to be hidden in the object before it is linked.
std::set<std::string> library_copies(const ElfContents& object, const RunnerSymbols& runner);

}  // namespace grader
