// The two processes of a sandboxed run (see sandbox.cpp for its shape): the plan the judge
// prepares for them, what the supervisor S reports back on the status pipe, and their entry
// points. S is a program of its own (supervisor_main.cpp) and P a fork of it; both keep to
// async-signal-safe calls once S runs, as they did when they were forks of the judge.
#pragma once

#include "sandbox.hpp"

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace grader::sandbox {

// Records S sends to the judge on the status pipe; each is written with one write() of less
// than PIPE_BUF bytes, so it arrives whole.
struct StatusRecord {
  enum Kind : std::int32_t { Started = 1, Finished = 2, SupervisorFailed = 3 };
  std::int32_t kind = 0;
  std::int32_t pid = 0;          // P, in Started
  std::int32_t wait_status = 0;  // P's status from waitpid, in Finished
  std::int32_t timed_out = 0;    // 1 if S killed P at the deadline
  std::int32_t exec_errno = 0;   // non-zero if P could not exec
  // In Finished: the CPU time (user + system, every thread) of P and of every process under
  // it, in microseconds, read by S once all of them are reaped (see supervise).
  std::int64_t cpu_microseconds = 0;
};

// Everything S and P need, prepared before S forks P (S reads it from its command line).
struct Plan {
  std::vector<std::string> args;  // args[0] resolved to a path
  std::vector<char*> argv;        // pointers into args, null-terminated
  std::vector<std::string> env;   // limits.environment
  std::vector<char*> envp;        // pointers into env, null-terminated; empty: ours
  std::string cwd;
  Limits limits;
  pid_t judge_pid = 0;
  // Descriptors the program gets, as {ours, its number}: limits.pass_fds plus the reply pipe.
  std::vector<std::pair<int, int>> pass;
};

// At most this many descriptors are passed to the program (Plan::pass).
constexpr int kMaxPass = 8;

// S: starts P, waits for it or the deadline, cleans up every descendant, reports on
// `status_w`. Never returns.
[[noreturn]] void supervise(const Plan& plan, int out_w, int status_w);

// P: becomes the program, its output going to `out_w`; an exec failure's errno goes to
// `err_w`. Never returns.
[[noreturn]] void become_program(const Plan& plan, int out_w, int err_w, pid_t supervisor);

// --- async-signal-safe helpers for S and P -----------------------------------------------

void write_all(int fd, const void* data, std::size_t size);

// Closes every descriptor >= 3 except those listed (-1 entries are ignored). `keep` is sorted
// in place; no allocation, so S and P may call it.
void close_all_except(int* keep, int count);

}  // namespace grader::sandbox
