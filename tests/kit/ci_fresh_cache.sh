#!/usr/bin/env bash
# CI's entry point (.ci/run) runs the tests with an empty cache of built submissions, so the
# corpus never passes on runners or refusals cached by an older grader (label `kit`). It runs
# here beside a stand-in kit that only notes whether the cache was there when `./kit test`
# began, with the build folder by default and one named by LINATTN_BUILD_DIR.
# usage: ci_fresh_cache.sh KIT_DIR
set -u
KIT_DIR=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

mkdir -p "$work/.ci"
cp "$KIT_DIR/.ci/run" "$work/.ci/run" || fail "no .ci/run in the kit"
cat >"$work/kit" <<'KIT'
#!/usr/bin/env bash
build=${LINATTN_BUILD_DIR:-$(dirname "$0")/build}
if [ -e "$build/submissions-cache" ]; then state=warm; else state=cold; fi
echo "$state $*" >"$(dirname "$0")/seen"
KIT
chmod +x "$work/.ci/run" "$work/kit"

# fill DIR: a build folder with a cached runner in it, and something else that must stay.
fill() {
  mkdir -p "$1/submissions-cache/flops"
  echo "runner" >"$1/submissions-cache/flops/run-0123"
  echo "# cache" >"$1/CMakeCache.txt"
}

fill "$work/build"
(unset LINATTN_BUILD_DIR; "$work/.ci/run") || fail ".ci/run exited $?"
[ "$(cat "$work/seen" 2>/dev/null)" = "cold test" ] ||
  fail "with the default build folder, ./kit test saw: $(cat "$work/seen" 2>/dev/null || echo 'no run')"
[ -f "$work/build/CMakeCache.txt" ] || fail "the build folder itself was removed"

rm -f "$work/seen"
fill "$work/elsewhere"
LINATTN_BUILD_DIR=$work/elsewhere "$work/.ci/run" || fail ".ci/run exited $?"
[ "$(cat "$work/seen" 2>/dev/null)" = "cold test" ] ||
  fail "with LINATTN_BUILD_DIR, ./kit test saw: $(cat "$work/seen" 2>/dev/null || echo 'no run')"
echo "ok"
