#!/usr/bin/env bash
# tests/mutation/sample --since draws from a change's own lines (label `kit`): run on a scratch
# git repository laid out as a kit, with --list (nothing is built), it lists only sites on the
# lines the later commit added or changed, never one in an exercise's tests (.meta/tests/: the
# instrument, not what it measures), the same draw for the same seed, and a listed equivalent
# mutant as such. Cost: a second.
# usage: mutation_sample.sh KIT_DIR
set -u
KIT_DIR=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- its listing:"; cat "$work/out"; exit 1; }

repo=$work/kit
mkdir -p "$repo/tests/mutation" "$repo/grader/src" "$repo/exercises/ex/.meta/tests"
cp "$KIT_DIR/tests/mutation/sample" "$repo/tests/mutation/sample"
: >"$repo/tests/mutation/equivalent.txt"
cat >"$repo/grader/src/old.cpp" <<'CPP'
int old_sum(int a, int b) { return a + b; }
bool old_less(int a, int b) { return a < b; }
CPP
cat >"$repo/grader/src/mixed.cpp" <<'CPP'
int kept(int a) { return a * 2; }
CPP
git -C "$repo" init -q
git -C "$repo" -c user.name=t -c user.email=t@t add -A
git -C "$repo" -c user.name=t -c user.email=t@t commit -qm before
cat >>"$repo/grader/src/mixed.cpp" <<'CPP'
int added(int a, int b) { return a - b; }
bool added_more(int a, int b) { return a >= b; }
CPP
cat >"$repo/exercises/ex/.meta/tests/t.cpp" <<'CPP'
int in_a_test(int a, int b) { return a + b == 3; }
CPP
git -C "$repo" -c user.name=t -c user.email=t@t add -A
git -C "$repo" -c user.name=t -c user.email=t@t commit -qm after

sample() { "$repo/tests/mutation/sample" --since HEAD~1 --n 50 --seed 7 --list; }
sample >"$work/out" 2>&1 || fail "sample --list exited $?"
grep '^--- [0-9a-f]\{12\} ' "$work/out" >"$work/drawn"
[ -s "$work/drawn" ] || fail "nothing drawn from the added lines"
grep -v ' grader/src/mixed.cpp:[23]\( \|$\)' "$work/drawn" && fail "a site outside the added lines"
if ! grep -q 'mixed.cpp:2' "$work/drawn" || ! grep -q 'mixed.cpp:3' "$work/drawn"; then
  fail "both added lines should have sites"
fi
grep -q '^since HEAD~1: 3 changed lines in 2 files$' "$work/out" || fail "the change's size"

# The same seed draws the same mutants; a listed one is shown as equivalent.
cp "$work/out" "$work/first"
id=$(head -1 "$work/drawn" | cut -d' ' -f2)
echo "$id a reason written by a person" >"$repo/tests/mutation/equivalent.txt"
sample >"$work/out" 2>&1 || fail "sample --list exited $? the second time"
grep '^--- [0-9a-f]\{12\} ' "$work/out" | sed 's/  (listed equivalent.*//' | diff - "$work/drawn" >/dev/null ||
  fail "the same seed drew other mutants"
grep -q "^--- $id .*(listed equivalent: a reason written by a person)" "$work/out" ||
  fail "$id is listed as equivalent but not shown so"
echo "ok: $(wc -l <"$work/drawn") sites drawn, all on the 2 added lines of mixed.cpp"
