#!/usr/bin/env bash
# The format and shellcheck gates (label `kit`): with their tool missing they skip on a
# student's or a maintainer's machine, and fail in CI (LINATTN_CI=1, set by .ci/run), so that a
# CI image without the tool can never pass them by skipping. clang-format other than the pinned
# major is treated as missing. The skips are checked with LINATTN_CI=0: this test runs in CI too.
# In CI the kit's own build was configured with warnings as errors (LINATTN_WERROR, by ./kit).
# usage: ci_gates.sh KIT_DIR BUILD_DIR
set -u
KIT_DIR=$1
BUILD_DIR=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
# A PATH with what the scripts need (bash, coreutils, find, sed) and neither tool.
mkdir -p "$work/bin"
for tool in bash env find sort head tr sed cmp diff mktemp cat; do
  ln -s "$(command -v "$tool")" "$work/bin/$tool"
done
# A clang-format of another major version.
mkdir -p "$work/other"
printf '#!/bin/sh\necho "Debian clang-format version 99.0.1"\n' >"$work/other/clang-format"
chmod +x "$work/other/clang-format"
for gate in clang_format shellcheck; do
  LINATTN_CI=0 PATH=$work/bin bash "$KIT_DIR/tests/kit/$gate.sh" "$KIT_DIR" >"$work/out" 2>&1
  [ $? -eq 77 ] || fail "$gate without its tool did not skip: $(cat "$work/out")"
  PATH=$work/bin LINATTN_CI=1 bash "$KIT_DIR/tests/kit/$gate.sh" "$KIT_DIR" >"$work/out" 2>&1
  [ $? -eq 1 ] || fail "$gate without its tool did not fail in CI: $(cat "$work/out")"
  grep -q "CI runs" "$work/out" || fail "$gate's CI failure does not say why: $(cat "$work/out")"
done
LINATTN_CI=0 PATH=$work/other:$work/bin bash "$KIT_DIR/tests/kit/clang_format.sh" "$KIT_DIR" >"$work/out" 2>&1
[ $? -eq 77 ] || fail "clang-format 99 was not taken as unusable: $(cat "$work/out")"
grep -q "not the pinned 14" "$work/out" || fail "the message does not name the pinned version"
PATH=$work/other:$work/bin LINATTN_CI=1 bash "$KIT_DIR/tests/kit/clang_format.sh" "$KIT_DIR" >"$work/out" 2>&1
[ $? -eq 1 ] || fail "clang-format 99 did not fail in CI"
grep -q 'export LINATTN_CI=1' "$KIT_DIR/.ci/run" || fail ".ci/run does not set LINATTN_CI=1"
if [ "${LINATTN_CI:-0}" = 1 ]; then
  grep -q '^LINATTN_WERROR:BOOL=ON$' "$BUILD_DIR/CMakeCache.txt" ||
    fail "CI built the kit without warnings as errors (LINATTN_WERROR is not ON in $BUILD_DIR)"
fi
echo ok
