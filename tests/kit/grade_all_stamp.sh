#!/usr/bin/env bash
# grade-all's reuse stamp (label `kit`): a report is reused only when nothing that decides the
# grade changed. Here, on a class of one submission with no files (nothing to build, so each
# grade takes a moment), the seed, the grader itself and the assignment (its name, or a byte
# of its file) must each make a rerun grade again, and an unchanged rerun must not (without
# that, the others would prove nothing).
# usage: grade_all_stamp.sh GRADER KIT_DIR seed|grader|assignment
set -u
GRADER=$1
KIT_DIR=$2
name=$3
work=$(mktemp -d)
chmod 755 "$work"
out=$work/out.log
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }
export NO_COLOR=1

mkdir -p "$work/class/nobody"
echo "no code here" >"$work/class/nobody/README.txt"

# graded WANT WHAT PROGRAM [OPTIONS...]: grade-all on the class by PROGRAM, into the same
# output folder every time; its summary line must say it graded WANT submissions.
graded() {
  local want=$1 what=$2 program=$3
  shift 3
  "$program" --kit "$KIT_DIR" grade-all "$work/class" --out "$work/grades" "$@" >"$out" 2>&1 ||
    fail "$what: grade-all exited $?"
  local got
  got=$(sed -n 's/^grade-all: 1 submissions, \([0-9]*\) to grade.*/\1/p' "$out")
  [ "$got" = "$want" ] || fail "$what: $want submission(s) should have been graded, the summary says '${got:-nothing}'"
}

graded 1 "the first grade" "$GRADER"
graded 0 "an unchanged rerun" "$GRADER"
case "$name" in
  seed)
    graded 1 "a rerun with --seed 5 after the course's own seeds" "$GRADER" --seed 5
    graded 0 "a second rerun with --seed 5" "$GRADER" --seed 5
    graded 1 "a rerun with --seed 6 after --seed 5" "$GRADER" --seed 6
    graded 1 "a rerun without --seed after --seed 6" "$GRADER" ;;
  grader)
    # Another version of the grader: the same program with other bytes (a trailing byte does
    # not change what an ELF program does, only what it is).
    next=$work/linattn-grade-next
    { cp "$GRADER" "$next" && printf '\0' >>"$next"; } || fail "cannot copy the grader"
    graded 1 "a rerun by another version of the grader" "$next"
    graded 0 "a second rerun by that version" "$next"
    graded 1 "a rerun by the first version again" "$GRADER" ;;
  assignment)
    graded 1 "a rerun for the advanced assignment after the default one" "$GRADER" \
      --assignment advanced
    graded 0 "a second rerun for the advanced assignment" "$GRADER" --assignment advanced
    # The same name and exercises under another title: the reports carry the title, so the
    # stamp must cover every byte of the file, not only its name.
    own=$work/advanced.json
    sed 's/"title": "/"title": "Spring term: /' "$KIT_DIR/assignments/advanced.json" >"$own" ||
      fail "cannot copy the assignment"
    cmp -s "$own" "$KIT_DIR/assignments/advanced.json" &&
      fail "the copied assignment did not change"
    graded 1 "a rerun with the advanced assignment's title changed" "$GRADER" --assignment "$own"
    graded 0 "a second rerun with the changed title" "$GRADER" --assignment "$own"
    # The same bytes under another name: the reports carry the name, so it counts too.
    cp "$own" "$work/spring.json" || fail "cannot copy the assignment"
    graded 1 "a rerun with the same file under another name" "$GRADER" \
      --assignment "$work/spring.json"
    graded 0 "a second rerun under that name" "$GRADER" --assignment "$work/spring.json" ;;
  *) echo "unknown test $name"; exit 2 ;;
esac
echo "ok"
