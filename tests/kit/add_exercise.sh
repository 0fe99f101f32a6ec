#!/usr/bin/env bash
# kit/add-exercise: the proof that adding an exercise takes the places the README lists. In a
# copy of the kit, the template exercise `scale` (tests/kit/add_exercise/scale/) is added by
# writing only its folder under exercises/ (with its hidden grader side, .meta/: api.cpp,
# checks.cpp, oracle/, tests/ with its judge, solution and stub tests) and its solution (its
# manifest, .meta/config.json, is what makes it part of the kit); nothing else is edited. Then,
# in the copy:
#  1. its grader, built there, grades the solution with full marks and the untouched stub with 0,
#     naming every check in the JSON report;
#  2. the kit's own tests of the exercise side pass there, the new exercise's among them:
#     - label `exercises`, whole: the solutions' and the stubs' tests, the stubs derived from the
#       solutions, both warning-free, no `exercises/missing/*` test;
#     - of label `grader`, the tests of the checks that an exercise must pass (program
#       checks_tests, tests/checks/): exercise_checks() against the manifests and the
#       assignments, and the rules every exercise's checks follow (the reference passes them at
#       any seed, requests are deterministic, hidden inputs change with the seed, requests fit
#       the API description, a near miss fails, on every call); then the new exercise's own judge
#       tests (exercises/scale/.meta/tests/) and its diagnosis table; no `grader/missing/*` test.
#       The rules are checked on scale alone (LINATTN_CHECKS_ONLY=scale, see
#       tests/checks/fake_runner.hpp): over all nine they take minutes of CPU.
# Not run here: the eight other exercises' judge tests and tables, and the rest of label `grader`
# (sandbox, builder, runner, reports, course and batch grading, the corpus of submissions). Their
# code and data are the kit's, unchanged (the grader/ and tests/ diffs below allow only the new
# files), so they pass here as they pass in the kit's own suite; the engine is not touched by an
# exercise, and step 1 runs it on the new one. Cost: ccache serves every unchanged source (its
# preprocessed text is the kit's), so the copy compiles only the files that name the new exercise
# or the copy's own path.
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

# The files an exercise consists of: its folder and its solution. Nothing else.
cp -r "$KIT_DIR/tests/kit/add_exercise/scale/." "$kit/"
! diff -rq -x __pycache__ "$KIT_DIR/grader" "$kit/grader" | grep -q . ||
  fail "the copy's grader/ differs from the kit's: an exercise adds nothing there"
! diff -rq -x __pycache__ "$KIT_DIR/tests" "$kit/tests" | grep -q . ||
  fail "the copy's tests/ differs from the kit's: an exercise's tests are in its own folder"

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
# Step 2: the copy's tests of the exercise side (see the top of this file). ccache keys on paths
# relative to the copy, as ./kit sets it for its own builds.
(cd "$kit" && CCACHE_BASEDIR=$kit cmake --build build -j "${LINATTN_JOBS:-2}" --target \
   exercises_single_source exercises_solutions exercises_stubs exercises_memory_rule checks_tests) >"$out" 2>&1 ||
  fail "the copy's exercise and checks tests do not build with the new exercise"
# Of checks_tests, the tests of exercise_checks() and of the API, the near-miss rules over every
# check, and
# scale's judge tests and table (names: tests/checks/*_test.cpp, exercises/*/.meta/tests/).
checks_tests='^grader/(checks/registry: |api: |checks/near-miss: (every judge|a judge of several)|checks/scale: |diagnosis table: scale$|missing/)'
export LINATTN_CHECKS_ONLY=scale
(cd "$kit/build" && ctest -N -L exercises && ctest -N -L grader -R "$checks_tests") >"$out" 2>&1
for t in 'exercises/warning-free/solution/scale' 'solutions/scale: ' 'stubs/scale: ' \
         'grader/checks/scale: a dropped sign' 'grader/diagnosis table: scale' 'grader/checks/registry: '; do
  grep -qF "$t" "$out" || fail "the copy's tests do not include $t"
done
! grep -qE '(exercises|grader)/missing/' "$out" || fail "the copy lacks a test file of an exercise (the missing/ test above)"
(cd "$kit/build" && ctest -j "${LINATTN_JOBS:-2}" -L exercises --output-on-failure) >"$out" 2>&1 ||
  fail "the copy's exercise tests (label exercises) fail with the new exercise"
(cd "$kit/build" && ctest -j "${LINATTN_JOBS:-2}" -L grader -R "$checks_tests" --output-on-failure) >"$out" 2>&1 ||
  fail "the copy's tests of the checks (label grader, tests/checks/ and each exercise's tests/) fail with the new exercise"
echo "ok: scale added in its documented places; solution 3/3, stub 0/3; in the copy, label exercises and the checks' tests pass"
