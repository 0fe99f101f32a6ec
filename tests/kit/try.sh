#!/usr/bin/env bash
# ./kit try: the scratch program of an exercise built with the student's file in the sandbox
# and run there.
# usage: try.sh KIT_DIR TEST_NAME
set -u
KIT_DIR=$1
name=$2
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; cat "$out"; exit 1; }
export LINATTN_KIT_NO_BUILD=1 NO_COLOR=1
# The first exercise this kit has (a student kit has only its assignment's).
ex=$("$KIT_DIR/grader/tools/exercises" "$KIT_DIR" | head -n 1)

case "$name" in
  solutions)
    # The solutions through the kit's scratch programs: the book's numbers come out.
    "$KIT_DIR/kit" try flops "$KIT_DIR/solutions" >"$out" 2>&1 || fail "try flops exited $?"
    grep -q "Left 2199023255552, Right 4294967296, ratio 512" "$out" || fail "not the book's FLOP counts"
    grep -q "crossover_T(128, 128) = 129" "$out" || fail "not the book's crossover"
    "$KIT_DIR/kit" try causal "$KIT_DIR/solutions" >"$out" 2>&1 || fail "try causal exited $?"
    [ "$(grep -c "largest difference from the book: 0$" "$out")" -eq 2 ] || fail "the hand example does not match"
    "$KIT_DIR/kit" try taylor "$KIT_DIR/solutions" >"$out" 2>&1 || fail "try taylor exited $?"
    grep -q "your phi(q).phi(k) = 18.5" "$out" || fail "not the book's 18.5" ;;
  stubs)
    # The stubs as handed out: it builds and runs, and says what is not written yet.
    "$KIT_DIR/kit" try "$ex" "$KIT_DIR/exercises" >"$out" 2>&1 || fail "try $ex on the stubs exited $?"
    grep -q "not implemented yet" "$out" || fail "no word that the stub is not implemented" ;;
  does-not-build)
    mkdir -p "$work/sub/$ex"
    printf 'this is not C++\n' >"$work/sub/$ex/$ex.cpp"
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1; code=$?
    [ $code -eq 1 ] || fail "a file that does not build exited $code, expected 1"
    grep -q "$ex/$ex.cpp:1" "$out" || fail "the compiler's message does not point at the file"
    grep -q "does not build" "$out" || fail "no word that it does not build" ;;
  sandboxed)
    # The scratch program runs in the sandbox: the kit's files are not there to read.
    mkdir -p "$work/sub/$ex"
    cp "$KIT_DIR/exercises/$ex/$ex.cpp" "$work/sub/$ex/"  # the stub: present in every kit
    cat >"$work/sub/$ex/try.cpp" <<CPP
#include <fstream>
#include <iostream>
int main() {
  std::ifstream f("$KIT_DIR/README.md");
  std::cout << (f.is_open() ? "OPENED THE KIT" : "kit not visible") << "\n";
}
CPP
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1 || fail "try exited $?"
    grep -q "kit not visible" "$out" || fail "the scratch program could read the kit's README" ;;
  cached)
    # The build is cached by content: a second run compiles nothing, an edit of the scratch
    # program compiles it alone, and an edit undone finds the earlier build again.
    mkdir -p "$work/sub/$ex"
    cp "$KIT_DIR/exercises/$ex/$ex.cpp" "$work/sub/$ex/"
    cp "$KIT_DIR/exercises/$ex/try.cpp" "$work/sub/$ex/try.cpp"
    printf '// edit %s\n' "$$-$RANDOM" >>"$work/sub/$ex/try.cpp"  # not built by any earlier run
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1 || fail "first run exited $?"
    grep -q "nothing changed" "$out" && fail "the first build of a new scratch program came from the cache"
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1 || fail "second run exited $?"
    grep -q "nothing changed since the last build: the program comes from the cache" "$out" ||
      fail "a second run without an edit built again"
    cp "$work/sub/$ex/try.cpp" "$work/try.saved"
    printf '// another edit\n' >>"$work/sub/$ex/try.cpp"
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1 || fail "run after an edit exited $?"
    grep -q "(compiled $ex/try.cpp; the rest came from the cache)" "$out" ||
      fail "an edit of try.cpp did not compile it alone"
    cp "$work/try.saved" "$work/sub/$ex/try.cpp"
    touch "$work/sub/$ex/try.cpp" "$work/sub/$ex/$ex.cpp"  # same text, new times: content counts
    "$KIT_DIR/kit" try "$ex" "$work/sub" >"$out" 2>&1 || fail "run after undoing the edit exited $?"
    grep -q "nothing changed since the last build" "$out" || fail "undoing an edit built again" ;;
  unknown)
    "$KIT_DIR/kit" try nosuch >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "an unknown exercise exited $code, expected 2"
    grep -q "the exercises are" "$out" || fail "the exercises are not listed" ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
