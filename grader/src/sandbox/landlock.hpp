// Landlock (a Linux security module any process may use on itself, no privilege needed):
// which files a confined program may touch at all. The namespaces layer shows a program only
// what it needs; the chroot and none layers cannot, so there Landlock narrows what the
// compiler (and, without a sandbox, the runner) may open: /usr to read and run, its own folder
// to work in, /dev/null. Anything else, the kit, other submissions, /etc, fails with EACCES.
#pragma once

#include "../util/unique_fd.hpp"

#include <string>
#include <vector>

namespace grader {

// A ruleset descriptor (close-on-exec) for landlock_restrict_self, or none (not valid) where
// the kernel has no Landlock. Paths that do not exist are left out.
UniqueFd landlock_ruleset(const std::vector<std::string>& read_and_run,
                          const std::vector<std::string>& read_write,
                          const std::vector<std::string>& devices);

// True if this kernel has Landlock (asked once).
bool landlock_available();

}  // namespace grader
