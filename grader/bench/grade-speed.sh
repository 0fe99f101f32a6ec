#!/usr/bin/env bash
# Benchmark of the grader's speed (a benchmark, not a test: it prints figures, asserts nothing).
#  1. warm `./kit grade solutions`: best of 5 wall times, everything cached; and the page faults
#     and CPU time of one such grade with --jobs 1;
#  2. per exercise: after a one-line change to its file, `linattn-grade --only <it>` against
#     compiling that file alone with the same compiler and flags (best of 3 each; aim 1.3x);
#  3. `./kit try` as a student types it, with nothing changed since the last run (aim < 0.5 s);
#  4. `./kit try` after a one-line change to the exercise's file, against compiling the scratch
#     program (the file and try.cpp) with the same compiler and flags (aim 1.2x).
# The aims hold on a quiet machine: the load average is printed first, and beside each wall time
# the CPU time (user + system of every process), which load disturbs far less.
# usage: grader/bench/grade-speed.sh   (after ./kit test or ./kit grade has built the kit)
set -euo pipefail
KIT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LINATTN_BUILD_DIR:-$KIT/build}
GRADE=$BUILD/grader/linattn-grade
[ -x "$GRADE" ] || { echo "build the kit first (./kit grade)"; exit 2; }
CXX=$(sed -n 's/^#define LINATTN_CXX "\(.*\)"$/\1/p' "$BUILD/grader/generated/grader_config.hpp")
FLAGS=$(sed -n 's/^#define LINATTN_SUBMISSION_FLAGS "\(.*\)"$/\1/p' "$BUILD/grader/generated/grader_config.hpp")
EIGEN=$(sed -n 's/^#define LINATTN_EIGEN_INCLUDE "\(.*\)"$/\1/p' "$BUILD/grader/generated/grader_config.hpp")

now() { date +%s.%N; }
best_of() {  # best_of N command...: the smallest wall time of N runs, in seconds
  local n=$1 best=""; shift
  for _ in $(seq "$n"); do
    local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
    best=$(echo "$t0 $t1 ${best:-999}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  echo "$best"
}

ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }

# cpu_of command...: the CPU time (user + system, seconds) of one run of the command and every
# process under it (the sandboxed compiler and runners included: each is waited for, so its
# time adds to its parent's). Load stretches wall time far more than CPU time, so on a shared
# machine the ratio of CPU times is the fairer stand-in for the aims.
cpu_of() {
  ( "$@" >/dev/null 2>&1 || true; times ) | tail -n 1 |
    awk '{ s = 0; for (i = 1; i <= 2; ++i) { split($i, p, /[ms]/); s += p[1] * 60 + p[2] } printf "%.2f", s }'
}

echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (the aims are for a quiet machine)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$KIT/solutions" "$work/sub"
"$GRADE" "$work/sub" --quiet >/dev/null 2>&1 || true   # warm the cache
echo "warm ./kit grade solutions (grader only, all cached), best of 5: $(best_of 5 "$GRADE" "$work/sub" --quiet) s   (aim: <= 2 s)"
# The page faults of one warm grade (the judge, its runners and the sandbox together): a count
# that load does not change, where the judge's large messages show (a time check's case is
# about 90 MB, and each new page of a buffer that size is a fault). Debian's `time` package.
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "%R %U %S" -o "$work/faults" "$GRADE" "$work/sub" --jobs 1 --quiet >/dev/null 2>&1 || true
  read -r faults user sys < <(tail -n 1 "$work/faults")
  echo "warm grade, --jobs 1: $faults minor page faults, $(echo "$user $sys" | awk '{printf "%.2f", $1 + $2}') s of CPU"
fi
echo
printf '%-16s %12s %12s %7s   %12s %12s %7s\n' exercise "grade --only" "compile" ratio "grade CPU" "compile CPU" "ratio"
"$KIT/grader/tools/exercises" "$KIT" | while read -r ex; do
  file=$work/sub/$ex/$ex.cpp
  # Each timed grade sees a file it has never seen, so nothing comes from the cache.
  g=999 gc=999
  for i in 1 2 3; do
    echo "// edit $RANDOM$RANDOM $i" >> "$file"
    t=$(best_of 1 "$GRADE" "$work/sub" --only "$ex" --quiet)
    g=$(echo "$t $g" | awk '{print ($1<$2)?$1:$2}')
    echo "// edit $RANDOM$RANDOM $i cpu" >> "$file"
    t=$(cpu_of "$GRADE" "$work/sub" --only "$ex" --quiet)
    gc=$(echo "$t $gc" | awk '{print ($1<$2)?$1:$2}')
  done
  # The figures are a grade's only if it passed: the last edit, graded again (from the cache),
  # must still get full marks (exit status 0).
  "$GRADE" "$work/sub" --only "$ex" --quiet >/dev/null 2>&1 ||
    echo "$ex: the timed grades did not get full marks; its figures below measure a failure"
  # shellcheck disable=SC2206
  compile=("$CXX" -std=c++17 $FLAGS -I "$KIT/exercises/$ex" -I "$KIT/exercises/common" -isystem "$EIGEN" -c "$file" -o "$work/alone.o")
  c=$(best_of 3 "${compile[@]}")
  cc=999
  for _ in 1 2 3; do cc=$(echo "$(cpu_of "${compile[@]}") $cc" | awk '{print ($1<$2)?$1:$2}'); done
  printf '%-16s %10.2f s %10.2f s %6.2fx   %10.2f s %10.2f s %6.2fx\n' "$ex" "$g" "$c" "$(ratio "$g" "$c")" \
    "$gc" "$cc" "$(ratio "$gc" "$cc")"
done
echo "(aim: grade --only within 1.3x of compiling the file alone; wall times best of 3, CPU times"
echo " (user + system of every process) best of 3 other runs)"

# ./kit try: the first exercise with a scratch program, on the solutions' file.
ex=causal
[ -f "$KIT/exercises/$ex/try.cpp" ] || ex=$("$KIT/grader/tools/exercises" "$KIT" | head -n 1)
cp "$KIT/exercises/$ex/try.cpp" "$work/sub/$ex/try.cpp"
"$KIT/kit" try "$ex" "$work/sub" >/dev/null 2>&1 || true   # build once
echo
echo "./kit try $ex, nothing changed, best of 5: $(best_of 5 "$KIT/kit" try "$ex" "$work/sub") s   (aim: < 0.5 s)"
echo "./kit try $ex, nothing changed, CPU time (user + system), best of 5: $(for _ in 1 2 3 4 5; do cpu_of "$KIT/kit" try "$ex" "$work/sub"; echo; done | sort -n | head -n 1) s"
t=999 tc=999
for i in 1 2 3; do
  echo "// edit $RANDOM$RANDOM $i" >> "$work/sub/$ex/$ex.cpp"
  t=$(echo "$(best_of 1 "$KIT/kit" try "$ex" "$work/sub") $t" | awk '{print ($1<$2)?$1:$2}')
  echo "// edit $RANDOM$RANDOM $i cpu" >> "$work/sub/$ex/$ex.cpp"
  tc=$(echo "$(cpu_of "$KIT/kit" try "$ex" "$work/sub") $tc" | awk '{print ($1<$2)?$1:$2}')
done
# shellcheck disable=SC2206
scratch=("$CXX" -std=c++17 $FLAGS -I "$KIT/exercises/$ex" -I "$KIT/exercises/common" -isystem "$EIGEN"
         "$work/sub/$ex/$ex.cpp" "$work/sub/$ex/try.cpp" -pthread -o "$work/scratch")
c=$(best_of 3 "${scratch[@]}")
cc=999
for _ in 1 2 3; do cc=$(echo "$(cpu_of "${scratch[@]}") $cc" | awk '{print ($1<$2)?$1:$2}'); done
echo "./kit try $ex after an edit of $ex.cpp, best of 3: $t s; compiling the scratch program: $c s; ratio $(ratio "$t" "$c")x   (aim: 1.2x)"
echo "  the same in CPU time (user + system), best of 3: $tc s against $cc s; ratio $(ratio "$tc" "$cc")x"
