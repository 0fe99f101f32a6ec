#!/usr/bin/env bash
# Per-student seeds end to end (label `grader`): an assignment with "seeds": "per-student" gives
# each student inputs of their own in course grading (--student, grade-all's roster, Gradescope's
# submission_metadata.json), the same ones at every submission; a correct solution passes and a
# wrong one fails for every student; the rerun line a report prints reproduces the failing
# check; and what cannot work (no student, a kit without the reference) is refused, clearly.
# One exercise (memory, 13 quick checks) keeps each grading to a few seconds.
# usage: student_seeds.sh GRADER KIT_DIR TEST_NAME
set -u
GRADER=$1 KIT=$2 name=$3
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
out=$work/out.log
: >"$out"
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 30 "$out"; exit 1; }
export NO_COLOR=1

# field FILE EXPR: a value from a JSON file.
field() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# Every check's seed, and the failed checks' names, of a native report.
seeds() { field "$1" '" ".join(str(c["seed"]) for e in j["exercises"] for c in e["checks"])'; }
failed() { field "$1" '" ".join(c["name"] for e in j["exercises"] for c in e["checks"] if c["status"] != "passed")'; }
message_of() { field "$1" "[c['message'] for e in j['exercises'] for c in e['checks'] if c['name'] == '$2'][0]"; }

cat >"$work/per-student.json" <<'EOF'
{ "title": "memory, each student's own inputs", "seeds": "per-student",
  "exercises": [ { "name": "memory", "points": 20 } ] }
EOF
# The solutions, and a read that forgets to normalize the query (fails the read checks).
mkdir -p "$work/right" "$work/wrong/memory"
cp -r "$KIT/solutions/memory" "$work/right/"
sed 's|  return S.transpose() \* q.normalized();  // (d_v)|  return S.transpose() * q;  // mistake|' \
  "$KIT/solutions/memory/memory.cpp" >"$work/wrong/memory/memory.cpp"
grep -q "// mistake" "$work/wrong/memory/memory.cpp" || fail "the solution's read changed: update this test's edit"

# grade DIR STUDENT REPORT [more options]: course grading of DIR as STUDENT's.
grade() {
  local dir=$1 student=$2 report=$3
  shift 3
  "$GRADER" "$dir" --quiet --assignment "$work/per-student.json" --student "$student" --json "$report" "$@" \
    >>"$out" 2>&1
}

case "$name" in
  two-students)
    grade "$work/right" alice "$work/ra.json" || fail "alice's correct solution is not full marks"
    grade "$work/right" bob "$work/rb.json" || fail "bob's correct solution is not full marks"
    [ "$(field "$work/ra.json" 'j["seeds"] + " " + j["student"]')" = "per-student alice" ] ||
      fail "the report does not say whose seeds it used"
    a=$(seeds "$work/ra.json") b=$(seeds "$work/rb.json")
    [ "$a" != "$b" ] || fail "alice and bob got the same seeds: $a"
    # No check shares a seed between the two.
    python3 -c 'import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); sys.exit(any(x == y for x, y in zip(a, b)))' \
      "$a" "$b" || fail "a check has the same seed for alice and bob"
    grade "$work/right" alice "$work/ra2.json"
    [ "$(seeds "$work/ra2.json")" = "$a" ] || fail "alice's seeds changed between two submissions"
    # A wrong solution fails the same checks for both, on inputs of their own.
    grade "$work/wrong" alice "$work/wa.json"; [ $? -eq 1 ] || fail "alice's wrong solution did not exit 1"
    grade "$work/wrong" bob "$work/wb.json"; [ $? -eq 1 ] || fail "bob's wrong solution did not exit 1"
    [ -n "$(failed "$work/wa.json")" ] || fail "the wrong solution passed under per-student seeds"
    [ "$(failed "$work/wa.json")" = "$(failed "$work/wb.json")" ] || fail "alice and bob got different verdicts"
    [ "$(message_of "$work/wa.json" read/square-state)" != "$(message_of "$work/wb.json" read/square-state)" ] ||
      fail "alice's and bob's failing inputs are the same" ;;

  rerun)
    grade "$work/wrong" alice "$work/wa.json"
    rerun=$(field "$work/wa.json" '[c["rerun"] for e in j["exercises"] for c in e["checks"] if c["status"] == "failed"][0]')
    check=$(field "$work/wa.json" '[c["name"] for e in j["exercises"] for c in e["checks"] if c["status"] == "failed"][0]')
    seed=$(field "$work/wa.json" "[c['seed'] for e in j['exercises'] for c in e['checks'] if c['name'] == '$check'][0]")
    case "$rerun" in
      "./kit grade $work/wrong --assignment $work/per-student.json --only memory/$check --seed $seed") ;;
      *) fail "the rerun line does not carry the assignment and the check's seed $seed: $rerun" ;;
    esac
    # Run as printed (./kit is the grader here), without the course key or the student's id.
    eval "${rerun/#.\/kit/\"\$GRADER\"} --quiet --json \"\$work/again.json\"" >>"$out" 2>&1
    [ $? -eq 1 ] || fail "the rerun line did not grade the check as failed"
    [ "$(field "$work/again.json" '[c["seed"] for e in j["exercises"] for c in e["checks"]]')" = "[$seed]" ] ||
      fail "the rerun did not run the check at seed $seed"
    [ "$(message_of "$work/again.json" "$check")" = "$(message_of "$work/wa.json" "$check")" ] ||
      fail "the rerun's failure is not the same as the report's (other inputs)" ;;

  refusals)
    # No student: nobody's seeds.
    "$GRADER" "$work/right" --quiet --course --assignment "$work/per-student.json" >"$out" 2>&1
    [ $? -eq 2 ] || fail "per-student seeds without a student did not exit 2"
    grep -q "name the student with --student ID" "$out" || fail "no message saying how to name the student"
    # --student on an assignment with one set of seeds for the class: the course's seeds, and a
    # note that the id is not used (a driver may name the student for every assignment).
    "$GRADER" "$work/right" --quiet --only memory --student alice --json "$work/c.json" >"$out" 2>&1 ||
      fail "--student on the default assignment exited $?"
    grep -q "is not used: the assignment 'default' has one set of seeds for the whole class" "$out" ||
      fail "no note for --student on course seeds"
    [ "$(field "$work/c.json" 'j["seeds"]')" = course ] || fail "--student on course seeds did not use the course's"
    # A kit without the reference (a recording, as the student kit has) cannot work out a
    # student's expected values.
    "$GRADER" record-oracle "$work/oracle.cbor" --visible-only --assignment "$work/per-student.json" >"$out" 2>&1 ||
      fail "record-oracle exited $?"
    grade "$work/right" alice "$work/r.json" --replay "$work/oracle.cbor"
    [ $? -eq 2 ] || fail "per-student seeds on recorded values did not exit 2"
    grep -q "gives each student seeds of their own, and --course grades with the course's own seeds, which needs the reference" \
      "$out" || fail "no message saying per-student seeds need the reference"
    # Without --course (a student's own grading), the recording's own seeds, as always.
    "$GRADER" "$work/right" --quiet --assignment "$work/per-student.json" --replay "$work/oracle.cbor" \
      --visible-only --json "$work/own.json" >"$out" 2>&1 || fail "own grading on the recording exited $?"
    [ "$(field "$work/own.json" 'j["seeds"]')" = own ] || fail "own grading did not use the checks' own seeds" ;;

  grade-all)
    # alice has two folders (the roster's pattern takes both), zed is not in the roster.
    mkdir -p "$work/class"
    cp -r "$work/right" "$work/class/alice"
    cp -r "$work/wrong" "$work/class/alice_v2"
    cp -r "$work/right" "$work/class/bob"
    cp -r "$work/wrong" "$work/class/zed"
    printf 'folder,id,name,email\nalice*,s001,Alice,a@example.org\nbob,s002,Bob,b@example.org\n' >"$work/roster.csv"
    "$GRADER" grade-all "$work/class" --out "$work/grades" --roster "$work/roster.csv" \
      --assignment "$work/per-student.json" >"$out" 2>&1 || fail "grade-all exited $?"
    r=$work/grades/reports
    [ "$(field "$r/alice.json" 'j["student"]')" = s001 ] || fail "alice's seeds are not her roster id's"
    [ "$(field "$r/alice_v2.json" 'j["student"]')" = s001 ] || fail "alice_v2's seeds are not alice's roster id's"
    [ "$(field "$r/zed.json" 'j["student"]')" = zed ] || fail "a folder not in the roster does not use its own name"
    [ "$(seeds "$r/alice.json")" = "$(seeds "$r/alice_v2.json")" ] || fail "one student's two folders got other seeds"
    [ "$(seeds "$r/alice.json")" != "$(seeds "$r/bob.json")" ] || fail "alice and bob share seeds"
    # The same as one student's own grading: seeds follow the id, not the run.
    grade "$work/class/bob" s002 "$work/bob.json"
    [ "$(seeds "$work/bob.json")" = "$(seeds "$r/bob.json")" ] || fail "grade-all's seeds for s002 differ from --student s002"
    [ "$(field "$r/zed.json" 'j["score"]')" = 16.0 ] || fail "zed's wrong solution did not lose the read checks"
    # A new roster id is a new student: that report is graded again, the others are kept.
    sed -i 's/bob,s002/bob,s099/' "$work/roster.csv"
    "$GRADER" grade-all "$work/class" --out "$work/grades" --roster "$work/roster.csv" \
      --assignment "$work/per-student.json" >"$out" 2>&1 || fail "grade-all again exited $?"
    grep -q "4 submissions, 1 to grade, 3 unchanged" "$out" || fail "a changed roster id did not regrade just that student"
    [ "$(field "$r/bob.json" 'j["student"]')" = s099 ] || fail "bob's report is not graded with his new id" ;;

  gradescope)
    # What the bundle's run_autograder passes: --course, the assignment, Gradescope's metadata.
    # The student's sid names the seeds; their own due date (an extension) is the one used.
    python3 - "$work/per-student.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["due"] = "2018-07-31T23:00:00-07:00"
j["late"] = {"per_day": 10}
json.dump(j, open(sys.argv[1], "w"))
PY
    cat >"$work/submission_metadata.json" <<'EOF'
{ "id": 123456, "created_at": "2018-08-02T14:22:32.365935-07:00",
  "assignment": { "due_date": "2018-07-31T23:00:00.000000-07:00", "group_size": 4, "group_submission": true,
                  "id": 25828, "course_id": 1234, "late_due_date": null,
                  "release_date": "2018-07-02T00:00:00.000000-07:00", "title": "Programming Assignment 1",
                  "total_points": "20.0" },
  "submission_method": "upload",
  "users": [ { "email": "student@example.com", "id": 1234, "name": "Student User", "sid": "s2002",
               "assignment": { "due_date": "2018-08-03T23:00:00.000000-07:00", "late_due_date": null,
                               "release_date": "2018-07-02T00:00:00.000000-07:00" } } ],
  "previous_submissions": [] }
EOF
    "$GRADER" "$work/wrong" --quiet --course --assignment "$work/per-student.json" \
      --submission-metadata "$work/submission_metadata.json" --json "$work/n.json" --gradescope "$work/g.json" \
      >"$out" 2>&1
    [ $? -eq 1 ] || fail "the Gradescope run did not exit 1"
    [ "$(field "$work/n.json" 'j["student"]')" = s2002 ] || fail "the seeds are not the sid's"
    grade "$work/wrong" s2002 "$work/s.json"
    [ "$(seeds "$work/n.json")" = "$(seeds "$work/s.json")" ] || fail "Gradescope's seeds differ from --student s2002"
    summary=$(field "$work/g.json" 'j["output"]')
    case "$summary" in *"inputs of your own (per-student seeds"*) ;; *) fail "results.json does not say the seeds are the student's: $summary" ;; esac
    case "$summary" in *"due 2018-08-03T23:00:00.000000-07:00, your own due date on Gradescope (an extension); on time."*) ;;
      *) fail "results.json does not use or name the extension: $summary" ;; esac
    [ "$(field "$work/g.json" 'j["score"]')" = 16.0 ] || fail "on time by the extension, yet a penalty was taken"
    test_out=$(field "$work/g.json" '[t["output"] for t in j["tests"] if t["status"] == "failed"][0]')
    seed=$(field "$work/n.json" '[c["seed"] for e in j["exercises"] for c in e["checks"] if c["status"] == "failed"][0]')
    case "$test_out" in *"seed: $seed"*"yours alone, which the course staff reproduce with: ./kit grade"*"--seed $seed)"*) ;;
      *) fail "a failed test does not give its seed and the line that reproduces it: $test_out" ;; esac ;;

  *) echo "unknown test $name"; exit 2 ;;
esac
echo "ok: $name"
