#!/usr/bin/env bash
# Tests of the `kit` entry script's own behaviour: usage, exit codes, the dependency check.
# usage: kit_cli.sh KIT_DIR TEST_NAME   (CTest runs each test name as its own test)
set -u
KIT_DIR=$1
name=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; cat "$out"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }
# Never rebuild from inside the test suite: ctest runs after the build, in parallel.
export LINATTN_KIT_NO_BUILD=1

case "$name" in
  help)
    "$KIT_DIR/kit" --help >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "--help exited $code"
    for word in grade test lab grade-all release try hint setup --assignment; do
      grep -q -- "$word" "$out" || fail "--help does not mention $word"
    done
    # The options of grade and grade-all: the grader's own usage text (CLI11's), which the
    # kit shows once the grader is built. Each option the contract and the READMEs name must
    # be on a line of its own in its command's section.
    [ -x "${LINATTN_BUILD_DIR:-$KIT_DIR/build}/grader/linattn-grade" ] || skip "the grader is not built"
    section() { awk -v name="$1" '$0 == name { on = 1; next } on && /^[^ ]/ { on = 0 } on' "$out"; }
    lists() {  # lists WHAT TEXT OPTION...: each OPTION on a line of its own in TEXT
      local what=$1 text=$2 option
      shift 2
      [ -n "$text" ] || fail "no $what in the usage text"
      for option in "$@"; do
        printf '%s\n' "$text" | grep -qE -- "^ +$option( |$)" || fail "$what does not list $option"
      done
    }
    grade_options="--only --seed --json --gradescope --junit --github-summary --assignment --strict --jobs --visible-only --quiet"
    # shellcheck disable=SC2086
    lists "the grade section" "$(section grade)" $grade_options
    lists "the grade-all section" "$(section grade-all)" \
      --out --jobs --seed --visible-only --roster --bom --lms-column --missing-as-zero --assignment --strict
    # ./kit grade --help shows grade's part of the same text, and grades nothing.
    "$KIT_DIR/kit" grade --help >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "grade --help exited $code"
    grep -q "^Usage: .* grade " "$out" || fail "grade --help shows no usage line"
    # shellcheck disable=SC2086
    lists "grade --help" "$(cat "$out")" $grade_options
    grep -q "^Total:" "$out" && fail "grade --help graded something" ;;
  cmake-version)
    # The dependency check reads CMake's version: older than 3.22 stops with what to do;
    # 3.22 itself and newer pass (compared as numbers: 3.3 is older than 3.22).
    fake=$(mktemp -d)
    trap 'rm -f "$out"; rm -rf "$fake"' EXIT
    for version in 3.16.3 3.21.9 3.3.2 3.22.1 3.25.1 4.0.2; do
      printf '#!/bin/sh\necho "cmake version %s"\n' "$version" >"$fake/cmake"
      chmod +x "$fake/cmake"
      PATH="$fake:$PATH" "$KIT_DIR/kit" setup >"$out" 2>&1; code=$?
      case "$version" in
        3.22.*|3.25.*|4.*)
          [ $code -eq 0 ] || fail "CMake $version refused (exit $code)" ;;
        *)
          [ $code -eq 2 ] || fail "CMake $version accepted (exit $code), expected 2"
          grep -q "CMake ${version%.*} is too old: the kit needs CMake 3.22 or newer" "$out" ||
            fail "no message that CMake $version is too old"
          grep -q "put it first on PATH" "$out" || fail "no word on what to do about CMake $version" ;;
      esac
    done ;;
  no-command)
    "$KIT_DIR/kit" >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "no command exited $code, expected 2" ;;
  unknown-command)
    "$KIT_DIR/kit" frobnicate >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "unknown command exited $code, expected 2"
    grep -q "unknown command 'frobnicate'" "$out" || fail "no message naming the command" ;;
  grade-missing-folder)
    "$KIT_DIR/kit" grade /nonexistent/submission >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "grading a missing folder exited $code, expected 2"
    grep -q "no such folder" "$out" || fail "no message about the folder" ;;
  grade-bad-option)
    "$KIT_DIR/kit" grade --frobnicate >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "a bad option exited $code, expected 2"
    grep -q "unknown option --frobnicate" "$out" || fail "no message naming the option"
    # The same for grade-all's, and for a value that is not a number.
    "$KIT_DIR/kit" grade --seed -3 >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "--seed -3 exited $code, expected 2"
    grep -q -- "--seed: needs a non-negative whole number" "$out" || fail "no message about --seed"
    # Gradescope's metadata is read by the command line, before anything is built.
    "$KIT_DIR/kit" grade --quiet --submission-metadata /nonexistent/submission_metadata.json >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "an unreadable --submission-metadata exited $code, expected 2"
    grep -q "cannot read the submission metadata /nonexistent/submission_metadata.json" "$out" ||
      fail "no message naming the metadata file"
    [ "$(wc -l <"$out")" -eq 1 ] || fail "more than the one line of the refusal" ;;
  grade-unknown-exercise)
    "$KIT_DIR/kit" grade "$KIT_DIR/exercises" --only nosuch >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "an unknown exercise exited $code, expected 2"
    grep -q "no exercise named 'nosuch'" "$out" || fail "no message naming the exercise" ;;
  not-root-prints-command)
    # Not root and a package missing: print the exact install command and exit 2.
    # What this needs is missing: a skip (exit 77, CTest's SKIP_RETURN_CODE), never a pass.
    command -v setpriv >/dev/null || skip "setpriv not available"
    [ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges"
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$KIT_DIR/kit" ||
      skip "the kit's folder is not open to other users"
    setpriv --reuid=65534 --regid=65534 --clear-groups \
      env LINATTN_KIT_ASSUME_MISSING=doctest-dev "$KIT_DIR/kit" test >"$out" 2>&1; code=$?
    [ $code -eq 2 ] || fail "exited $code, expected 2"
    grep -q "apt-get install -y --no-install-recommends doctest-dev" "$out" || fail "no install command printed" ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
