#!/usr/bin/env bash
# Mutation testing of the kit's own tests: each mutation in mutations.txt (one realistic bug:
# a file, an exact text that occurs there once, its replacement) is applied alone to a
# throwaway copy of the kit, which is rebuilt and whose relevant CTest labels are run. A
# mutation is caught when a test that passes on the unmutated copy fails. Prints caught/missed
# per mutation and the total. Slow (a rebuild and a test run per mutation); not part of
# `./kit test`. It never touches the kit it is run from: everything happens under a temporary
# folder, removed at the end (unless --keep).
#
# usage: tests/mutation/run.sh [--worktree | --ref REV] [--mutations FILE] [--warm-cache]
#                              [--keep] [--jobs N] [--list] [ID...]
#   ID...         only these mutations (default: all of mutations.txt)
#   --mutations FILE  read the mutations from FILE instead of mutations.txt beside this script
#                 (for an older REV, whose code the current list no longer matches)
#   --ref REV     the kit as committed at REV (default HEAD)
#   --worktree    the kit's working tree as it is now, uncommitted edits included
#   --warm-cache  keep the grader's build cache between mutations (default: a fresh cache for
#                 each mutation, so a cached build cannot hide a builder mutation)
#   --keep        keep the temporary folder
#   --list        list the mutations and exit
#   --check       build nothing: say whether each mutation still applies to the kit's working
#                 tree (its file is there, its text occurs there exactly once, the replacement
#                 differs); exit 1 when one does not (a stale entry would never be run)
#
# mutations.txt: blocks separated by a line "[id]", each with the lines
#   file: path/in/the/kit     labels: label[,label...]     tests: REGEX (optional, ctest -R)
#   find: exact text          replace: its replacement (may be empty)
# In find and replace, <NL> stands for a line break. Lines starting with '#' are comments.
# Exit status: 0 when every mutation that applied and built was caught, 1 otherwise, 2 on a
# usage error or a broken unmutated copy.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KIT_DIR=$(cd "$here/../.." && pwd)
LIST=$here/mutations.txt
ref=HEAD
from_worktree=0
warm=0
keep=0
jobs=2
list_only=0
check_only=0
selected=()

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) [ $# -ge 2 ] || { usage; exit 2; }; ref=$2; shift 2 ;;
    --mutations) [ $# -ge 2 ] || { usage; exit 2; }; LIST=$2; shift 2 ;;
    --worktree) from_worktree=1; shift ;;
    --warm-cache) warm=1; shift ;;
    --keep) keep=1; shift ;;
    --jobs) [ $# -ge 2 ] || { usage; exit 2; }; jobs=$2; shift 2 ;;
    --list) list_only=1; shift ;;
    --check) check_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) selected+=("$1"); shift ;;
  esac
done

# ---- reading mutations.txt ---------------------------------------------------------------
ids=() files=() labels=() regexes=() finds=() replaces=()
add_block() {
  [ -n "$cur_id" ] || return 0
  if [ -z "$cur_file" ] || [ -z "$cur_labels" ] || [ "$have_find" -eq 0 ] || [ "$have_replace" -eq 0 ]; then
    echo "mutations.txt: [$cur_id] needs file, labels, find and replace" >&2
    exit 2
  fi
  ids+=("$cur_id") files+=("$cur_file") labels+=("$cur_labels") regexes+=("$cur_regex")
  finds+=("$cur_find") replaces+=("$cur_replace")
}
cur_id=""
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    '#'*|'') continue ;;
    '['*']')
      add_block
      cur_id=${line#[}; cur_id=${cur_id%]}
      cur_file="" cur_labels="" cur_regex="" cur_find="" cur_replace="" have_find=0 have_replace=0 ;;
    'file: '*) cur_file=${line#file: } ;;
    'labels: '*) cur_labels=${line#labels: } ;;
    'tests: '*) cur_regex=${line#tests: } ;;
    'find: '*) cur_find=${line#find: }; have_find=1 ;;
    'replace:'*) cur_replace=${line#replace:}; cur_replace=${cur_replace# }; have_replace=1 ;;
    *) echo "mutations.txt: cannot read line: $line" >&2; exit 2 ;;
  esac
done <"$LIST"
add_block

# apply_mutation FILE I [--dry]: mutation I's edit on FILE, only if its text occurs there exactly
# once (exit 3 otherwise); --dry checks without writing.
apply_mutation() {
  FIND=${finds[$2]} REPL=${replaces[$2]} DRY=${3:-} perl -e '
    my ($path) = @ARGV;
    my ($f, $r) = @ENV{qw(FIND REPL)};
    s/<NL>/\n/g for $f, $r;
    local $/;
    open(my $in, "<", $path) or die "$path: $!";
    my $text = <$in>;
    close $in;
    my $n = () = $text =~ /\Q$f\E/g;
    exit 3 if $n != 1 || $f eq $r;
    exit 0 if $ENV{DRY};
    $text =~ s/\Q$f\E/$r/;
    open(my $out, ">", $path) or die "$path: $!";
    print $out $text;
    close $out;' "$1"
}

if [ "$check_only" -eq 1 ]; then
  stale=0
  for i in "${!ids[@]}"; do
    if [ ! -f "$KIT_DIR/${files[$i]}" ]; then
      printf 'STALE   %-36s %s is not in the kit\n' "${ids[$i]}" "${files[$i]}"; stale=$((stale + 1))
    elif ! apply_mutation "$KIT_DIR/${files[$i]}" "$i" --dry; then
      printf 'STALE   %-36s its text does not occur exactly once in %s (or the edit changes nothing)\n' \
        "${ids[$i]}" "${files[$i]}"
      stale=$((stale + 1))
    fi
  done
  echo "${#ids[@]} mutations, $stale stale"
  [ "$stale" -eq 0 ]
  exit
fi

if [ "$list_only" -eq 1 ]; then
  for i in "${!ids[@]}"; do printf '%-36s %-40s %s\n' "${ids[$i]}" "${files[$i]}" "${labels[$i]}"; done
  echo "${#ids[@]} mutations"
  exit 0
fi

todo=()
if [ "${#selected[@]}" -eq 0 ]; then
  todo=("${!ids[@]}")
else
  for want in "${selected[@]}"; do
    found=""
    for i in "${!ids[@]}"; do [ "${ids[$i]}" = "$want" ] && found=$i; done
    [ -n "$found" ] || { echo "no mutation named $want (see --list)" >&2; exit 2; }
    todo+=("$found")
  done
fi

# ---- the throwaway copy ------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/linattn-mutation-XXXXXX")
cleanup() { if [ "$keep" -eq 1 ]; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT
src=$work/kit
build=$work/build
mkdir -p "$src"
if [ "$from_worktree" -eq 1 ]; then
  (cd "$KIT_DIR" && git ls-files -z --cached --others --exclude-standard |
     tar --null --ignore-failed-read -T - -cf -) | tar -C "$src" -xf - || { echo "cannot copy the kit" >&2; exit 2; }
  echo "copy: the working tree of $KIT_DIR"
else
  git -C "$KIT_DIR" archive "$ref" | tar -C "$src" -xf - || { echo "cannot export $ref" >&2; exit 2; }
  echo "copy: $ref ($(git -C "$KIT_DIR" rev-parse --short "$ref")) of $KIT_DIR"
fi
echo "work folder: $work"

log=$work/log.txt
build_all() { cmake --build "$build" -j "$jobs" >>"$log" 2>&1; }
echo "configuring and building the unmutated copy (the first build is the slow one)..."
cmake -S "$src" -B "$build" -G Ninja >>"$log" 2>&1 || { echo "configure failed; see $log" >&2; keep=1; exit 2; }
build_all || { echo "the unmutated copy does not build; see $log" >&2; keep=1; exit 2; }

# Regex of a test name, for ctest -E.
# shellcheck disable=SC2016  # the $ is a character of the sed expression
regex_of() { printf '%s' "$1" | sed -e 's/[][\.*^$(){}+?|]/\\&/g'; }

# run_tests LABELS REGEX EXCLUDE: runs ctest on the labels (comma separated, any of them),
# stopping at the first failure; leaves the failed names in $work/failed.txt.
run_tests() {
  local args=(--test-dir "$build" -j "$jobs" --stop-on-failure --timeout 600)
  local label_re
  label_re="^($(printf '%s' "$1" | sed 's/,/|/g'))\$"
  args+=(-L "$label_re")
  [ -n "$2" ] && args+=(-R "$2")
  [ -n "$3" ] && args+=(-E "$3")
  [ "$warm" -eq 1 ] || rm -rf "$build/submissions-cache"
  rm -f "$build/Testing/Temporary/LastTestsFailed.log"
  ctest "${args[@]}" >>"$log" 2>&1
  local code=$?
  if [ -f "$build/Testing/Temporary/LastTestsFailed.log" ]; then
    sed -e 's/^[0-9]*://' "$build/Testing/Temporary/LastTestsFailed.log" >"$work/failed.txt"
  else
    : >"$work/failed.txt"
  fi
  return $code
}

# Baseline per label set: tests that fail unmutated are left out of that set's runs.
declare -A exclude_of
for i in "${todo[@]}"; do
  key="${labels[$i]}|${regexes[$i]}"
  [ -n "${exclude_of[$key]+set}" ] && continue
  echo "baseline: labels ${labels[$i]}${regexes[$i]:+, tests ${regexes[$i]}}..."
  exclude=""
  # Without --stop-on-failure here: every baseline failure must be known.
  args=(--test-dir "$build" -j "$jobs" --timeout 600 -L "^($(printf '%s' "${labels[$i]}" | sed 's/,/|/g'))\$")
  [ -n "${regexes[$i]}" ] && args+=(-R "${regexes[$i]}")
  [ "$warm" -eq 1 ] || rm -rf "$build/submissions-cache"
  rm -f "$build/Testing/Temporary/LastTestsFailed.log"
  ctest "${args[@]}" >>"$log" 2>&1
  if [ -f "$build/Testing/Temporary/LastTestsFailed.log" ]; then
    while IFS= read -r name; do
      name=${name#*:}
      echo "  fails unmutated, left out: $name"
      exclude+="${exclude:+|}^$(regex_of "$name")\$"
    done <"$build/Testing/Temporary/LastTestsFailed.log"
  fi
  exclude_of[$key]=$exclude
done

# ---- the mutations -----------------------------------------------------------------------
caught=0 missed=0 stale=0 nobuild=0
missed_ids=()
for i in "${todo[@]}"; do
  id=${ids[$i]} file=$src/${files[$i]}
  if [ ! -f "$file" ]; then
    printf 'STALE   %-36s %s is not in this copy\n' "$id" "${files[$i]}"
    stale=$((stale + 1)); continue
  fi
  cp "$file" "$work/original"
  # Applies the edit only if the text occurs exactly once (exit 3 otherwise).
  if ! apply_mutation "$file" "$i"; then
    printf 'STALE   %-36s the text to find does not occur exactly once in %s\n' "$id" "${files[$i]}"
    stale=$((stale + 1)); continue
  fi
  echo "=== $id" >>"$log"
  if ! build_all; then
    printf 'NOBUILD %-36s the mutated kit does not compile (not counted)\n' "$id"
    nobuild=$((nobuild + 1))
  elif run_tests "${labels[$i]}" "${regexes[$i]}" "${exclude_of[${labels[$i]}|${regexes[$i]}]}"; then
    printf 'MISSED  %-36s no test of %s failed\n' "$id" "${labels[$i]}"
    missed=$((missed + 1)); missed_ids+=("$id")
  else
    first=$(head -n 1 "$work/failed.txt")
    printf 'caught  %-36s by %s\n' "$id" "${first:-a test that did not finish}"
    caught=$((caught + 1))
  fi
  cp "$work/original" "$file"  # a fresh time stamp: the next build recompiles it
done
# Leave the build as it was (not needed for the figures, but a kept folder stays usable).
build_all || true

counted=$((caught + missed))
percent=0
[ "$counted" -gt 0 ] && percent=$((100 * caught / counted))
echo "---"
echo "caught $caught of $counted mutations ($percent%); $stale stale, $nobuild did not build"
[ "$missed" -eq 0 ] || echo "missed: ${missed_ids[*]}"
[ "$missed" -eq 0 ]
