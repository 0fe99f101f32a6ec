#!/usr/bin/env bash
# Tests that run inside the student hand-out (no reference/, no solutions/): the grader
# replays the recorded expected values, and the instructors' commands say they are not here.
# usage: student_kit.sh KIT_DIR REPORT_TOOL TEST_NAME
set -u
KIT_DIR=$1
REPORT_TOOL=$2
name=$3
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; cat "$out"; exit 1; }
export LINATTN_KIT_NO_BUILD=1 NO_COLOR=1
# The exercises this kit was released with (its assignment's), and the first of them.
exercises=$("$KIT_DIR/grader/tools/exercises" "$KIT_DIR")
first=$(printf '%s\n' "$exercises" | head -n 1)

case "$name" in
  replay-integrity)
    # The untouched stubs: a complete report of every recorded check, nothing passed, exit 1.
    [ -s "$KIT_DIR/grader/data/oracle.cbor" ] || fail "no recorded expected values"
    "$KIT_DIR/kit" grade "$KIT_DIR/exercises" --json "$work/report.json" >"$out" 2>&1; code=$?
    [ $code -eq 1 ] || fail "grading the stubs exited $code, expected 1"
    for ex in $exercises; do
      grep -q "\"name\": \"$ex\"" "$work/report.json" || fail "the report has no exercise $ex"
    done
    summary=$("$REPORT_TOOL" summary "$work/report.json") || fail "unreadable report"
    echo "$summary"
    case "$summary" in
      "score=0 max="*" hidden=0 passed=0") ;;
      *) fail "expected score 0, no hidden check and nothing passed: $summary" ;;
    esac
    grep -Eq 'grader itself failed|could not be read' "$work/report.json" && fail "a check could not be judged" ;;
  other-seed)
    "$KIT_DIR/kit" grade "$KIT_DIR/exercises" --seed 12345 >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "--seed 12345 exited $code, expected 2"
    grep -q "recorded at each check's own seed" "$out" || fail "no message about the seed" ;;
  own-seed)
    # A visible check asked for at its own seed (the one recorded) is graded as usual.
    "$KIT_DIR/kit" grade "$KIT_DIR/exercises" --only "$first" --json "$work/report.json" >"$out" 2>&1
    read -r check seed <<<"$("$REPORT_TOOL" first-check "$work/report.json")" || fail "no first check"
    "$KIT_DIR/kit" grade "$KIT_DIR/exercises" --only "$check" --seed "$seed" >"$out" 2>&1; code=$?
    [ $code -eq 1 ] || fail "--only $check --seed $seed (its own) exited $code, expected 1" ;;
  edited-header)
    # A header edited in exercises/ is ignored (submissions compile against the kit's pristine
    # copy) and the report says so at the top.
    header=$first/$first.hpp
    [ -f "$KIT_DIR/grader/data/headers/$header" ] || fail "no pristine headers in the student kit"
    cp -r "$KIT_DIR/exercises" "$work/sub"
    cp "$KIT_DIR/exercises/$header" "$work/header.orig"
    printf '\n#define EDITED_BY_STUDENT 1\nnot C++ at all\n' >>"$KIT_DIR/exercises/$header"
    "$KIT_DIR/kit" grade "$work/sub" --only "$first" --json "$work/report.json" >"$out" 2>&1; code=$?
    cp "$work/header.orig" "$KIT_DIR/exercises/$header"
    [ $code -eq 1 ] || fail "grading with an edited header exited $code, expected 1"
    grep -q "exercises/$header differs from the kit's" "$out" || fail "the report does not name the edited header"
    grep -q '"build_error"' "$work/report.json" && fail "the edited header was used" ;;
  instructor-commands)
    for cmd in lab grade-all release; do
      "$KIT_DIR/kit" $cmd "$work" student >"$out" 2>&1; code=$?
      [ $code -eq 2 ] || fail "'kit $cmd' exited $code, expected 2"
      grep -q "not part of the student kit" "$out" || fail "'kit $cmd' does not say it is not here"
    done ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
