#!/usr/bin/env bash
# What grade-all hands to an LMS and to the instructor, end to end (label `kit`, issue 32): the
# exports never invent a grade, Canvas's Test Student and the instructor's own folder stay out,
# Canvas's own column name is kept, text a student controls is escaped wherever it is printed,
# and similar files are found as token streams. Each case grades a small class on flops.
# usage: lms_exports.sh GRADER KIT_DIR CASE
set -u
GRADER=$1
KIT_DIR=$2
name=$3
# shellcheck source=tests/kit/intake_helpers.sh
. "$(dirname "$0")/intake_helpers.sh"
# The Canvas assignment is "Week 1"; the kit's assignment file says so in its title.
intake_class "Week 1"
same() {  # same FILE EXPECTED: the file's exact text
  [ "$(cat "$1")" = "$2" ] || fail "$(basename "$1"):
$(cat "$1")
--- expected ---
$2"
}

case "$name" in
  canvas)
    # Canvas's gradebook export as the roster: Ada hands in her work, Alan the stub, Grace
    # nothing; the instructor tried Student View (the Test Student handed in the stub) and left
    # their own solution in the class folder.
    cp "$S/flops/flops.cpp" "$class/lovelaceada_1001_500_flops.cpp"
    cp "$STUB/flops/flops.cpp" "$class/turingalan_1002_501_flops.cpp"
    cp "$STUB/flops/flops.cpp" "$class/studenttest_1999_502_flops.cpp"
    mkdir "$class/instructor"
    cp "$S/flops/flops.cpp" "$class/instructor/"
    printf '\357\273\277' >"$work/export.csv"  # Canvas's byte-order mark and CRLF line ends
    printf '%s\r\n' 'Student,ID,SIS User ID,SIS Login ID,Section,Week 0 (4320),Week 1 (4321),Current Score' \
      '    Points Possible,,,,,10.00,10.00,' \
      '"Lovelace, Ada",1001,S-17,ada,Section 1,9,,' \
      '"Turing, Alan",1002,S-18,alan,Section 1,8,,' \
      '"Hopper, Grace",1003,S-19,grace,Section 1,7,6,' \
      '"Student, Test",1999,,,Section 1,,,' >>"$work/export.csv"
    grade --roster "$work/export.csv"
    # The column is Canvas's own, so the import fills "Week 1"; Grace's cell is empty, so the
    # 6 entered by hand in Canvas stays; no Test Student row.
    same "$grades/canvas.csv" 'Student,ID,SIS User ID,SIS Login ID,Section,Week 1 (4321)
"Lovelace, Ada",1001,S-17,ada,Section 1,10
"Turing, Alan",1002,S-18,alan,Section 1,0
"Hopper, Grace",1003,S-19,grace,Section 1,'
    same "$grades/scores.csv" 'id,score
S-17,10
S-18,0
S-19,'
    [ "$(wc -l <"$grades/moodle.csv")" -eq 4 ] || fail "moodle.csv is not a header and 3 rows"
    grep -q ',,S-19,,$' "$grades/moodle.csv" || fail "moodle.csv gives Grace a grade"
    grep -qF 'in the roster, no submission (an empty cell in the exports): S-19 Hopper, Grace' "$out" ||
      fail "the summary does not say Grace's cell is left empty"
    grep -qF '1999' "$out" && fail "the summary names the Test Student"
    grep -q '^studenttest_1999,1999,"Student, Test",.*Canvas.s Test Student: not exported, not counted' \
      "$grades/gradebook.csv" || fail "the gradebook does not say what the Test Student's row is"
    # The class report counts the class: Ada and Alan, not the Test Student or the instructor.
    grep -qF '<span id="counted">2</span>' "$grades/class-report.html" ||
      fail "the class report does not count 2 submissions"
    grep -qF '<g class="bin" data-bin="10" data-count="1">' "$grades/class-report.html" ||
      fail "the full-marks bin does not hold Ada alone"

    # A course that wants 0 for no submission asks for it; the rest is unchanged.
    grade --roster "$work/export.csv" --missing-as-zero
    same "$grades/scores.csv" 'id,score
S-17,10
S-18,0
S-19,0'
    grep -q '"Hopper, Grace",1003,S-19,grace,Section 1,0$' "$grades/canvas.csv" || fail "canvas.csv: no 0 for Grace"
    grep -qF 'in the roster, no submission (0 in the exports)' "$out" || fail "the summary does not say 0"

    # --lms-column names the column; the roster's own one when it has that title.
    grade --roster "$work/export.csv" --lms-column "week 0"
    [ "$(head -n 1 "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,Week 0 (4320)' ] ||
      fail "canvas.csv's column: $(head -n 1 "$grades/canvas.csv")"
    grade --roster "$work/export.csv" --lms-column "Homework 1"
    [ "$(head -n 1 "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,Homework 1' ] ||
      fail "canvas.csv's column: $(head -n 1 "$grades/canvas.csv")" ;;

  escapes)
    # Names a student chose reach the terminal, the CSV files and the JUnit report as text.
    esc=$(printf '\033]0;pwned\007\033[2J')
    mkdir -p "$class/$esc/a" "$class/$esc/b" "$class/$(printf 'kim\t=HYPERLINK(0)')"
    cp "$S/flops/flops.cpp" "$class/$esc/a/"
    cp "$S/flops/flops.cpp" "$class/$esc/b/"
    cp "$S/flops/flops.cpp" "$class/kim	=HYPERLINK(0)/"
    grade
    if grep -q "$(printf '\033')" "$out"; then fail "an escape character reached the terminal"; fi
    grep -qF '\x1b]0;pwned\x07\x1b[2J: several files could be flops.cpp' "$out" ||
      fail "the competing files' message does not show the folder escaped"
    # Read as Tab-separated values, no cell of any CSV starts like a formula.
    for f in "$grades"/*.csv; do
      tr -d '"' <"$f" | tr ',' '\t' | tr '\t' '\n' | grep -n '^[[:space:]]*[=+@-]' &&
        fail "$(basename "$f") has a cell that starts like a formula in a Tab-delimited import"
    done
    grep -qF 'kim\x09=HYPERLINK(0)' "$grades/gradebook.csv" || fail "the folder with a tab is not in the gradebook as text"

    # A check's message quotes the student's exception: U+FFFE, U+FFFF and C0 controls in it
    # must not make the JUnit report ill-formed.
    mkdir -p "$work/sub/flops"
    sed 's|return 2 \* d_phi \* d_v / (d_phi + d_v) + 1;|throw std::runtime_error("bad \\xEF\\xBF\\xBE \\xEF\\xBF\\xBF \\x01 \\x1b[2J");|' \
      "$S/flops/flops.cpp" >"$work/sub/flops/flops.cpp"
    grep -q 'runtime_error' "$work/sub/flops/flops.cpp" || fail "the test's edit of flops.cpp did not apply"
    "$GRADER" --kit "$KIT_DIR" grade "$work/sub" --assignment "$work/week1.json" --junit "$work/junit.xml" >"$out" 2>&1
    [ -s "$work/junit.xml" ] || fail "no JUnit report"
    grep -qF 'uFFFF' "$work/junit.xml" || fail "the JUnit report does not show the student's message"
    if command -v xmllint >/dev/null 2>&1; then
      xmllint --noout "$work/junit.xml" >>"$out" 2>&1 || fail "the JUnit report is not well-formed XML"
    fi ;;

  similarity)
    # The same flops.cpp with a byte-order mark and CRLF line ends, with other comments and
    # spacing, and with its variables renamed: each pair matches in full; the stub does not.
    for s in ada bob cy dee eve; do mkdir -p "$class/$s"; done
    cp "$S/flops/flops.cpp" "$class/ada/flops.cpp"
    { printf '\357\273\277'; sed 's/$/\r/' "$S/flops/flops.cpp"; } >"$class/bob/flops.cpp"
    sed -e 's/d_phi/width/g' -e 's/d_v/values/g' -e 's|//.*||' "$S/flops/flops.cpp" >"$class/cy/flops.cpp"
    cp "$STUB/flops/flops.cpp" "$class/dee/flops.cpp"
    cp "$STUB/flops/flops.cpp" "$class/eve/flops.cpp"
    grade
    for pair in "ada bob" "ada cy" "bob cy"; do
      read -r first second <<<"$pair"
      python3 - "$grades/similarity.csv" "$first" "$second" <<'EOF' || fail "no pair $pair at 100%: $(cat "$grades/similarity.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
groups = {}
for r in rows:
    groups.setdefault(r["group"], []).append(r)
ok = any(sorted(m["submission"] for m in g) == sorted(sys.argv[2:4]) and
         all(m["share"] == "1" and m["matched"] == m["tokens"] and int(m["tokens"]) > 0 for m in g)
         for g in groups.values())
sys.exit(0 if ok else 1)
EOF
    done
    if grep -qE ',(dee|eve),' "$grades/similarity.csv"; then fail "the untouched stubs are reported alike"; fi
    [ "$(wc -l <"$grades/similarity.csv")" -eq 7 ] || fail "similarity.csv is not 3 pairs"
    grep -qF 'grade-all: alike flops.cpp (100% of the tokens match): ada, bob' "$out" ||
      fail "the summary does not name the pair"
    grep -qF '<tr class="similar" data-share="100%">' "$grades/class-report.html" ||
      fail "the class report does not show the pairs" ;;

  *)
    echo "unknown case $name"
    exit 2 ;;
esac
echo "PASSED: $name"
