// The supervisor S is a small program of its own, linattn-sandbox-supervisor
// (supervisor_main.cpp), which the judge starts with posix_spawn: a fork of the judge would copy
// its page tables (hundreds of MB of expected values during a time check) twice per run, and tear
// them down again, for a process that only waits and an exec. S's plan travels on its command
// line, written here by the judge and read back by S; its descriptors travel by number.
#pragma once

#include "sandbox_processes.hpp"

#include <string>
#include <vector>

namespace grader::sandbox {

// Where S finds its descriptors: the program's output pipe, the status pipe, and plan.pass[i]
// at kSupervisorFirstPassFd + i (kMaxPass of them at most, all below kSupervisorFdsEnd).
inline constexpr int kSupervisorOutFd = 3;
inline constexpr int kSupervisorStatusFd = 4;
inline constexpr int kSupervisorFirstPassFd = 10;
inline constexpr int kSupervisorFdsEnd = kSupervisorFirstPassFd + kMaxPass;

// S's command line after its own name: every field of `plan` that S and P use (the program's
// arguments, environment, working folder, limits and descriptors' numbers in the program).
std::vector<std::string> plan_arguments(const Plan& plan);

// The other way, into `plan` (argv and envp pointing into its own strings; pass[i].first is
// kSupervisorFirstPassFd + i). False, with `error` saying why, when `args` are not such a plan:
// S then starts nothing.
bool read_plan_arguments(const std::vector<std::string>& args, Plan& plan, std::string& error);

}  // namespace grader::sandbox
