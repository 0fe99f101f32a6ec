#!/usr/bin/env bash
# shellcheck disable=SC2016  # the backquotes of the patterns are Markdown's, not the shell's
# The student-facing documents against the assignments (label `kit`):
#   full      the full kit's documents are up to date with grader/tools/student-docs, name only
#             exercises it has, their relative links resolve, and their tables and totals are
#             the grader's, for every assignment; every exercise is in the table of starters
#   release   the same for the student kit of each assignment, released once each
#   handouts  every hand-out's table of checks is the grader's: each check once, with its
#             points, and no check the grader does not have; the title's points are the
#             exercise's; it says what to hand in
# usage: student_docs.sh KIT_DIR BUILD_DIR TEST_NAME
set -u
KIT_DIR=$1
BUILD_DIR=$2
name=$3
GRADER=$BUILD_DIR/grader/linattn-grade
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
errors=0
problem() { echo "PROBLEM: $*"; errors=$((errors + 1)); }
export NO_COLOR=1
unset LINATTN_BUILD_DIR LINATTN_KIT_NO_BUILD
[ -x "$GRADER" ] || { echo "the grader is not built: $GRADER"; exit 1; }

ALL_EXERCISES=$("$KIT_DIR/grader/tools/exercises" "$KIT_DIR")

# listing NAME: the grader's listing of an assignment as `EX<TAB>POINTS` and
# `EX<TAB>POINTS<TAB>CHECK<TAB>VISIBILITY` lines.
listing() {
  "$GRADER" assignment "$1" | awk '
    /^[a-z_0-9]+ +[0-9.]+ points$/ { ex = $1; print ex "\t" $2; next }
    /^  [^ ]+ +[0-9.]+ +[a-z_]+$/ && ex != "" { print ex "\t" $2 "\t" $1 "\t" $3 }'
}

# documents DIR: the Markdown files a student reads.
documents() {
  local f
  for f in "$1/README.md" "$1/exercises/README.md" "$1"/exercises/*/README.md "$1"/exercises/*/hints.md; do
    [ -f "$f" ] && printf '%s\n' "$f"
  done
  return 0
}

# check_names DIR: no document names an exercise that DIR does not ship: its folder or file, a
# link to it, `--only` with it, or its name in backquotes (alone or before a slash).
check_names() {
  local dir=$1 shipped ex doc hits
  shipped=$("$KIT_DIR/grader/tools/exercises" "$dir")
  for ex in $ALL_EXERCISES; do
    printf '%s\n' "$shipped" | grep -qx "$ex" && continue
    while read -r doc; do
      hits=$(grep -nE "\`$ex\`|\`$ex/|--only $ex([^a-z_]|$)|\]\(([./]*)(exercises/)?$ex/|(^|[ (])$ex/$ex\.cpp|kit (try|hint) $ex([^a-z_]|$)" "$doc" || true)
      [ -z "$hits" ] || problem "${doc#"$dir"/} names $ex, which this kit does not ship: $(printf '%s' "$hits" | head -n 3 | tr '\n' ' ')"
    done < <(documents "$dir")
  done
}

# slugs FILE: the anchors of FILE's headings, as GitHub makes them.
slugs() {
  awk '/^```/ { code = !code; next } !code && /^#+ / {
    s = tolower($0); sub(/^#+ +/, "", s); gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
}

# check_links DIR: every relative link of every document leads to a file (and to a heading,
# where it names one) of DIR.
check_links() {
  local dir=$1 doc link target anchor path
  while read -r doc; do
    while read -r link; do
      case "$link" in http://*|https://*|mailto:*) continue ;; esac
      target=${link%%#*}
      anchor=""
      case "$link" in *'#'*) anchor=${link#*#} ;; esac
      if [ -z "$target" ]; then path=$doc; else path=$(dirname "$doc")/$target; fi
      if [ ! -e "$path" ]; then
        problem "${doc#"$dir"/}: the link ($link) leads nowhere"
      elif [ -n "$anchor" ] && [ -f "$path" ] && ! slugs "$path" | grep -qxF "$anchor"; then
        problem "${doc#"$dir"/}: the link ($link) names no heading of ${path#"$dir"/}"
      fi
    done < <(awk '/^```/ { code = !code; next } !code' "$doc" | grep -oE '\]\([^) ]+\)' | sed 's/^](//; s/)$//')
  done < <(documents "$dir")
}

# check_totals DIR ASSIGNMENT...: the exercise tables of README.md and exercises/README.md, and
# the files to hand in, are the assignments' (and nothing else), totals included.
check_totals() {
  local dir=$1 doc a want got files
  shift
  want=$(for a in "$@"; do listing "$a" | awk -F'\t' 'NF == 2 { print $1 " " $2 }'; done)
  for doc in "$dir/README.md" "$dir/exercises/README.md"; do
    got=$(grep -oE '^\| [0-9]+ \| \[`[a-z_0-9]+`\]\([^)]*\) \| [a-z-]+ \| [0-9.]+ \|' "$doc" |
          awk -F'|' '{ ex = $3; gsub(/^ *\[`|`\].*$/, "", ex); p = $5; gsub(/ /, "", p); print ex " " p }')
    [ "$got" = "$want" ] || problem "${doc#"$dir"/}: the exercise tables say '${got//$'\n'/ }', the assignments '${want//$'\n'/ }'"
    got=$(grep -oE '^Total: [0-9.]+ points\.' "$doc" | awk '{ print $2 }')
    [ "$got" = "$(for a in "$@"; do listing "$a" | awk -F'\t' 'NF == 2 { s += $2 } END { print s }'; done)" ] ||
      problem "${doc#"$dir"/}: the totals ${got//$'\n'/ } are not the assignments'"
  done
  # The files to hand in: what the "Submitting" section names is one file per exercise.
  files=$(awk '/^## Submitting/ { on = 1; next } /^## / { on = 0 } on' "$dir/exercises/README.md" |
          grep -oE '`[a-z_0-9]+/[a-z_0-9]+\.cpp`' | tr -d '`' | sort -u)
  got=$(for a in "$@"; do listing "$a" | awk -F'\t' 'NF == 2 { print $1 "/" $1 ".cpp" }'; done | sort -u)
  [ "$files" = "$got" ] || problem "exercises/README.md's Submitting names '${files//$'\n'/ }', the assignments' files are '${got//$'\n'/ }'"
  # The hidden checks: how many, and their points, per assignment.
  for a in "$@"; do
    want=$(listing "$a" | awk -F'\t' 'NF == 4 && $4 != "visible" { n++; s += $2 } END { print n + 0, s + 0 }')
    got=$(grep -oE "^\*\*The assignment \`$a\`\*\*: [0-9]+ checks worth [0-9.]+ " "$dir/exercises/README.md" | awk '{ print $4, $7 }')
    [ "$got" = "$want" ] || problem "exercises/README.md: the hidden checks of $a are '$got' (count, points), the grader's '$want'"
  done
}

# The kit's assignments, the default first.
kit_assignments() {
  echo default
  for f in "$1"/assignments/*.json; do
    n=$(basename "$f" .json)
    [ "$n" = default ] || echo "$n"
  done
}

case "$name" in
  full)
    "$KIT_DIR/grader/tools/student-docs" "$GRADER" "$KIT_DIR" --check ||
      problem "the documents are not up to date: run grader/tools/student-docs $GRADER . --update"
    check_names "$KIT_DIR"
    check_links "$KIT_DIR"
    # Every exercise has its row in the table of what each stub starts from.
    awk '/^\*\*What you start from/ { on = 1 } on && /^$/ { if (rows) exit } on && /^\|/ { rows++; print }' \
      "$KIT_DIR/exercises/README.md" >"$work/starters"
    for ex in $ALL_EXERCISES; do
      grep -q "^| \`$ex\` | " "$work/starters" || problem "exercises/README.md's table of starters has no row for $ex"
    done
    # shellcheck disable=SC2046  # one word per assignment
    check_totals "$KIT_DIR" $(kit_assignments "$KIT_DIR") ;;
  release)
    # One release per assignment: `./kit release` records the expected values, which is the slow
    # part, once each.
    for a in $(kit_assignments "$KIT_DIR"); do
      rel=$work/kit-$a
      LINATTN_KIT_NO_BUILD=1 LINATTN_BUILD_DIR=$BUILD_DIR "$KIT_DIR/kit" release student "$rel" --assignment "$a" \
        >"$work/release.log" 2>&1 || { cat "$work/release.log"; problem "release student --assignment $a failed"; continue; }
      echo "released the student kit of $a"
      grep -rl '<!-- \(generated\|end generated\|only\|end only\)' "$rel" --include='*.md' >"$work/markers" || true
      [ ! -s "$work/markers" ] || problem "the kit of $a keeps the documents' markers: $(cat "$work/markers")"
      check_names "$rel"
      check_links "$rel"
      check_totals "$rel" "$a"
    done ;;
  handouts)
    for a in $(kit_assignments "$KIT_DIR"); do
      listing "$a" >"$work/listing"
      while IFS=$'\t' read -r ex points; do
        handout=$KIT_DIR/exercises/$ex/README.md
        # "# Exercise N — What (kind, P points)"
        title_points=$(head -n 1 "$handout" | sed -n 's/.*, \([0-9.]*\) points)$/\1/p')
        [ "$title_points" = "$points" ] || problem "$ex/README.md's title gives $title_points points, the assignment $a $points"
        # It says what to hand in, and where the rest of the hand-in is explained.
        awk '/^## Handing in/ { on = 1; next } /^## / { on = 0 } on' "$handout" >"$work/handing-in"
        if ! grep -qF "\`$ex/$ex.cpp\`" "$work/handing-in" || ! grep -qF '(../README.md#submitting)' "$work/handing-in"; then
          problem "$ex/README.md has no section 'Handing in' naming $ex/$ex.cpp and linking ../README.md#submitting"
        fi
        # The hand-out's rows: | `CHECK` | POINTS | ...
        grep -oE '^\| `[^`]+` \| [0-9.]+ \|' "$handout" | awk -F'`' '{ p = $3; gsub(/[ |]/, "", p); print $2 "\t" p }' |
          sort >"$work/rows"
        awk -F'\t' -v ex="$ex" 'NF == 4 && $1 == ex { print $3 "\t" $2 }' "$work/listing" | sort >"$work/checks"
        while IFS=$'\t' read -r check want; do
          got=$(awk -F'\t' -v c="$check" '$1 == c { print $2 }' "$work/rows")
          case "$got" in
            "$want") ;;
            "") problem "$ex/README.md has no row for the check $check ($want points)" ;;
            *) problem "$ex/README.md gives $check ${got//$'\n'/ } points, the grader $want" ;;
          esac
        done <"$work/checks"
        cut -f1 "$work/rows" | while read -r check; do
          grep -q "^$check	" "$work/checks" || echo "PROBLEM: $ex/README.md has a row for $check, which the grader does not have"
        done | tee "$work/extra"
        errors=$((errors + $(wc -l <"$work/extra")))
      done < <(awk -F'\t' 'NF == 2' "$work/listing")
    done ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
[ "$errors" -eq 0 ] || { echo "FAILED: $errors problems"; exit 1; }
echo ok
