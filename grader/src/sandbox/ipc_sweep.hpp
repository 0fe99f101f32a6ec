// The second wall against System V IPC (the first: seccomp refuses the calls,
// seccomp_filter.cpp). Outside bubblewrap there is no IPC namespace to end with the run: a
// shared memory segment, message queue or semaphore set made under a runner's user id would
// stay on the host after the grader exits (1 GiB of segments from one check, with the kernel's
// limits unlimited) and could carry a memo or a hidden check's inputs to the next run. After
// each run in the chroot and none layers, every such object the worker's id owns or made is
// removed.
#pragma once

namespace grader {

// Removes every System V shared memory segment, message queue and semaphore set of the
// current IPC namespace whose owner or creator is `uid` (read from /proc/sysvipc/), as root
// with CAP_SYS_ADMIN or else from a child under `uid`. Returns how many were removed. Does
// nothing for uid 0: the judge's own objects, and anything else of root's, are not a runner's.
unsigned remove_ipc_objects_of(unsigned uid);

}  // namespace grader
