#!/usr/bin/env bash
# CMakePresets.json (label `kit`): CMake reads it and lists the configure presets default,
# portable, asan, tsan and ci; asan and tsan set LINATTN_SANITIZE, ci LINATTN_WERROR; and ./kit's
# sanitized run configures with the asan preset, not a command line of its own.
# usage: presets.sh KIT_DIR
set -u
KIT_DIR=$1
errors=0
problem() { echo "PROBLEM: $*"; errors=$((errors + 1)); }
listed=$(cd "$KIT_DIR" && cmake --list-presets=configure 2>&1) || problem "cmake cannot read CMakePresets.json: $listed"
for preset in default portable asan tsan ci; do
  printf '%s\n' "$listed" | grep -qE "^ *\"$preset\"" || problem "no configure preset $preset"
done
presets=$KIT_DIR/CMakePresets.json
grep -qE '"LINATTN_SANITIZE": "address"' "$presets" || problem "no preset sets LINATTN_SANITIZE=address"
grep -qE '"LINATTN_SANITIZE": "thread"' "$presets" || problem "no preset sets LINATTN_SANITIZE=thread"
grep -qE '"LINATTN_WERROR": "ON"' "$presets" || problem "no preset sets LINATTN_WERROR=ON"
grep -qE 'option\(LINATTN_WERROR' "$KIT_DIR/CMakeLists.txt" || problem "CMakeLists.txt has no LINATTN_WERROR"
sanitized=$(sed -n '/^sanitized_tests() {/,/^}/p' "$KIT_DIR/kit")
printf '%s\n' "$sanitized" | grep -qE 'cmake --preset asan' || problem "./kit's sanitized run does not use the asan preset"
printf '%s\n' "$sanitized" | grep -qE 'LINATTN_SANITIZE=' && problem "./kit's sanitized run sets LINATTN_SANITIZE itself"
[ "$errors" -eq 0 ] || { echo "$errors problem(s)"; exit 1; }
echo ok
