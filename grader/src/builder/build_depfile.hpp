// Reading the dependency file the compiler writes with -MD: every file a compile opened,
// which the include policy (build_include_policy.hpp) then judges one by one.
#pragma once

#include <string>
#include <vector>

namespace grader::build {

// "target: dep dep \<newline> dep ...", with spaces in names escaped as "\ " and '$' doubled:
// the dependencies, unescaped, in order.
std::vector<std::string> parse_depfile(const std::string& text);

}  // namespace grader::build
