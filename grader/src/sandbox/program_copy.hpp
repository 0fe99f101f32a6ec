// Copies of program files, kept apart from forks.
//
// Linux refuses to start a program file while any process holds it open for writing (execve
// fails with ETXTBSY). The judge copies runners while its other threads fork: a child forked in
// the middle of a copy inherits the copy's descriptor (close-on-exec only closes it at the
// child's own exec), and the copy then fails to start, at random, under parallel grading. So a
// copy of a program and a fork never overlap: copies share a lock that each fork takes alone.
#pragma once

#include <filesystem>
#include <mutex>
#include <shared_mutex>
#include <system_error>

namespace grader {

// Hold this across every fork() of the judge (a forked child writes nothing we later start).
std::unique_lock<std::shared_mutex> hold_forks_apart();

// fs::copy_file (overwriting) and chmod(mode), with no fork in between; errors go to ec.
void copy_program(const std::filesystem::path& from, const std::filesystem::path& to, unsigned mode,
                  std::error_code& ec);

}  // namespace grader
