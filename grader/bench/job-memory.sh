#!/usr/bin/env bash
# Benchmark of the memory one grading job takes (a benchmark, not a test: it prints figures,
# asserts nothing): for each exercise, the peak resident memory of a compiler compiling its
# solution with the kit's compiler, flags and include folders (GNU time's "Maximum resident set
# size"), and of `linattn-grade --jobs 1 --only <it>` on a fresh copy, the grader, its compiler
# and its runners together (the peak of a cgroup of its own; root and cgroup v1 or v2 only).
# util/job_count.hpp's kMemoryPerJob and kGraderReserve come from these figures.
# usage: grader/bench/job-memory.sh   (after ./kit setup; /usr/bin/time from Debian's `time`)
set -euo pipefail
KIT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LINATTN_BUILD_DIR:-$KIT/build}
GRADE=$BUILD/grader/linattn-grade
CONFIG=$BUILD/grader/generated/grader_config.hpp
[ -x "$GRADE" ] || { echo "build the kit first (./kit setup)"; exit 2; }
CXX=$(sed -n 's/^#define LINATTN_CXX "\(.*\)"$/\1/p' "$CONFIG")
read -r -a FLAGS <<<"$(sed -n 's/^#define LINATTN_SUBMISSION_FLAGS "\(.*\)"$/\1/p' "$CONFIG")"
EIGEN=$(sed -n 's/^#define LINATTN_EIGEN_INCLUDE "\(.*\)"$/\1/p' "$CONFIG")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The peak of one command in a memory cgroup of its own, in MiB ("-" where none can be made).
cgroup_peak() {
  local g v2=""
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then g=/sys/fs/cgroup/linattn-bench-$$; v2=1
  else g=/sys/fs/cgroup/memory/linattn-bench-$$; fi
  mkdir "$g" 2>/dev/null || { "$@" >/dev/null 2>&1 || true; echo "-"; return; }
  bash -c "echo \$\$ >'$g/cgroup.procs'; exec \"\$@\"" peak "$@" >/dev/null 2>&1 || true
  local bytes
  if [ -n "$v2" ]; then bytes=$(cat "$g/memory.peak" 2>/dev/null || echo 0)
  else bytes=$(cat "$g/memory.max_usage_in_bytes"); fi
  rmdir "$g"
  echo $((bytes >> 20))
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %14s %16s\n' exercise "compile MiB" "grade job MiB"
for dir in "$KIT"/solutions/*/; do
  ex=$(basename "$dir")
  [ -f "$dir/$ex.cpp" ] || continue
  compile=$( { /usr/bin/time -f '%M' "$CXX" "${FLAGS[@]}" -I"$KIT/exercises/$ex" \
    -I"$KIT/exercises/common" -I"$KIT/exercises" -isystem "$EIGEN" -c "$dir/$ex.cpp" \
    -o "$work/$ex.o" >/dev/null 2>"$work/time"; } 2>&1; tail -n 1 "$work/time")
  rm -rf "$work/sub" && cp -r "$KIT/solutions" "$work/sub"
  printf '\n// job-memory %s\n' "$RANDOM$RANDOM" >>"$work/sub/$ex/$ex.cpp"
  job=$(cgroup_peak "$GRADE" grade "$work/sub" --only "$ex" --jobs 1 --quiet)
  printf '%-16s %14s %16s\n' "$ex" "$((compile / 1024))" "$job"
done
