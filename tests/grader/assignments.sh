#!/usr/bin/env bash
# --assignment end to end (label `grader`): the grader grades exactly an assignment's exercises
# with its points, refuses a wrong file, gives Gradescope the file's visibilities without
# letting the hidden points into the visible line, and grade-all regrades when the assignment
# changes. Assignment files are written to a temporary folder and named by path.
# usage: assignments.sh GRADER KIT_DIR TEST_NAME
set -u
GRADER=$1 KIT=$2 name=$3
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
out=$work/out.log
: >"$out"
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 30 "$out"; exit 1; }
export NO_COLOR=1

# field FILE EXPR: a value from a JSON file (python3's json, as the kit's other tests use it).
field() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# flops (10 points) and memory (20): 30 points.
cat >"$work/two.json" <<'EOF'
{ "title": "two exercises",
  "exercises": [ { "name": "flops", "points": 10 }, { "name": "memory", "points": 20 } ] }
EOF

case "$name" in
  two-exercises)
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/two.json" --json "$work/r.json" >"$out" 2>&1
    code=$?
    [ $code -eq 0 ] || fail "the solutions on two exercises exited $code, expected 0"
    [ "$(field "$work/r.json" '"%g" % j["max_score"]')" = 30 ] || fail "max_score is not 30"
    [ "$(field "$work/r.json" '"%g" % j["score"]')" = 30 ] || fail "score is not 30"
    [ "$(field "$work/r.json" '" ".join(e["name"] for e in j["exercises"])')" = "flops memory" ] ||
      fail "graded other exercises than flops and memory"
    [ "$(field "$work/r.json" 'j["assignment"]')" = two ] || fail "the report does not name the assignment"
    # The stubs: graded, not full marks, out of the same 30.
    "$GRADER" "$KIT/exercises" --quiet --assignment "$work/two.json" --json "$work/s.json" >"$out" 2>&1
    [ $? -eq 1 ] || fail "the stubs did not exit 1"
    [ "$(field "$work/s.json" '"%g" % j["max_score"]')" = 30 ] || fail "the stubs' max_score is not 30"
    # --only may pick an exercise of the kit outside the assignment (a new one, not yet in a
    # hand-out): it is graded alone, out of its own points. One the kit lacks is bad usage.
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/two.json" --only causal --json "$work/c.json" >"$out" 2>&1 ||
      fail "--only causal outside the assignment exited $?"
    [ "$(field "$work/c.json" '" ".join(e["name"] for e in j["exercises"])')" = causal ] || fail "--only causal graded others"
    [ "$(field "$work/c.json" '"%g" % j["max_score"]')" = 35 ] || fail "--only causal is not out of its 35 points"
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/two.json" --only nosuch >"$out" 2>&1
    [ $? -eq 2 ] || fail "--only nosuch did not exit 2"
    grep -q "no exercise named 'nosuch' in the kit" "$out" || fail "no message naming the exercise"
    # Without --assignment: the kit's default, all five exercises and 100 points.
    "$GRADER" "$KIT/solutions" --quiet --only flops --json "$work/d.json" >"$out" 2>&1 || fail "default exited $?"
    [ "$(field "$work/d.json" 'j["assignment"]')" = default ] || fail "the default assignment is not 'default'" ;;

  reweighted)
    # memory at 25 points instead of its checks' 20: the checks are scaled, every report shows
    # the scaled points, and they add up to exactly 25 (no rounding drift).
    sed 's/"points": 20/"points": 25/' "$work/two.json" >"$work/wrong.json"
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/wrong.json" --json "$work/r.json" \
      --gradescope "$work/g.json" >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "the solutions at reweighted points exited $code, expected 0"
    [ "$(field "$work/r.json" '"%g %g" % (j["score"], j["max_score"])')" = "35 35" ] || fail "not 35 / 35"
    [ "$(field "$work/r.json" 'round(sum(c["max_score"] for c in j["exercises"][1]["checks"]) * 100)')" = 2500 ] ||
      fail "memory's checks do not add up to 25"
    [ "$(field "$work/g.json" 'round(sum(t["max_score"] for t in j["tests"] if t["name"].startswith("memory")) * 100)')" = 2500 ] ||
      fail "Gradescope's memory tests do not add up to 25"
    "$GRADER" assignment "$work/wrong.json" >"$out" 2>&1 || fail "assignment exited $?"
    grep -q "^memory  25 points" "$out" || fail "the assignment's description does not give memory 25 points"
    # Hidden points beside after_published checks: a warning at load, which names the check.
    cat >"$work/leak.json" <<'JSON'
{ "exercises": [ { "name": "flops", "points": 10, "visibility": [
    { "checks": "*", "visibility": "after_published" },
    { "checks": "crossover/*", "visibility": "hidden" } ] } ] }
JSON
    "$GRADER" assignment "$work/leak.json" >"$out" 2>&1 || fail "assignment leak.json exited $?"
    grep -q "warning: .*hidden checks carry points (flops/crossover/.*after_published" "$out" ||
      fail "no warning for hidden points beside after_published checks" ;;

  unknown-exercise)
    sed 's/"memory"/"chunky"/' "$work/two.json" >"$work/unknown.json"
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/unknown.json" >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "an unknown exercise exited $code, expected 2"
    grep -q "no exercise named 'chunky'" "$out" || fail "no message naming the exercise"
    "$GRADER" "$KIT/solutions" --quiet --assignment no-such-assignment >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "a missing assignment exited $code, expected 2"
    grep -q "no assignment file .*no-such-assignment.json" "$out" || fail "no message naming the file" ;;

  gradescope-visibility)
    # flops alone: by-hand hidden, the crossover checks after publishing, the table's hidden
    # random-sizes after the due date (the default); flops/65536-tokens (2.5) stays visible.
    cat >"$work/vis.json" <<'EOF'
{ "exercises": [ { "name": "flops", "points": 10, "visibility": [
    { "checks": "crossover/*", "visibility": "after_published" },
    { "checks": "flops/by-hand", "visibility": "hidden" } ] } ] }
EOF
    "$GRADER" "$KIT/solutions" --quiet --assignment "$work/vis.json" --gradescope "$work/gs.json" \
      --json "$work/r.json" >"$out" 2>&1 || fail "grading exited $?"
    vis() { field "$work/gs.json" "{t['name']: t['visibility'] for t in j['tests']}['flops: $1']"; }
    [ "$(vis flops/by-hand)" = hidden ] || fail "flops/by-hand is $(vis flops/by-hand), not hidden"
    [ "$(vis flops/65536-tokens)" = visible ] || fail "flops/65536-tokens is not visible"
    [ "$(vis flops/random-sizes)" = after_due_date ] || fail "the table's hidden check is not after_due_date"
    for c in equal-widths off-by-one fractional large-widths; do
      [ "$(vis "crossover/$c")" = after_published ] || fail "crossover/$c is not after_published"
    done
    # The native report says the same.
    [ "$(field "$work/r.json" '[c["visibility"] for c in j["exercises"][0]["checks"]][0]')" = hidden ] ||
      fail "the native report does not carry the visibility"
    # Full marks, but the visible line holds only the visible check's 2.5 points.
    line=$(field "$work/gs.json" 'j["output"]')
    echo "top line: $line"
    case "$line" in
      "linattn-kit grader: 2.5 / 2.5 in the checks shown now."*"(7.5 points)"*) ;;
      *) fail "the top line is not the visible 2.5 / 2.5: $line" ;;
    esac
    case "$line" in *10*) fail "the top line gives the whole score away: $line" ;; esac ;;

  reuse-stamp)
    # A class of one submission with no files (nothing to build): grade-all grades it once,
    # not again when nothing changed, and again for another assignment or an edited one.
    mkdir -p "$work/class/nobody"
    echo "no code here" >"$work/class/nobody/README.txt"
    graded() {  # graded WANT WHAT [OPTIONS...]
      local want=$1 what=$2 got
      shift 2
      "$GRADER" --kit "$KIT" grade-all "$work/class" --out "$work/grades" "$@" >"$out" 2>&1 ||
        fail "$what: grade-all exited $?"
      got=$(sed -n 's/^grade-all: 1 submissions, \([0-9]*\) to grade.*/\1/p' "$out")
      [ "$got" = "$want" ] || fail "$what: expected $want to grade, the summary says '${got:-nothing}'"
    }
    graded 1 "first run" --assignment "$work/two.json"
    graded 0 "unchanged rerun" --assignment "$work/two.json"
    [ "$(field "$work/grades/reports/nobody.json" '"%g" % j["max_score"]')" = 30 ] || fail "the report is not out of 30"
    head -n 1 "$work/grades/gradebook.csv" | grep -q "flops.*memory" || fail "the gradebook's columns are not the assignment's"
    head -n 1 "$work/grades/gradebook.csv" | grep -q "causal" && fail "the gradebook has a column for causal"
    # The same file under another name: the report names its assignment, so it is graded again.
    cp "$work/two.json" "$work/other.json"
    graded 1 "the same file, another name" --assignment "$work/other.json"
    [ "$(field "$work/grades/reports/nobody.json" 'j["assignment"]')" = other ] || fail "the report names no 'other'"
    # Other exercises.
    sed 's/"memory", "points": 20/"taylor", "points": 15/' "$work/two.json" >"$work/other.json"
    graded 1 "other exercises" --assignment "$work/other.json"
    [ "$(field "$work/grades/reports/nobody.json" '"%g" % j["max_score"]')" = 25 ] || fail "the regrade is not out of 25"
    # The same exercises and points, one visibility changed.
    sed 's/"points": 10 }/"points": 10, "visibility": [ { "checks": "*", "visibility": "after_published" } ] }/' \
      "$work/other.json" >"$work/edited.json" && mv "$work/edited.json" "$work/other.json"
    grep -q after_published "$work/other.json" || fail "the test's own edit did not apply"
    graded 1 "an edited visibility" --assignment "$work/other.json"
    graded 0 "unchanged again" --assignment "$work/other.json" ;;

  kit-assignments)
    # Every assignment the kit ships reads without error, and the solutions get full marks on
    # it, out of the sum of its points, on exactly its exercises.
    found=0
    for file in "$KIT"/assignments/*.json; do
      [ -f "$file" ] || continue
      found=$((found + 1))
      a=$(basename "$file" .json)
      "$GRADER" assignment "$a" >"$out" 2>&1 || fail "the assignment $a does not read"
      "$GRADER" "$KIT/solutions" --quiet --assignment "$a" --json "$work/$a.json" >"$out" 2>&1 ||
        fail "the solutions on $a exited $?"
      want=$(field "$file" 'sum(e["points"] for e in j["exercises"])')
      got=$(field "$work/$a.json" 'float(j["max_score"])')
      [ "$(python3 -c "print(float($want) == float($got))")" = True ] || fail "$a: max_score $got, its points add up to $want"
      [ "$(field "$work/$a.json" '[e["name"] for e in j["exercises"]]')" = "$(field "$file" '[e["name"] for e in j["exercises"]]')" ] ||
        fail "$a: the report's exercises are not the file's"
      echo "$a: solutions $(field "$work/$a.json" '"%g" % j["score"]') / $got"
    done
    [ -f "$KIT/assignments/default.json" ] || fail "no default assignment"
    [ "$(field "$KIT/assignments/default.json" 'sum(e["points"] for e in j["exercises"])')" = 100 ] ||
      fail "the default assignment is not worth 100 points"
    [ "$found" -gt 0 ] || fail "no assignments in the kit" ;;

  only-as-typed)
    # A check of the advanced assignment, named as the report shows it under its exercise
    # (chunkwise's checks are "chunkwise/...") or in the full form the hand-outs teach: both
    # select it, and its rerun line (the full form) names the assignment (issue 34).
    for typed in chunkwise/hand-example chunkwise/chunkwise/hand-example; do
      "$GRADER" "$KIT/solutions" --quiet --assignment advanced --only "$typed" --json "$work/o.json" >"$out" 2>&1 ||
        fail "--only $typed exited $?"
      [ "$(field "$work/o.json" '[c["name"] for e in j["exercises"] for c in e["checks"]]')" = "['chunkwise/hand-example']" ] ||
        fail "--only $typed graded other checks"
      seed=$(field "$work/o.json" 'j["exercises"][0]["checks"][0]["seed"]')
      [ "$(field "$work/o.json" 'j["exercises"][0]["checks"][0]["rerun"]')" = \
        "./kit grade $KIT/solutions --assignment advanced --only chunkwise/chunkwise/hand-example --seed $seed" ] ||
        fail "--only $typed: rerun line $(field "$work/o.json" 'j["exercises"][0]["checks"][0]["rerun"]')"
    done
    # A name that is no check: the list holds whole --only arguments.
    "$GRADER" "$KIT/solutions" --quiet --assignment advanced --only chunkwise/hand >"$out" 2>&1
    [ $? -eq 2 ] || fail "--only chunkwise/hand did not exit 2"
    grep -qx "  chunkwise/chunkwise/hand-example" "$out" || fail "the unknown check's list is not as --only takes it" ;;

  *) echo "unknown test $name"; exit 2 ;;
esac
echo ok
