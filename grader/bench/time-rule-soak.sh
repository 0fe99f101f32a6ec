#!/usr/bin/env bash
# Soak test of the time rule (a benchmark script, not a CTest test): grades the solutions' time
# checks N times (default 50), optionally while a parallel build loads every core, and counts
# the runs in which any time check failed. A time check must never fail a right, linear form,
# however busy the machine. Prints each failure's message and the growth figures seen.
# usage: grader/bench/time-rule-soak.sh [N] [--load]
#   --load   run `make -j$(nproc)`-like load alongside: a loop of compiles of the kit's sources
set -u
KIT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LINATTN_BUILD_DIR:-$KIT/build}
GRADE=$BUILD/grader/linattn-grade
[ -x "$GRADE" ] || { echo "build the kit first (./kit grade)"; exit 2; }
runs=${1:-50}
load=0
[ "${2:-}" = --load ] && load=1

work=$(mktemp -d)
loader=""
cleanup() { [ -n "$loader" ] && kill "$loader" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if [ "$load" = 1 ]; then
  # Load like a parallel build: every core compiling the reference's sources, again and again.
  ( while :; do
      for f in "$KIT"/reference/src/*.cpp; do
        c++ -std=c++17 -O2 -I"$KIT/reference/include" -I/usr/include/eigen3 -c "$f" -o /dev/null &
      done
      wait
    done ) &
  loader=$!
fi

# The time checks of every exercise, found by name in one grading of each assignment.
checks=""
for assignment in "$KIT"/assignments/*.json; do
  "$GRADE" "$KIT/solutions" --assignment "$assignment" --quiet --json "$work/all.json" >/dev/null 2>&1
  checks="$checks $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for e in r["exercises"]:
    for c in e["checks"]:
        if c["name"].endswith("linear-time"): print(e["name"] + "/" + c["name"])' "$work/all.json")"
done
failures=0
for i in $(seq "$runs"); do
  for c in $checks; do
    "$GRADE" "$KIT/solutions" --only "$c" --quiet --json "$work/r.json" >/dev/null 2>&1
    if ! python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
ok = all(c["status"] == "passed" for e in r["exercises"] for c in e["checks"])
sys.exit(0 if ok else 1)' "$work/r.json"; then
      failures=$((failures + 1))
      echo "run $i: $c FAILED"
      python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for e in r["exercises"]:
    for c in e["checks"]: print(c["message"])' "$work/r.json"
    fi
  done
  printf '.'
done
echo
echo "time checks: $(echo "$checks" | wc -w) per run, $runs runs, load: $([ $load = 1 ] && echo "a parallel build on every core" || echo none); failures: $failures"
