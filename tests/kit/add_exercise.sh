#!/usr/bin/env bash
# kit/add-exercise: the proof that adding an exercise takes the places the README lists. In a
# copy of the kit, the template exercise `scale` (tests/kit/add_exercise/scale/) is added by
# writing only its folder under exercises/, its solution, its folder under grader/exercises/
# (api.cpp, checks.cpp, oracle/), its two test files in tests/exercises/ and its name in
# exercises/list.txt; nothing else is edited. Then the copy's grader, built from scratch, grades
# the solution with full marks and the untouched stub with 0, naming every check in the JSON
# report; and the copy's own exercise tests pass there (no missing test file, the stub derived
# from the solution, both warning-free). This proves more than that it grades.
# usage: add_exercise.sh KIT_DIR
set -u
KIT_DIR=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -40 "$out"; exit 1; }
export NO_COLOR=1

# The kit as it is now, without its build folders, caches or git history. Its build goes in the
# copy's own build/, so that ccache (keyed on paths relative to the kit, see ./kit) serves every
# unchanged source from the kit's own build.
kit=$work/kit
mkdir -p "$kit"
tar -C "$KIT_DIR" --exclude='./build*' --exclude=./.git --exclude=./course-key -cf - . | tar -C "$kit" -xf -

# The files an exercise consists of, and its line in the list. Nothing else.
cp -r "$KIT_DIR/tests/kit/add_exercise/scale/." "$kit/"
echo scale >>"$kit/exercises/list.txt"
! diff -rq "$KIT_DIR/grader" "$kit/grader" | grep -qv 'Only in .*/grader/exercises: scale' ||
  fail "the copy's grader/ differs from the kit's by more than the exercise's folder"
! diff -rq "$KIT_DIR/tests" "$kit/tests" | grep -qv 'Only in .*/tests/exercises: s[a-z]*_scale.cpp' ||
  fail "the copy's tests/ differs from the kit's by more than the exercise's two test files"

report=$work/solutions.json
(cd "$kit" && env -u LINATTN_BUILD_DIR ./kit grade solutions --only scale --json "$report") >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] || fail "grading the solution of the new exercise exited $status, not 0 (full marks)"
python3 - "$report" <<'PY' >>"$out" 2>&1 || fail "the report of the solution is not as expected"
import json, sys
r = json.load(open(sys.argv[1]))
ex = [e for e in r["exercises"] if e["name"] == "scale"]
assert len(ex) == 1, "no exercise scale in the report"
checks = {c["name"]: c for c in ex[0]["checks"]}
assert set(checks) == {"scale/by-two", "scale/negative", "scale/random-hidden"}, checks.keys()
assert all(c["status"] == "passed" and c["function"] == "scale" for c in checks.values())
assert ex[0]["score"] == ex[0]["max_score"] == 3, (ex[0]["score"], ex[0]["max_score"])
PY

report=$work/stub.json
(cd "$kit" && env -u LINATTN_BUILD_DIR ./kit grade exercises --only scale --json "$report") >"$out" 2>&1
status=$?
[ "$status" -eq 1 ] || fail "grading the untouched stub exited $status, not 1 (graded, not full marks)"
python3 - "$report" <<'PY' >>"$out" 2>&1 || fail "the report of the stub is not as expected"
import json, sys
r = json.load(open(sys.argv[1]))
ex = [e for e in r["exercises"] if e["name"] == "scale"][0]
assert ex["score"] == 0 and ex["max_score"] == 3
assert all(c["status"] == "not_implemented" for c in ex["checks"]), [c["status"] for c in ex["checks"]]
PY
# The copy's own tests that concern exercises, those a new exercise would break unless its
# documented places are all filled: the `exercises` label's missing-file and warning-free
# tests (no program to build) and the stubs derived from solutions (one small program). The
# judge tests on fake replies and the solutions' own programs are left to the kit's suite:
# adding an exercise changes every test program's include path, so building them here costs
# as much as a fresh build.
(cd "$kit" && cmake --build build -j "${LINATTN_JOBS:-2}" --target exercises_single_source) >"$out" 2>&1 ||
  fail "the copy's single-source test does not build with the new exercise"
(cd "$kit/build" && ctest -L exercises -R '^(exercises/|single-source)' --output-on-failure) >"$out" 2>&1 ||
  fail "the copy's exercise tests fail with the new exercise"
grep -q 'exercises/warning-free/solution/scale' "$kit/build/tests/exercises/CTestTestfile.cmake" ||
  fail "the copy's tests do not cover the new exercise"
echo "ok: scale added in its documented places; solution 3/3, stub 0/3; the copy's exercise tests pass"
