# shellcheck shell=bash
# Shared by the grade-all tests of a class's uploads (course_intake.sh, lms_exports.sh,
# canvas_class.sh); sourced, not run. The caller sets $out (the log that fail shows).

# fail MESSAGE: the test fails, with the last lines of the log.
# shellcheck disable=SC2154  # $out is the caller's
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }

# field FILE EXPR: a value from a JSON file (python3's json, as the kit's other tests use it).
field() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# intake_class TITLE: the scratch setup of a class test. $work (removed on exit) with the log
# $out, an empty class folder $class, $grades for what grade-all writes, $S and $STUB (the kit's
# solutions and stubs), and $work/week1.json: an assignment of flops alone, titled TITLE.
# Needs $KIT_DIR.
# shellcheck disable=SC2034  # the variables are the caller's to use
intake_class() {
  work=$(mktemp -d)
  chmod 755 "$work"
  out=$work/out.log
  : >"$out"
  trap 'rm -rf "$work"' EXIT
  export NO_COLOR=1
  S=$KIT_DIR/solutions
  STUB=$KIT_DIR/exercises
  printf '{ "title": "%s",\n  "exercises": [ { "name": "flops", "points": 10 } ] }\n' "$1" >"$work/week1.json"
  class=$work/class
  grades=$work/grades
  mkdir -p "$class"
}

# grade [OPTIONS...]: grade-all on $class with week1.json, into $grades; the log in $out. A run
# that exits other than 0 fails the test. Needs $GRADER and $KIT_DIR.
grade() {
  "$GRADER" --kit "$KIT_DIR" grade-all "$class" --out "$grades" --assignment "$work/week1.json" "$@" >"$out" 2>&1 ||
    fail "grade-all exited $?"
}
