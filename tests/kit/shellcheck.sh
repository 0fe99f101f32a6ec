#!/usr/bin/env bash
# Runs shellcheck over every shell script of the kit, found by its first line (#! naming sh, bash,
# dash or ksh) or by a .sh name, so that a new script is covered without being listed here.
# Any finding, at any of shellcheck's levels, fails the test; a finding that is right for a
# script is disabled in place, with a comment saying why (# shellcheck disable=SCxxxx  # why).
# usage: shellcheck.sh KIT_DIR
set -u
KIT_DIR=$1
skip() { echo "SKIPPED: $*"; exit 77; }
# Outside CI a missing shellcheck is a skip; in CI (.ci/run sets LINATTN_CI=1) a failure.
if ! command -v shellcheck >/dev/null 2>&1; then
  [ "${LINATTN_CI:-0}" = 1 ] && { echo "FAILED: shellcheck is not installed (CI runs it)"; exit 1; }
  skip "shellcheck is not installed (./kit test installs it)"
fi

scripts=()
while IFS= read -r -d '' f; do
  first=$(head -n 1 "$f" 2>/dev/null | tr -d '\0')
  if [[ "$f" == *.sh ]] || [[ "$first" =~ ^#!.*[/\ ](sh|bash|dash|ksh)([\ ].*)?$ ]]; then
    scripts+=("$f")
  fi
done < <(find "$KIT_DIR" \( -name .git -o -name build -o -name 'build-*' -o -name .cache \
                          -o -name node_modules -o -name submissions-cache -o -path "$KIT_DIR/out" \) \
              -prune -o -type f -print0 | sort -z)

[ ${#scripts[@]} -gt 0 ] || { echo "FAILED: no shell script found under $KIT_DIR"; exit 1; }
echo "shellcheck $(shellcheck --version | sed -n 's/^version: //p') over ${#scripts[@]} scripts:"
printf '  %s\n' "${scripts[@]#"$KIT_DIR"/}"
if ! (cd "$KIT_DIR" && shellcheck --color=never "${scripts[@]#"$KIT_DIR"/}"); then
  echo "FAILED: shellcheck found the problems above"
  exit 1
fi
echo ok
