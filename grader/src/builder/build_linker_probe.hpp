// Which linker the builder asks the compiler driver for.
#pragma once

#include "build_stage.hpp"

#include <string>
#include <vector>

namespace grader::build {

// {"-fuse-ld=gold"} when the compiler driver can find gold in the sandbox, else nothing (the
// default linker). Asked once per process, in `stage`, when something is first linked.
const std::vector<std::string>& linker_choice(const Stage& stage);

}  // namespace grader::build
