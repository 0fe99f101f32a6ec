# shellcheck shell=bash
# Shared by the grade-all tests of a class's uploads (course_intake.sh, canvas_class.sh); sourced,
# not run. The caller sets $out (the log that fail shows).

# fail MESSAGE: the test fails, with the last lines of the log.
# shellcheck disable=SC2154  # $out is the caller's
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }

# field FILE EXPR: a value from a JSON file (python3's json, as the kit's other tests use it).
field() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
