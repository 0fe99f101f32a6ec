#!/usr/bin/env bash
# Every entry of tests/mutation/mutations.txt still applies to the kit (label `kit`): its file
# is there and its text occurs there exactly once (tests/mutation/run.sh --check), so that no
# entry silently stops being run after the code it mutates was rewritten. And the check itself
# refuses an entry whose text is gone.
# usage: mutation_entries.sh KIT_DIR
set -u
KIT_DIR=$1
RUN=$KIT_DIR/tests/mutation/run.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$RUN" --check >"$work/out" 2>&1
status=$?
grep STALE "$work/out"
tail -1 "$work/out"
[ "$status" -eq 0 ] || { echo "FAILED: stale entries in mutations.txt (rewrite their find: lines)"; exit 1; }
printf '[gone]\nfile: README.md\nlabels: kit\nfind: a text no file of the kit holds 7f3a\nreplace: x\n' >"$work/stale.txt"
"$RUN" --check --mutations "$work/stale.txt" >"$work/out" 2>&1
status=$?
if [ "$status" -ne 1 ] || ! grep -q 'STALE   gone' "$work/out"; then
  echo "FAILED: run.sh --check did not refuse a stale entry (exit $status):"; cat "$work/out"; exit 1
fi
echo ok
