#!/usr/bin/env bash
# Benchmark of batch grading (a benchmark, not a test: it prints figures, asserts nothing).
# Makes N copies of the solutions, each file given a unique comment so that no build comes
# from the grader's cache, then times
#   1. `./kit grade-all` over them (build, link and run every check of every copy), and
#   2. just compiling the same 5 N files with the grader's compiler and flags, on as many
#      parallel jobs as the grader uses (nproc), no ccache;
# and prints both wall times and their ratio (the aim: grade-all within 1.3 times compiling).
# usage: grader/tools/bench-batch.sh [N]   (default 20; after the kit is built)
set -euo pipefail
KIT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LINATTN_BUILD_DIR:-$KIT/build}
GRADE=$BUILD/grader/linattn-grade
[ -x "$GRADE" ] || { echo "build the kit first (./kit grade)"; exit 2; }
N=${1:-20}
JOBS=$(nproc)
config=$BUILD/grader/generated/grader_config.hpp
CXX=$(sed -n 's/^#define LINATTN_CXX "\(.*\)"$/\1/p' "$config")
FLAGS=$(sed -n 's/^#define LINATTN_SUBMISSION_FLAGS "\(.*\)"$/\1/p' "$config")
EIGEN=$(sed -n 's/^#define LINATTN_EIGEN_INCLUDE "\(.*\)"$/\1/p' "$config")
now() { date +%s.%N; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stamp=$(date +%s%N)
make_copies() {  # make_copies DIR TAG: N copies of the solutions, every file unique
  for i in $(seq -w 1 "$N"); do
    cp -r "$KIT/solutions" "$1/student$i"
    for f in "$1/student$i"/*/*.cpp; do printf '\n// copy %s %s %s\n' "$2" "$i" "$stamp" >>"$f"; done
  done
}
mkdir -p "$work/class" "$work/alone"
make_copies "$work/class" grade
make_copies "$work/alone" compile

t0=$(now)
"$GRADE" --kit "$KIT" --batch "$work/class" --out "$work/grades" 2>"$work/grade.log" || true
t1=$(now)
grade=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# shellcheck disable=SC2086
compile_one() { "$CXX" -std=c++17 $FLAGS -I "$KIT/exercises/$(basename "$(dirname "$1")")" \
                  -I "$KIT/exercises/common" -isystem "$EIGEN" -c "$1" -o "$1.o"; }
export -f compile_one
export CXX FLAGS KIT EIGEN
t0=$(now)
# shellcheck disable=SC2016  # "$0" is for the inner bash: the file xargs hands it
find "$work/alone" -name '*.cpp' -print0 | xargs -0 -n 1 -P "$JOBS" bash -c 'compile_one "$0"'
t1=$(now)
compile=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

checks=$(grep -c . "$work/grades/gradebook.csv")
printf 'copies of the solutions: %s (%s files), %s cores\n' "$N" "$((5 * N))" "$JOBS"
printf 'grade-all (build, link, every check):  %6.1f s   (%s gradebook rows incl. header)\n' "$grade" "$checks"
printf 'compiling the same files, %s jobs:      %6.1f s\n' "$JOBS" "$compile"
printf 'ratio: %.2f   (aim: <= 1.3)\n' "$(awk -v g="$grade" -v c="$compile" 'BEGIN { print g / c }')"
