#!/usr/bin/env bash
# Sharded grading on GitHub Actions, replayed (label `engines`, issue 33): the jobs and steps of
# grader/tools/sharded-grading/grade-class.yml run in order from the YAML (actions_replay.py:
# the matrix's values, the expressions, the artifacts as folders of files, so an empty folder is
# dropped as upload-artifact drops it), on a class of three students and the workflow's own
# matrix, so at least one shard grades nobody. The merged gradebook, exports and reports must be
# the files one unsharded grade-all run writes, byte for byte.
# What the replay stands in for: the runner's sudo (the test's own user runs the command), the
# kit's build (./kit setup finds the grader this CTest build made: LINATTN_KIT_NO_BUILD, and
# build/ is a link to it), a runner without the AppArmor setting (sysctl fails, as it does there).
# usage: actions.sh GRADER KIT_DIR
set -u
GRADER=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KIT_DIR=$(cd "$2" && pwd)
BUILD_DIR=$(cd "$(dirname "$GRADER")/.." && pwd)
WORKFLOW=$KIT_DIR/grader/tools/sharded-grading/grade-class.yml
skip() { echo "SKIPPED: $*"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || skip "python3 and PyYAML (python3-yaml) are needed: ./kit test installs them"

work=$(mktemp -d /tmp/linattn-actions.XXXXXX)
chmod 755 "$work"
out=$work/out.log
: >"$out"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 60 "$out"; exit 1; }
export NO_COLOR=1

# --- the kit as a checkout sees it, and the class's repository ---------------------------------
kit=$work/kit-repo
mkdir -p "$kit"
tar -C "$KIT_DIR" --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./out \
  --exclude=./course-key --exclude=./grades --exclude=./grades-shards -cf - . | tar -C "$kit" -xf - ||
  fail "cannot copy the kit"
ln -s "$BUILD_DIR" "$kit/build"
# A quick assignment (two exercises whose checks take seconds), a file of the kit's repository
# as an instructor's own would be, and a roster beside it.
cat >"$kit/engines-quick.json" <<'JSON'
{ "title": "Two quick exercises", "exercises": [ { "name": "flops", "points": 10 },
  { "name": "random_features", "points": 20 } ] }
JSON
printf 'folder,id,name\nada,1,Ada\nbob,2,Bob\ncy,3,Cy\ngus,4,Gus\n' >"$kit/roster.csv"
S=$KIT_DIR/solutions
E=$KIT_DIR/exercises
class=$work/class-repo
mkdir -p "$class/submissions/ada" "$class/submissions/bob" "$class/submissions/cy"
cp "$S/flops/flops.cpp" "$S/random_features/random_features.cpp" "$class/submissions/ada/"
cp "$E/flops/flops.cpp" "$E/random_features/random_features.cpp" "$class/submissions/bob/"
cp "$S/flops/flops.cpp" "$class/submissions/cy/"
# A name a student chose that the runner would read as a workflow command (`##[` anywhere in a
# line): grade-all names the file when it cannot unpack it.
echo hi >"$class/submissions/bob/notes##[error title=forged;]forged by a file name.rar"
# The course key, as the secret holds it: the key of the tree the grader was built from (the
# one it reads; in a real run the checkout is that tree, and the workflow writes the key there).
"$GRADER" --kit "$KIT_DIR" make-course-key >>"$out" 2>&1 || fail "cannot make a course key"
key=$(cat "$KIT_DIR/course-key") || fail "make-course-key wrote no course-key"

# --- stand-ins for the runner ------------------------------------------------------------------
shims=$work/shims
mkdir -p "$shims"
cat >"$shims/sudo" <<'SH'
#!/bin/sh
# The runner's passwordless sudo, for the test's own user.
exec "$@"
SH
cat >"$shims/sysctl" <<SH
#!/bin/sh
# A runner whose kernel has no such setting.
echo "\$*" >>"$work/sysctl-calls"
echo "sysctl: cannot stat /proc/sys/kernel/apparmor_restrict_unprivileged_userns: No such file or directory" >&2
exit 255
SH
chmod +x "$shims/sudo" "$shims/sysctl"

python3 - "$work/context.json" "$kit" "$class" "$key" "$shims:$PATH" "$BUILD_DIR" <<'PY' || fail "cannot write the context"
import json, sys
path, kit, klass, key, search, build = sys.argv[1:7]
json.dump({
    "kit": kit, "repositories": {"course/class-2026": klass}, "run_id": "4242",
    "inputs": {"class_repo": "course/class-2026", "class_path": "submissions",
               "roster": "roster.csv", "assignment": "engines-quick.json"},
    "secrets": {"LINATTN_COURSE_KEY": key, "CLASS_REPO_TOKEN": "a-token"},
    "env": {"PATH": search, "LINATTN_BUILD_DIR": build, "LINATTN_KIT_NO_BUILD": "1", "NO_COLOR": "1"},
}, open(path, "w"))
PY

# --- the workflow, replayed ----------------------------------------------------------------------
t0=$(date +%s)
python3 "$KIT_DIR/tests/engines/actions_replay.py" "$WORKFLOW" "$work/state" "$work/context.json" >>"$out" 2>&1 ||
  fail "the replayed workflow did not succeed (exit $?)"
echo "replayed $WORKFLOW in $(($(date +%s) - t0)) s"
grep -E '^\[replay\] (job|artifact|downloaded|warning|cache)' "$out"

# Every line that names the forged file is inside a pause of workflow commands: after a
# ::stop-commands::TOKEN line (a token of 32 hex digits) and before ::TOKEN::.
python3 - "$out" <<'PY' >>"$out.check" 2>&1 || { cat "$out.check" >>"$out"; fail "a student's file name reached the log outside a pause of workflow commands"; }
import re, sys
token, seen = None, 0
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    m = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", line)
    if m and token is None:
        token = m.group(1)
    elif token is not None and line == "::%s::" % token:
        token = None
    elif "forged by a file name" in line:
        seen += 1
        assert token is not None, "outside a pause: " + line
assert seen, "grade-all never named the file"
print("the forged name, %d time(s), only inside a pause" % seen)
PY
cat "$out.check"

# --- one unsharded run, in a checkout of its own with the same key and the same paths ------------
whole=$work/whole
mkdir -p "$whole"
cp -a "$kit/." "$whole/"
cp -a "$class" "$whole/class-repo"
printf '%s\n' "$key" >"$whole/course-key"
(cd "$whole" && "$GRADER" --kit "$whole" grade-all class-repo/submissions --out grades \
  --assignment engines-quick.json --roster roster.csv) >>"$out" 2>&1 || fail "the unsharded grade-all exited $?"

# --- what came out ------------------------------------------------------------------------------
merged=$work/state/jobs/merge-1/work/grades
[ -d "$merged" ] || fail "the merge job wrote no grades/"
[ -d "$work/state/artifacts/grades" ] || fail "the merged grades were not kept as an artifact"
shards=$(python3 -c 'import sys, yaml; print(len(yaml.safe_load(open(sys.argv[1]))["jobs"]["grade"]["strategy"]["matrix"]["shard"]))' "$WORKFLOW")
# Each grade job ran its sysctl line, which failed here, and went on.
[ "$(grep -c apparmor_restrict_unprivileged_userns "$work/sysctl-calls" 2>/dev/null)" = "$shards" ] ||
  fail "not every grade job reached its sysctl line"
empty=0
for k in $(seq 1 "$shards"); do
  a=$work/state/artifacts/grades-$k
  [ -f "$a/shard.done" ] || fail "the artifact grades-$k has no manifest shard.done"
  grep -qx "shard=$k/$shards" "$a/shard.done" || fail "grades-$k's manifest: $(cat "$a/shard.done")"
  if grep -qx 'reports=0' "$a/shard.done"; then
    empty=$((empty + 1))
    [ ! -e "$a/reports" ] || fail "grades-$k graded nobody, yet its artifact kept reports/"
  fi
  echo "shard $k/$shards: $(sed -n 's/^reports=//p' "$a/shard.done") report(s)"
done
[ "$empty" -ge 1 ] || fail "no shard was empty: the class is meant to be smaller than the matrix"
compared=()
for f in gradebook.csv canvas.csv moodle.csv scores.csv similarity.csv class-report.html; do
  [ -f "$whole/grades/$f" ] || continue
  cmp "$whole/grades/$f" "$merged/$f" >>"$out" 2>&1 || {
    diff "$whole/grades/$f" "$merged/$f" | head -n 20 >>"$out"
    fail "$f differs between one grade-all run and the merged shards"
  }
  compared+=("$f")
done
for f in gradebook.csv canvas.csv; do [ -f "$whole/grades/$f" ] || fail "the unsharded run wrote no $f"; done
# The reports are the same students' (their contents hold each run's timings).
names() { (cd "$1/reports" && ls) | sort; }
[ "$(names "$merged")" = "$(names "$whole/grades")" ] || fail "the merged reports are not the class's"
grep -q '^ada,1,Ada,' "$merged/gradebook.csv" || fail "ada is not in the merged gradebook"
# What the cache keeps is ccache's folder, the one the build step's CCACHE_DIR names, keyed by
# the grader's sources (a cached build/ restores nothing useful: see the workflow's header).
python3 - "$WORKFLOW" <<'PY' >>"$out" 2>&1 || fail "the workflow does not cache ccache's folder"
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
for name, job in wf["jobs"].items():
    caches = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/cache@")]
    builds = [s for s in job["steps"] if "./kit setup" in s.get("run", "")]
    assert caches and builds, name + ": no cache step or no build step"
    path = caches[0]["with"]["path"]
    assert builds[0].get("env", {}).get("CCACHE_DIR") == path, (name, path)
    assert "hashFiles(" in caches[0]["with"]["key"] and "grader/**" in caches[0]["with"]["key"], name
    assert "ccache" in builds[0]["run"], name
PY
# A shard whose manifest counts more reports than arrived is refused, not merged short.
lost=$work/lost
for k in $(seq 1 "$shards"); do cp -r "$work/state/artifacts/grades-$k" "$lost-$k"; done
for k in $(seq 1 "$shards"); do
  if [ -d "$lost-$k/reports" ]; then
    rm "$(find "$lost-$k/reports" -name '*.json' | head -n 1)"
    break
  fi
done
(cd "$kit" && "$GRADER" --kit "$kit" merge-grades "$work/lost-out" "$lost"-* \
  --assignment engines-quick.json) >"$work/lost.log" 2>&1
code=$?
cat "$work/lost.log" >>"$out"
if [ "$code" -ne 2 ] || ! grep -q 'was a file lost on the way' "$work/lost.log"; then
  fail "a shard short of a report was merged (exit $code)"
fi

echo "merged outputs identical to the unsharded run: ${compared[*]} ($shards shards, $empty empty)"
echo "PASSED: grade-class.yml replayed; merged = unsharded"
