#include "object_policy.hpp"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <set>

namespace grader {

namespace {

// A name from a hostile file, fit for a report: printable ASCII, at most `max` characters.
std::string shown_name(const std::string& name, std::size_t max = 200) {
  std::string out;
  for (const char ch : name) {
    if (out.size() >= max) return out + "...";
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// The C++ name a student wrote, when the mangled one can be demangled; else the symbol itself.
std::string readable(const std::string& symbol) {
  std::string text = symbol;
  if (symbol.rfind("_Z", 0) == 0 && symbol.size() < 4096) {
    int status = 0;
    char* plain = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (status == 0 && plain != nullptr) text = plain;
    std::free(plain);
  }
  return shown_name(text);
}

// True when a mangled name belongs to namespace api, wire or runner (the harness's own code):
// _Z, then any special-name prefix (vtable, typeinfo, guard variable, local entity), then a
// nested name whose first component is one of those.
bool in_grader_namespace(const std::string& name) {
  std::size_t i = 2;
  for (;;) {
    if (name.compare(i, 2, "TV") == 0 || name.compare(i, 2, "TI") == 0 ||
        name.compare(i, 2, "TS") == 0 || name.compare(i, 2, "TT") == 0 ||
        name.compare(i, 2, "TH") == 0 || name.compare(i, 2, "TW") == 0 ||
        name.compare(i, 2, "GV") == 0 || name.compare(i, 2, "GR") == 0)
      i += 2;
    else if (name.compare(i, 1, "Z") == 0) i += 1;
    else break;
  }
  if (name.compare(i, 1, "N") != 0) return false;
  ++i;
  while (i < name.size() &&
         (name[i] == 'r' || name[i] == 'V' || name[i] == 'K' || name[i] == 'R' || name[i] == 'O'))
    ++i;
  for (const char* ns : {"3api", "4wire", "6runner"}) {
    const std::string prefix = ns;
    if (name.compare(i, prefix.size(), prefix) == 0) return true;
  }
  return false;
}

bool runs_before_harness(const ElfSection& s) {
  const std::string& n = s.name;
  return s.type == SHT_PREINIT_ARRAY || (s.type == SHT_INIT_ARRAY && n != ".init_array") ||
         n.find(".preinit_array") != std::string::npos ||
         n.find(".init_array.") != std::string::npos || n.find(".ctors") != std::string::npos ||
         n == ".init" || n == ".rela.init";
}

// GCC's intermediate code (LTO). The linker plugin claims any object with a section named so and
// compiles that code in place of the object's machine code, so the symbols read here would not
// be the ones linked: bytes of an object compiled elsewhere with -flto, written out with asm,
// defined memcmp in the runner. The plugin looks only at the start of a name.
bool holds_intermediate_code(const ElfSection& s) {
  return s.name.rfind(".gnu.lto", 0) == 0 || s.name.rfind(".gnu.offload_lto", 0) == 0 ||
         s.name.rfind(".gnu.debuglto", 0) == 0;
}

// A section the linker makes for the program itself (its interpreter, dynamic table, symbol
// and version tables, GOT and PLT): an input section of that name is merged into the output
// one, and gold let an object's .interp name the program's interpreter, which the kernel runs
// in place of the runner.
bool linker_made(const ElfSection& s) {
  // clang-format off
  static const char* const names[] = {".interp", ".dynamic", ".dynsym", ".dynstr", ".hash",
                                      ".gnu.hash", ".got", ".got.plt", ".plt", ".plt.got",
                                      ".plt.sec", ".rela.dyn", ".rela.plt", ".eh_frame_hdr",
                                      ".gnu.version", ".gnu.version_d", ".gnu.version_r",
                                      ".note.ABI-tag", ".note.gnu.build-id"};
  // clang-format on
  for (const char* n : names)
    if (s.name == n) return true;
  return s.type == SHT_DYNAMIC || s.type == SHT_DYNSYM || s.type == SHT_HASH ||
         s.type == SHT_GNU_HASH || s.type == SHT_GNU_versym || s.type == SHT_GNU_verdef ||
         s.type == SHT_GNU_verneed;
}

const char* const kOwnOnly =
    "; a submission may define only the functions of its exercise's header and helpers of its "
    "own (in an unnamed namespace)";

}  // namespace

// The sections a submission's object may not have: code that runs before the harness, GCC's
// intermediate code, what only the linker makes.
void refuse_sections(const ElfContents& object, const std::string& shown,
                     std::set<std::string>& refused) {
  for (const ElfSection& s : object.sections)
    if (runs_before_harness(s))
      refused.insert(
          shown + ": error: the object has a section " + shown_name(s.name) +
          ", whose code would run before the grader's harness is set up; a "
          "submission may not have one (plain static objects and constructors are fine)");
  for (const ElfSection& s : object.sections)
    if (holds_intermediate_code(s))
      refused.insert(shown + ": error: the object has a section " + shown_name(s.name) +
                     ", which holds GCC's intermediate (LTO) code: the linker would compile that "
                     "in place of the object's own code; a submission may not have one");
  for (const ElfSection& s : object.sections)
    if (linker_made(s))
      refused.insert(shown + ": error: the object has a section " + shown_name(s.name) +
                     ", which only the linker makes (for the program's loader); a submission "
                     "may not have one");
}

// Why one of the object's symbols may not stand, or "" when it may.
std::string symbol_refusal(const ElfSymbol& s, const RunnerSymbols& runner,
                           const std::string& shown) {
  const std::string name = readable(s.name);
  if (s.type == STT_GNU_IFUNC)
    return shown + ": error: " + name +
           " is an IFUNC, whose resolver would run before "
           "the grader's harness is set up; a submission may not define one";
  if (s.bind == STB_LOCAL) return "";
  if (!s.defined) {
    // Naming the harness's internals is enough to get around it: runner::binding_table()
    // hands out the table of bindings, which a constructor can rewrite.
    if (s.name.rfind("_Z", 0) == 0 && in_grader_namespace(s.name))
      return shown + ": error: the file uses " + name +
             ", which is the grader's own; "
             "a submission may not call or read the grader's code or data";
    return "";
  }
  // A name with a version ('@', from .symver) stands for the plain name at the link: with
  // "@@" (and with '@' for gold) it took the place of the library function the harness calls.
  if (s.name.find('@') != std::string::npos)
    return shown + ": error: the file defines the versioned name " + name +
           ", which the linker takes for a library's own; a submission may not "
           "give its symbols versions (.symver)";
  // STB_GNU_UNIQUE binds like a global: it takes the place of the harness's weak copy of the
  // same name (an Eigen or standard-library inline function), whatever section holds it;
  // only where the harness's copy is unique too is a second one a link error instead.
  const bool weak = s.bind == STB_WEAK ||
                    (s.bind == STB_GNU_UNIQUE && (runner.harness_defined.count(s.name) == 0 ||
                                                  runner.harness_unique.count(s.name) != 0));
  // DW.ref.__gxx_personality_v0: the compiler's own reference for exception tables.
  if (s.name.rfind("_Z", 0) != 0) {
    if (s.name.rfind("DW.ref.", 0) != 0)
      return shown + ": error: the file defines the C-linkage symbol " + name +
             ", which could replace a function of the C library or of the grader; "
             "write C++ (functions in namespace linattn, helpers of your own in an "
             "unnamed namespace), no extern \"C\" definitions";
  } else if (s.name.rfind("_Znw", 0) == 0 || s.name.rfind("_Zna", 0) == 0 ||
             s.name.rfind("_Zdl", 0) == 0 || s.name.rfind("_Zda", 0) == 0) {
    return shown + ": error: the file replaces operator new or delete (" + name +
           "), which the grader's memory meter relies on; a submission may not";
  } else if (in_grader_namespace(s.name)) {
    return shown + ": error: the file defines " + name +
           ", in the grader's own "
           "namespace" +
           kOwnOnly;
  } else if (runner.api.count(s.name) != 0) {
    return "";  // the exercise's function
  } else if (runner.harness_used.count(s.name) != 0) {
    return shown + ": error: the file defines " + name +
           ", which the grader's harness "
           "calls" +
           kOwnOnly;
  } else if (!weak && runner.harness_defined.count(s.name) != 0) {
    return shown + ": error: the file defines " + name +
           ", which would take the place "
           "of the grader's harness's own" +
           kOwnOnly;
  } else if ((!weak || s.type != STT_FUNC) && runner.library.count(s.name) != 0) {
    return shown + ": error: the file defines " + name +
           ", which would take the place "
           "of the standard library's own" +
           kOwnOnly;
  }
  return "";
}

std::string object_policy_violations(const ElfContents& object, const RunnerSymbols& runner,
                                     const std::string& shown) {
  if (!object.error.empty())
    return shown + ": error: the compiled object is not one the grader reads: " + object.error +
           "; a submission's object is a few hundred symbols\n";
  std::set<std::string> refused;
  refuse_sections(object, shown, refused);
  for (const ElfSymbol& s : object.symbols)
    if (std::string why = symbol_refusal(s, runner, shown); !why.empty())
      refused.insert(std::move(why));
  std::string out;
  for (const auto& r : refused) out += r + "\n";
  return out;
}

std::set<std::string> library_copies(const ElfContents& object, const RunnerSymbols& runner) {
  std::set<std::string> copies;
  for (const ElfSymbol& s : object.symbols)
    if (s.defined && (s.bind == STB_WEAK || s.bind == STB_GNU_UNIQUE) && s.type == STT_FUNC &&
        runner.library.count(s.name) != 0 && runner.harness_defined.count(s.name) == 0 &&
        runner.harness_used.count(s.name) == 0 && runner.api.count(s.name) == 0)
      copies.insert(s.name);
  return copies;
}

}  // namespace grader
