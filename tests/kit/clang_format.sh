#!/usr/bin/env bash
# The kit's C++ is formatted with its .clang-format (Google's style at 100 columns, see the file):
# any file clang-format would change fails the test, with the first lines of the change. Files
# are found by their suffix, so a new file is covered without being listed here. To fix:
# `clang-format -i FILE` (./kit test installs clang-format). Students' files as written (the
# corpus's submissions, the tests' fixtures, a syntax error among them) are left as they are.
# usage: clang_format.sh KIT_DIR
set -u
KIT_DIR=$1
skip() { echo "SKIPPED: $*"; exit 77; }
# Outside CI a missing or other clang-format is a skip; in CI (.ci/run sets LINATTN_CI=1) the
# check must run, so it is a failure.
unusable() {
  if [ "${LINATTN_CI:-0}" = 1 ]; then echo "FAILED: $* (CI runs the format check)"; exit 1; fi
  skip "$*"
}
# The pinned major version: Debian 12's. Another major formats some constructs otherwise, so a
# tree formatted with one fails under the other for nothing a person wrote.
want_major=14
command -v clang-format >/dev/null 2>&1 || unusable "clang-format is not installed (./kit test installs it)"
major=$(clang-format --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
[ "$major" = "$want_major" ] ||
  unusable "clang-format ${major:-of unknown version} is not the pinned $want_major (Debian 12's)"
[ -f "$KIT_DIR/.clang-format" ] || { echo "FAILED: no .clang-format in $KIT_DIR"; exit 1; }

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
  find "$KIT_DIR" \( -name .git -o -name build -o -name 'build-*' -o -name .cache -o -name submissions \
          -o -name fixtures \) \
       -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' \) -print0 | sort -z)
[ ${#files[@]} -gt 0 ] || { echo "FAILED: no C++ file found under $KIT_DIR"; exit 1; }
echo "$(clang-format --version) over ${#files[@]} files"
# One clang-format process for the whole tree (a couple of seconds); only on a difference is
# each file formatted on its own, to name the files and show their first changed lines.
if clang-format --style=file --dry-run -Werror "${files[@]}" >/dev/null 2>&1; then
  echo ok
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then
    bad=$((bad + 1))
    if [ "$bad" -le 5 ]; then
      echo "--- ${f#"$KIT_DIR"/} (clang-format would change it):"
      clang-format --style=file "$f" | diff "$f" - | head -12
    fi
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "FAILED: $bad file(s) differ from their clang-format output (fix: clang-format -i FILE)"
  exit 1
fi
echo ok
