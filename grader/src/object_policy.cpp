#include "object_policy.hpp"

#include <regex>
#include <set>
#include <sstream>

namespace grader {

std::string object_policy_violations(const std::string& readelf_output, const std::string& shown) {
  // "  [ 5] .init_array.00101 INIT_ARRAY  ..." (a section header)
  static const std::regex section(R"(^\s*\[\s*\d+\]\s+(\S+)\s+(\S+).*)");
  // "    12: 0000000000000000    42 FUNC    GLOBAL DEFAULT    2 name" (a symbol)
  static const std::regex symbol(R"(^\s*\d+:\s+[0-9a-fA-F]+\s+\d+\s+(\w+)\s+(\w+)\s+\w+\s+(\S+)\s+(\S+).*)");
  std::set<std::string> refused;
  std::istringstream in(readelf_output);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, section)) {
      const std::string name = m[1].str(), type = m[2].str();
      // By type as well as by name: the linker places a section by its type, whatever it is
      // called, and a second INIT_ARRAY could even take the place of the harness's own.
      const bool before_main = type == "PREINIT_ARRAY" ||
                               (type == "INIT_ARRAY" && name != ".init_array") ||
                               name.find(".preinit_array") != std::string::npos ||
                               name.find(".init_array.") != std::string::npos ||
                               name.find(".ctors") != std::string::npos || name == ".init" ||
                               name == ".rela.init";
      if (before_main)
        refused.insert(shown + ": error: the object has a section " + name + ", whose code would "
                       "run before the grader's harness is set up; a submission may not have one "
                       "(plain static objects and constructors are fine)");
    } else if (std::regex_match(line, m, symbol)) {
      const std::string type = m[1].str(), bind = m[2].str(), index = m[3].str(), name = m[4].str();
      if (type == "IFUNC")
        refused.insert(shown + ": error: " + name + " is an IFUNC, whose resolver would run before "
                       "the grader's harness is set up; a submission may not define one");
      const bool defined = index != "UND" && (bind == "GLOBAL" || bind == "WEAK");
      if (!defined) continue;
      // DW.ref.__gxx_personality_v0: the compiler's own reference for exception tables.
      if (name.rfind("_Z", 0) != 0 && name.rfind("DW.ref.", 0) != 0)
        refused.insert(shown + ": error: the file defines the C-linkage symbol " + name +
                       ", which could replace a function of the C library or of the grader; "
                       "write C++ (functions in namespace linattn, helpers of your own in an "
                       "unnamed namespace), no extern \"C\" definitions");
      else if (name.rfind("_Znw", 0) == 0 || name.rfind("_Zna", 0) == 0 ||
               name.rfind("_Zdl", 0) == 0 || name.rfind("_Zda", 0) == 0)
        refused.insert(shown + ": error: the file replaces operator new or delete (" + name +
                       "), which the grader's memory meter relies on; a submission may not");
    }
  }
  std::string out;
  for (const auto& r : refused) out += r + "\n";
  return out;
}

}  // namespace grader
