#!/usr/bin/env bash
# The grader as a user or a CI job sees it: the same submission and seed give the same report
# (timings aside), also from the oracle's kept cases; colour appears on a terminal only, and
# never with NO_COLOR set.
# usage: report_modes.sh GRADER KIT_DIR TEST_NAME
set -u
GRADER=$1 KIT=$2 name=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
# Timings, heap peaks and whether a build came from the cache vary; nothing else may.
stable() { grep -v -e '"seconds":' -e '"peak_heap_bytes":' -e '"cached":' "$1"; }

case "$name" in
  reproducible)
    for run in 1 2; do
      "$GRADER" "$KIT/exercises" --quiet --json "$work/stubs$run.json"
      "$GRADER" "$KIT/solutions" --quiet --seed 7 --json "$work/seed7-$run.json"
    done
    diff <(stable "$work/stubs1.json") <(stable "$work/stubs2.json") || fail "two grades of the stubs differ"
    diff <(stable "$work/seed7-1.json") <(stable "$work/seed7-2.json") || fail "two grades with --seed 7 differ"
    grep -q '"seed": 7' "$work/seed7-1.json" || fail "--seed 7 is not in the report"
    grep -q '"status": "failed"' "$work/stubs1.json" || fail "the stubs report has no failed check to compare" ;;
  colour)
    # No 'script' (bsdutils) to make a terminal: a skip for CTest (exit 77), never a pass.
    command -v script >/dev/null || { echo "SKIPPED: no 'script' to make a terminal"; exit 77; }
    esc=$'\033['
    script -qec "'$GRADER' '$KIT/exercises' --only flops" /dev/null </dev/null >"$work/tty.txt" 2>&1
    grep -qF "$esc" "$work/tty.txt" || fail "no colour on a terminal"
    script -qec "NO_COLOR=1 '$GRADER' '$KIT/exercises' --only flops" /dev/null </dev/null >"$work/nocolor.txt" 2>&1
    grep -qF "$esc" "$work/nocolor.txt" && fail "colour despite NO_COLOR"
    "$GRADER" "$KIT/exercises" --only flops >"$work/pipe.txt" 2>&1
    grep -qF "$esc" "$work/pipe.txt" && fail "colour into a pipe"
    grep -q "Total: 0/10" "$work/pipe.txt" || fail "no total line" ;;
  exit-codes)
    "$GRADER" "$KIT/solutions" --quiet || fail "full marks must exit 0"
    "$GRADER" "$KIT/exercises" --quiet; [ $? -eq 1 ] || fail "graded, not full marks, must exit 1"
    "$GRADER" "$KIT/solutions" --quiet --only flops/nosuch; [ $? -eq 2 ] || fail "an unknown check must exit 2"
    "$GRADER" "$KIT/solutions" --quiet --json /nonexistent/dir/r.json; [ $? -eq 2 ] || fail "an unwritable report must exit 2" ;;
  oracle-cache)
    # The live oracle's cases are kept between runs (grader/src/oracle_cache.hpp): a grade keeps
    # a case per check at its own seed, a rerun reads it with the same report, a garbled file is
    # made again, and other seeds are not kept. (The cache is the build's, beside the grader.)
    cache=$(dirname "$(dirname "$GRADER")")/submissions-cache/flops/oracle
    rm -f "$cache"/case-*.cbor  # another grader's leftovers (other seeds, say) are not this one's
    "$GRADER" "$KIT/solutions" --quiet --only flops --json "$work/first.json" || fail "the solutions must pass"
    ls "$cache"/case-*.cbor >/dev/null 2>&1 || fail "no case kept in $cache"
    for f in "$cache"/case-*.cbor; do printf 'garbled' >"$f"; done
    "$GRADER" "$KIT/solutions" --quiet --only flops --json "$work/garbled.json" || fail "a garbled case must be made again"
    diff <(stable "$work/first.json") <(stable "$work/garbled.json") || fail "the report changed with garbled cases"
    for f in "$cache"/case-*.cbor; do [ "$(cat "$f")" != garbled ] || fail "garbled case $f not written again"; done
    "$GRADER" "$KIT/solutions" --quiet --only flops --json "$work/kept.json" || fail "the solutions must pass from kept cases"
    diff <(stable "$work/first.json") <(stable "$work/kept.json") || fail "the report changed with kept cases"
    before=$(find "$cache" -name "case-*" | wc -l)
    "$GRADER" "$KIT/solutions" --quiet --only flops --seed 424242 || fail "the solutions must pass at another seed"
    [ "$(find "$cache" -name "case-*" | wc -l)" = "$before" ] || fail "cases of a seed other than the checks' own were kept" ;;
  *) echo "unknown test $name"; exit 2 ;;
esac
echo ok
