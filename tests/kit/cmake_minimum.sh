#!/usr/bin/env bash
# The kit builds with CMake 3.22 (Ubuntu 22.04's, Gradescope's default base image), pinned:
#   declared   cmake_minimum_required says 3.22, and ./kit's version check asks for the same;
#   features   no CMake file, nor a script that runs cmake or ctest, uses anything newer than 3.22;
#   configure  a real CMake 3.22 configures and generates the kit (skipped, exit 77, where there
#              is none: LINATTN_CMAKE_3_22=/path/to/cmake, or /opt/cmake-3.22*/bin/cmake).
# usage: cmake_minimum.sh KIT_DIR TEST_NAME
set -u
KIT_DIR=$1
name=$2
MIN=3.22
fail() { echo "FAILED: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }

# The kit's CMake files and the scripts that call cmake or ctest (no build folders).
cmake_files() {
  find "$KIT_DIR" \( -name .git -o -name 'build*' -o -name node_modules \) -prune -o \
       -type f \( -name CMakeLists.txt -o -name '*.cmake' -o -name '*.cmake.in' \) -print
}
script_files() {
  { echo "$KIT_DIR/kit"; find "$KIT_DIR" \( -name .git -o -name 'build*' \) -prune -o -type f \
      \( -name '*.sh' -o -name '*.yml' -o -path '*/grader/tools/*' -o -path '*/.ci/*' \) -print; } |
    while read -r f; do [ -f "$f" ] && grep -lqE '\b(cmake|ctest)\b' "$f" && echo "$f"; done
}

case "$name" in
  declared)
    first=$(grep -m1 -E '^[[:space:]]*cmake_minimum_required' "$KIT_DIR/CMakeLists.txt")
    [[ "$first" =~ cmake_minimum_required\(VERSION[[:space:]]+$MIN([.][0-9]+)?[[:space:]]*\) ]] ||
      fail "CMakeLists.txt does not declare cmake_minimum_required(VERSION $MIN): $first"
    # Nothing else asks for more: no other minimum, no policy version above 3.22.
    while read -r f; do
      grep -nE 'cmake_(minimum_required|policy)[[:space:]]*\([[:space:]]*VERSION' "$f" |
        while IFS= read -r line; do
          v=$(printf '%s\n' "$line" | sed -E 's/.*VERSION[[:space:]]+([0-9]+\.[0-9]+).*/\1/')
          [ "$(printf '%s\n%s\n' "$v" "$MIN" | sort -V | tail -n1)" = "$MIN" ] ||
            { echo "$f: $line"; exit 1; }
        done || fail "a CMake file asks for a newer CMake than $MIN"
    done < <(cmake_files)
    grep -qE "^KIT_CMAKE_MIN=$MIN\$" "$KIT_DIR/kit" || fail "./kit does not check for CMake $MIN (KIT_CMAKE_MIN)"
    ;;
  features)
    # Each: an extended regular expression, and the CMake version that brought it.
    newer=(
      '\$<LINK_LIBRARY:|3.24' '\$<LINK_GROUP:|3.24' 'CMAKE_LINK_(LIBRARY|GROUP)_USING_|3.24'
      '\$<PATH(_EQUAL)?:|3.24' 'DOWNLOAD_EXTRACT_TIMESTAMP|3.24' 'COMPILE_WARNING_AS_ERROR|3.24'
      'find_package\([^)]*[[:space:]]GLOBAL([[:space:])]|$)|3.24' 'FILE_SET|3.23'
      '^[[:space:]]*(end)?block[[:space:]]*\(|3.25' 'PROPAGATE|3.25'
      'add_subdirectory\([^)]*[[:space:]]SYSTEM([[:space:])]|$)|3.25' 'cmake_language\([[:space:]]*GET_MESSAGE_LOG_LEVEL|3.25'
      '\$<BUILD_LOCAL_INTERFACE:|3.26' '\$<LIST:|3.27' '\$<COMPILE_ONLY:|3.27' 'TIMEOUT_SIGNAL_(NAME|GRACE_PERIOD)|3.27'
      '\$<TARGET_RUNTIME_DLL_PATHS:|3.27' '\$<STRING:|3.30' 'cmake_language\([[:space:]]*EXIT|3.29'
    )
    found=""
    while read -r f; do
      for entry in "${newer[@]}"; do
        hits=$(grep -nE -- "${entry%|*}" "$f" | grep -vE '^[0-9]+:[[:space:]]*#') &&
          found+="$f (CMake ${entry##*|}): $hits"$'\n'
      done
    done < <(cmake_files)
    # Command-line options of cmake and ctest newer than 3.22, in the scripts that call them.
    cli=('cmake[^|;]*--fresh|3.24' 'cmake[^|;]*--workflow|3.25' 'cmake -E copy[^|;]* -t |3.26')
    while read -r f; do
      for entry in "${cli[@]}"; do
        hits=$(grep -nE -- "${entry%|*}" "$f") && found+="$f (CMake ${entry##*|}): $hits"$'\n'
      done
    done < <(script_files)
    [ -z "$found" ] || fail "features newer than CMake $MIN:"$'\n'"$found"
    ;;
  configure)
    cmake322=${LINATTN_CMAKE_3_22:-}
    if [ -z "$cmake322" ]; then
      for c in /opt/cmake-3.22*/bin/cmake; do [ -x "$c" ] && cmake322=$c; done
    fi
    { [ -n "$cmake322" ] && [ -x "$cmake322" ]; } || skip "no CMake 3.22 here (set LINATTN_CMAKE_3_22)"
    version=$("$cmake322" --version | head -n1)
    [[ "$version" == "cmake version $MIN."* ]] || fail "$cmake322 is not CMake $MIN: $version"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    "$cmake322" -S "$KIT_DIR" -B "$work/build" "${generator[@]}" -Wdev >"$work/log" 2>&1 ||
      { cat "$work/log"; fail "$version could not configure the kit"; }
    grep -qiE 'CMake (Error|Warning)' "$work/log" && { cat "$work/log"; fail "$version warned or failed"; }
    # The judge links its checks whole without CMake 3.24's $<LINK_LIBRARY:WHOLE_ARCHIVE,...>.
    if [ -f "$work/build/build.ninja" ] && [ -d "$KIT_DIR/grader/src" ]; then
      grep -qE -- '-Wl,--whole-archive +[^ ]*liblinattn_checks\.a +-Wl,--no-whole-archive' "$work/build/build.ninja" ||
        fail "the judge's link line does not take liblinattn_checks.a whole"
    fi
    echo "$version configured and generated the kit"
    ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
