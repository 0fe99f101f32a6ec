#!/usr/bin/env bash
# Tests of `./kit hint` (grader/tools/hint) and of the hand-outs it belongs to.
# usage: hint.sh KIT_DIR TEST_NAME
#   first-hint        `hint causal` prints hint 1 and how many hints there are
#   chosen-hint       `hint causal 2` prints hint 2 and not hint 1
#   out-of-range      N = 0 and N = count + 1 exit 2 with a message
#   unknown-exercise  an unknown exercise exits 2 and lists the exercises
#   every-exercise    every exercise folder has a hints.md with at least 2 levels, each shown
#   own-words         no hand-out or hints file shares a run of 12 words with the seed text
#                     (LINATTN_SEED_DIR, default KIT_DIR/../shared/seed; skipped, exit 77,
#                     when the seed or python3 is not there)
set -u
KIT_DIR=$1
name=$2
HINT=$KIT_DIR/grader/tools/hint
EXERCISES=$KIT_DIR/exercises
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
: >"$out"
fail() { echo "FAILED: $*"; echo "--- output ---"; cat "$out"; exit 1; }

# The exercise folders: those holding their own header <name>/<name>.hpp.
exercises() {
  local dir ex
  for dir in "$EXERCISES"/*/; do
    ex=$(basename "$dir")
    [ -f "$dir/$ex.hpp" ] && printf '%s\n' "$ex"
  done
  return 0
}
# levels FILE: the number of `## Hint N` sections.
levels() { grep -cE '^## Hint [0-9]+[[:space:]]*$' "$1"; }
# first_line FILE N: the first non-blank line of section `## Hint N`.
first_line() {
  awk -v want="$2" '/^## Hint [0-9]+[[:space:]]*$/ { on = ($3 + 0 == want); next }
                    /^##? / { on = 0 }
                    on && NF { print; exit }' "$1"
}

[ -x "$HINT" ] || fail "$HINT is missing or not executable"
causal=$EXERCISES/causal/hints.md

case "$name" in
  first-hint)
    [ -f "$causal" ] || fail "no $causal"
    count=$(levels "$causal")
    first=$(first_line "$causal" 1)
    [ -n "$first" ] || fail "hint 1 of causal is empty"
    "$HINT" causal >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "'hint causal' exited $code, expected 0"
    grep -qF -- "$first" "$out" || fail "'hint causal' does not print the first hint ($first)"
    grep -qF "hint 1 of $count" "$out" || fail "'hint causal' does not say 'hint 1 of $count'"
    grep -qF "./kit hint causal 2" "$out" || fail "'hint causal' does not say how to see the next" ;;
  chosen-hint)
    first=$(first_line "$causal" 1)
    second=$(first_line "$causal" 2)
    [ -n "$second" ] || fail "causal has no hint 2"
    "$HINT" causal 2 >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "'hint causal 2' exited $code, expected 0"
    grep -qF -- "$second" "$out" || fail "'hint causal 2' does not print the second hint ($second)"
    grep -qF -- "$first" "$out" && fail "'hint causal 2' also prints the first hint"
    grep -qF "hint 2 of" "$out" || fail "'hint causal 2' does not say which hint it is" ;;
  out-of-range)
    count=$(levels "$causal")
    for n in 0 $((count + 1)); do
      "$HINT" causal "$n" >"$out" 2>&1; code=$?
      [ $code -eq 2 ] || fail "'hint causal $n' exited $code, expected 2"
      grep -qF "1 to $count" "$out" || fail "'hint causal $n' does not give the range 1 to $count"
    done
    "$HINT" causal two >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "'hint causal two' exited $code, expected 2" ;;
  unknown-exercise)
    "$HINT" no_such_exercise >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "'hint no_such_exercise' exited $code, expected 2"
    for ex in $(exercises); do
      grep -qx "  $ex" "$out" || fail "the list of exercises lacks $ex"
    done
    "$HINT" common >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "'hint common' (not an exercise) exited $code, expected 2"
    "$HINT" >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "'hint' without an exercise exited $code, expected 2" ;;
  every-exercise)
    found=0
    for ex in $(exercises); do
      found=$((found + 1))
      file=$EXERCISES/$ex/hints.md
      [ -f "$file" ] || fail "exercise $ex has no hints.md"
      count=$(levels "$file")
      [ "$count" -ge 2 ] || fail "$ex/hints.md has $count levels, expected at least 2"
      for n in $(seq 1 "$count"); do
        grep -qE "^## Hint ${n}[[:space:]]*\$" "$file" || fail "$ex/hints.md has no '## Hint $n'"
        line=$(first_line "$file" "$n")
        [ -n "$line" ] || fail "$ex/hints.md: hint $n is empty"
        "$HINT" "$ex" "$n" >"$out" 2>&1 || fail "'hint $ex $n' failed"
        grep -qF -- "$line" "$out" || fail "'hint $ex $n' does not print its text"
      done
      grep -qF "./kit hint $ex" "$EXERCISES/$ex/README.md" ||
        fail "$ex/README.md does not point to ./kit hint $ex"
    done
    [ "$found" -ge 5 ] || fail "found only $found exercise folders" ;;
  own-words)
    seed=${LINATTN_SEED_DIR:-$KIT_DIR/../shared/seed}
    if ! ls "$seed"/*.txt >/dev/null 2>&1; then echo "skipped: no seed text in $seed"; exit 77; fi
    command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
    files=("$EXERCISES/README.md")
    for ex in $(exercises); do
      for f in README.md hints.md; do
        [ -f "$EXERCISES/$ex/$f" ] && files+=("$EXERCISES/$ex/$f")
      done
    done
    # Words are runs of [a-z0-9] in lowercased text. The seed is read twice: as it is, and with
    # its LaTeX commands (\frac, \mathbf, ...) removed, so that a formula copied without them
    # still matches.
    python3 - "$seed" "${files[@]}" >"$out" 2>&1 <<'PY' || fail "a hand-out repeats the seed's words"
import glob, re, sys
N = 12
def words(text):
    return re.findall(r'[a-z0-9]+', text.lower())
seed = ''.join(open(f, encoding='utf-8').read() for f in sorted(glob.glob(sys.argv[1] + '/*.txt')))
grams = set()
for text in (seed, re.sub(r'\\[A-Za-z]+', ' ', seed)):
    w = words(text)
    grams.update(tuple(w[i:i + N]) for i in range(len(w) - N + 1))
bad = 0
for path in sys.argv[2:]:
    w = words(open(path, encoding='utf-8').read())
    i = 0
    while i <= len(w) - N:
        if tuple(w[i:i + N]) in grams:
            j = i
            while j + 1 <= len(w) - N and tuple(w[j + 1:j + 1 + N]) in grams:
                j += 1
            print(f'{path}: {j - i + N} words in a row from the seed: "{" ".join(w[i:j + N])}"')
            bad += 1
            i = j + N
        else:
            i += 1
print(f'checked {len(sys.argv) - 2} files against the seed: {bad} shared runs of {N}+ words')
sys.exit(1 if bad else 0)
PY
    cat "$out" ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
