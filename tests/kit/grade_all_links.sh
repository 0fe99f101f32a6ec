#!/usr/bin/env bash
# grade-all and symbolic links (label `kit`): a student's "folder" that is a link (to another
# student's folder, or to the kit's solutions) is never graded as theirs, and a folder link
# inside a submission ("flops -> KIT/solutions/flops") grades nothing and says why. Nothing here
# builds (the only file a student has is refused), so the grade takes a moment.
# usage: grade_all_links.sh GRADER KIT_DIR
set -u
GRADER=$1
KIT_DIR=$(cd "$2" && pwd)
work=$(mktemp -d)
chmod 755 "$work"
out=$work/out.log
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }
export NO_COLOR=1

mkdir -p "$work/class/honest" "$work/class/cheat"
echo "no code here" >"$work/class/honest/README.txt"
ln -s "$work/class/honest" "$work/class/copycat"         # another student's folder
ln -s "$KIT_DIR/solutions" "$work/class/solver"           # the kit's solutions, whole
ln -s "$KIT_DIR/solutions/flops" "$work/class/cheat/flops" # one exercise's folder
ln -s "$KIT_DIR/solutions/causal/causal.cpp" "$work/class/cheat/causal.cpp"  # one file

"$GRADER" --kit "$KIT_DIR" grade-all "$work/class" --out "$work/grades" >"$out" 2>&1 ||
  fail "grade-all exited $?"
grep -q "^grade-all: 2 submissions" "$out" || fail "two submissions (honest, cheat) should be graded"
grep -q "not graded, symbolic links.*copycat, solver" "$out" || fail "the linked folders are not named as refused"
book=$work/grades/gradebook.csv
grep -q "^copycat," "$book" && fail "copycat, a link to another student's folder, is in the gradebook"
grep -q "^solver," "$book" && fail "solver, a link to the kit's solutions, is in the gradebook"
[ -e "$work/grades/reports/copycat.json" ] && fail "copycat has a report"
report=$work/grades/reports/cheat.json
score=$(sed -n 's/^  "score": \([0-9.]*\),*$/\1/p' "$report" | head -n 1)
[ "$score" = "0" ] || [ "$score" = "0.0" ] || fail "cheat scored '$score' through links, not 0"
grep -q 'flops (a symbolic link, not followed)\|refused: [^"]*flops' "$report" ||
  fail "cheat's report does not say that the flops link was refused"
grep -q 'refused: [^"]*causal.cpp' "$report" ||
  fail "cheat's report does not say that the causal.cpp link was refused"
echo "ok"
