#!/usr/bin/env bash
# The PrairieLearn pack end to end (label `kit`): `./kit release prairielearn`, the image's
# build step (setup.sh on the pack's copy, as the Containerfile runs it; the image itself is not
# built: no registry is reachable here), then PrairieLearn's /grade laid out in a scratch folder
# for each question (serverFilesCourse/ from the pack, tests/ from the question, the student's
# file in student/) and the entrypoint run as PrairieLearn runs it. Each results.json must be
# PrairieLearn's format; the solutions score 1, the stubs 0, a build error 0 with the compiler's
# message, a submission that reads the grader's files loses what it tried to steal, and a
# question that names no exercise is not gradable.
# usage: prairielearn.sh KIT_DIR BUILD_DIR
set -u
KIT_DIR=$1
BUILD_DIR=$2
work=$(mktemp -d)
chmod 755 "$work"  # the sandbox's chroot layer runs student code as an unprivileged user
out=$work/out.log
: >"$out"
# shellcheck source=tests/grader/cgroup_limits.sh
. "$(dirname "$0")/../grader/cgroup_limits.sh"
trap 'cgroup_remove_all; rm -rf "$work"' EXIT
# shellcheck source=tests/kit/release_helpers.sh
. "$(dirname "$0")/release_helpers.sh"
export NO_COLOR=1
unset LINATTN_BUILD_DIR LINATTN_KIT_NO_BUILD  # the pack's kit builds in its own folder
kit() { LINATTN_KIT_NO_BUILD=1 LINATTN_BUILD_DIR=$BUILD_DIR "$KIT_DIR/kit" "$@"; }
exercises=(flops causal random_features taylor memory)  # the default assignment's

pack=$work/pack
kit release prairielearn "$pack" >"$out" 2>&1 || fail "release prairielearn exited $?"
[ -x "$pack/serverFilesCourse/linattn/entrypoint" ] || fail "the pack has no entrypoint"
[ ! -e "$pack/serverFilesCourse/linattn/kit/solutions" ] || fail "solutions/ in the pack"
[ -s "$pack/serverFilesCourse/linattn/kit/course-key" ] || fail "the pack has no course key"
grep -qx 'FROM debian:12' "$pack/Containerfile" || fail "the Containerfile is not from Debian 12"
[ "$(find "$pack/questions" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')" = \
  "linattn-causal linattn-flops linattn-memory linattn-random_features linattn-taylor " ] ||
  fail "not one question per exercise: $(find "$pack/questions" -mindepth 1 -maxdepth 1 -printf '%f ')"
# info.json as PrairieLearn reads it; uuids distinct and derived from the exercise's name alone.
python3 - "$pack/questions" "${exercises[@]}" <<'PY' || fail "a question's info.json is wrong"
import json, os, re, sys
root, exercises = sys.argv[1], sys.argv[2:]
uuids = set()
for ex in exercises:
    q = os.path.join(root, "linattn-" + ex)
    info = json.load(open(os.path.join(q, "info.json")))
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}", info["uuid"]), info
    uuids.add(info["uuid"])
    assert info["type"] == "v3" and info["gradingMethod"] == "External" and info["singleVariant"] is True, info
    assert info["title"] and info["topic"], info
    g = info["externalGradingOptions"]
    assert g["enabled"] is True and g["image"], g
    assert g["entrypoint"] == "/grade/serverFilesCourse/linattn/entrypoint", g
    assert g["serverFilesCourse"] == ["linattn/"] and 0 < g["timeout"] <= 600, g
    html = open(os.path.join(q, "question.html")).read()
    assert '<pl-file-editor file-name="%s.cpp"' % ex in html and 'source-file-name="%s.cpp"' % ex in html, html
    assert "<pl-external-grader-results>" in html, html
    assert os.path.isfile(os.path.join(q, ex + ".cpp")), "no stub beside " + q
    assert open(os.path.join(q, "tests", "exercise")).read().strip() == ex
assert len(uuids) == len(exercises), uuids
PY
# The uuids are stable: another release, from another folder, gives the same.
kit release prairielearn "$work/again" >"$out" 2>&1 || fail "the second release exited $?"
for ex in "${exercises[@]}"; do
  cmp -s "$pack/questions/linattn-$ex/info.json" "$work/again/questions/linattn-$ex/info.json" ||
    fail "the info.json of $ex differs between two releases"
done
rm -rf "$work/again"

# The image's build step: the pack's copy in "/opt/linattn" built by its setup.sh.
image=$work/image
cp -a "$pack/serverFilesCourse/linattn" "$image"
t0=$(now)
(cd "$image" && CCACHE_BASEDIR=$image ./setup.sh) >"$out" 2>&1 || fail "setup.sh failed"
echo "prairielearn: setup.sh (the image's build of the grader) took $(took "$t0") s"
export LINATTN_PL_HOME=$image PRAIRIELEARN_GRADE_ROOT=$work/grade
grade=$work/grade
results=$grade/results/results.json

# submit EXERCISE FILE: /grade as PrairieLearn lays it out for a submission of FILE as
# EXERCISE's question, and the entrypoint run; $summary reads the results.
submit() {
  local ex=$1 file=$2
  rm -rf "$grade"
  mkdir -p "$grade/student" "$grade/serverFilesCourse"
  cp -a "$pack/serverFilesCourse/linattn" "$grade/serverFilesCourse/"
  cp -a "$pack/questions/linattn-$ex/tests" "$grade/tests"
  cp "$file" "$grade/student/$ex.cpp"
  if [ "${in_cgroup:-0}" = 1 ]; then
    cgroup_run "$out" "$grade/serverFilesCourse/linattn/entrypoint"
    set +e
    [ "$cgroup_code" = 0 ] || fail "the entrypoint exited $cgroup_code in the cgroup"
  else
    "$grade/serverFilesCourse/linattn/entrypoint" >"$out" 2>&1 || fail "the entrypoint exited $?"
  fi
  grep -q 'building it now' "$out" && fail "the entrypoint built the grader instead of using the image's"
  summary=$(results_summary) || fail "results.json is not PrairieLearn's format: $(cat "$results")"
}

# PrairieLearn's results.json: the fields its external grader reads, of their types, score in
# [0, 1]; prints gradable, score (4 decimals) and the number of tests.
results_summary() {
  python3 - "$results" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert isinstance(r["gradable"], bool)
assert isinstance(r["score"], (int, float)) and 0 <= r["score"] <= 1
assert isinstance(r["message"], str) and isinstance(r["output"], str)
for t in r["tests"]:
    for k in ("name", "description", "message", "output"):
        assert isinstance(t[k], str), (k, t)
    assert 0 <= t["points"] <= t["max_points"], t
if r["gradable"] and r["tests"]:
    total = sum(t["max_points"] for t in r["tests"])
    assert abs(sum(t["points"] for t in r["tests"]) / total - r["score"]) < 1e-6, r
print("gradable=%s score=%.4f tests=%d" % (str(r["gradable"]).lower(), r["score"], len(r["tests"])))
PY
}

for ex in "${exercises[@]}"; do
  t0=$(now)
  submit "$ex" "$KIT_DIR/solutions/$ex/$ex.cpp"
  echo "prairielearn, solution of $ex: $summary ($(took "$t0") s)"
  case "$summary" in "gradable=true score=1.0000 "*) ;; *) fail "the solution of $ex did not score 1: $summary" ;; esac
  t0=$(now)
  submit "$ex" "$pack/questions/linattn-$ex/$ex.cpp"
  echo "prairielearn, stub of $ex: $summary ($(took "$t0") s)"
  case "$summary" in "gradable=true score=0.0000 "*) ;; *) fail "the stub of $ex did not score 0: $summary" ;; esac
done

# A build error: a grade of 0 with the compiler's message, naming the student's file.
printf 'this is not C++\n' >"$work/broken.cpp"
submit causal "$work/broken.cpp"
echo "prairielearn, build error: $summary"
case "$summary" in "gradable=true score=0.0000 "*) ;; *) fail "a build error is not a gradable 0: $summary" ;; esac
grep -q 'causal did not compile' "$results" || fail "the message does not say it did not compile"
grep -q 'causal.cpp:1:' "$results" || fail "results.json lacks the compiler's message"

# A hostile submission: memory's read answers right only if it can open the pack's course key or
# reference (in /grade or in the image). The sandbox shows neither: read's checks are lost, the
# others pass.
python3 - "$KIT_DIR/solutions/memory/memory.cpp" "$work/hostile.cpp" \
  "$grade/serverFilesCourse/linattn/kit" "$image/kit" <<'PY'
import sys
src, dest = sys.argv[1:3]
paths = [k + f for k in sys.argv[3:] for f in ("/course-key", "/reference/src/memory.cpp")]
head = "Vector read(const Matrix& S, const Vector& q) {\n"
text = open(src).read()
assert head in text
# Right answers (the solution's own body) only when one of the files opens; zeros otherwise.
probe = "  {\n    bool opened = false;\n"
probe += "".join('    opened = opened || std::ifstream("%s").is_open();\n' % p for p in paths)
probe += "    if (!opened) return Vector::Zero(S.cols());\n  }\n"
open(dest, "w").write("#include <fstream>\n" + text.replace(head, head + probe))
PY
submit memory "$work/hostile.cpp"
echo "prairielearn, hostile submission: $summary"
score=${summary#*score=}; score=${score%% *}
awk -v s="$score" 'BEGIN { exit !(s > 0 && s < 1) }' ||
  fail "expected memory without read's points (a score between 0 and 1): $summary"
grep -q 'course-key\|reference/src' "$results" && fail "results.json shows the grader's paths"

# A small grading container, made real with a cgroup (root only): 768 MiB and half a CPU.
if cgroup_make $((768 << 20)) 50000; then
  in_cgroup=1
  t0=$(now)
  printf '\n// container %s\n' "$RANDOM$RANDOM" >"$work/causal.cpp"
  cat "$KIT_DIR/solutions/causal/causal.cpp" >>"$work/causal.cpp"
  submit causal "$work/causal.cpp"
  in_cgroup=0
  echo "prairielearn in 768 MiB and half a CPU, solution of causal: $summary ($(took "$t0") s)"
  case "$summary" in "gradable=true score=1.0000 "*) ;; *) fail "in the cgroup, the solution did not score 1: $summary" ;; esac
  cgroup_remove_all
else
  echo "prairielearn in 768 MiB and half a CPU: no cgroup can be made here, not tried"
fi

# A question without its tests/exercise: not gradable, and said so (no score for the student).
submit causal "$KIT_DIR/solutions/causal/causal.cpp"
rm -rf "$grade/tests"
"$grade/serverFilesCourse/linattn/entrypoint" >"$out" 2>&1 || fail "the entrypoint exited $?"
summary=$(results_summary) || fail "results.json is not PrairieLearn's format: $(cat "$results")"
echo "prairielearn, no exercise named: $summary"
[ "$summary" = "gradable=false score=0.0000 tests=0" ] || fail "expected not gradable: $summary"
grep -q 'names no exercise' "$results" || fail "the message does not say why"
echo ok
