#!/usr/bin/env bash
# shellcheck disable=SC2016  # the backquotes of the patterns are Markdown's, not the shell's
# The README says what the tree holds and leads to the other documents (label `kit`):
#   layout     every path of its Layout table exists, and so does every folder a row names in
#              backquotes (`src/` in the row of `grader/` is grader/src/)
#   exercises  every exercise of the kit (a folder with a manifest) has a row in its exercise table, and every
#              folder under exercises/ (but common/) is in the list
#   documents  the README is a front page (at most 150 lines) and links the documents for each
#              reader, which exist: docs/instructors.md, SECURITY.md, CONTRIBUTING.md
#   links      every relative link of README.md, ARCHITECTURE.md, SECURITY.md, CONTRIBUTING.md
#              and docs/*.md leads to a file, and to a heading of it where it names one
# usage: readme_layout.sh KIT_DIR TEST_NAME
set -u
KIT_DIR=$1
name=$2
README=$KIT_DIR/README.md
errors=0
problem() { echo "PROBLEM: $*"; errors=$((errors + 1)); }

# The rows of the table under "## Layout", up to the next section.
layout_rows() {
  sed -n '/^## Layout$/,/^## /p' "$README" | grep -E '^\| `[^`]+` \|'
}

case "$name" in
  layout)
    rows=$(layout_rows)
    [ -n "$rows" ] || problem "README.md has no Layout table"
    while IFS= read -r row; do
      [ -n "$row" ] || continue
      first=$(printf '%s\n' "$row" | cut -d'|' -f2)
      holds=$(printf '%s\n' "$row" | cut -d'|' -f3-)
      # The first cell may name several paths (`CMakeLists.txt`, `README.md`, `kit`).
      for path in $(printf '%s\n' "$first" | grep -oE '`[^`]+`' | tr -d '`'); do
        [ -e "$KIT_DIR/$path" ] || problem "the Layout table names $path, which is not in the kit"
        case "$path" in */) ;; *) continue ;; esac
        for sub in $(printf '%s\n' "$holds" | grep -oE '`[A-Za-z0-9_.-]+/`' | tr -d '`'); do
          [ -d "$KIT_DIR/$path$sub" ] ||
            problem "the Layout table's row of $path names $sub, but there is no $path$sub"
        done
      done
    done <<<"$rows"
    ;;
  exercises)
    table=$(sed -n '/^## The exercises$/,/^## /p' "$README")
    while IFS= read -r ex; do
      printf '%s\n' "$table" | grep -qF "| [\`$ex\`](exercises/$ex/README.md) |" ||
        problem "exercise $ex is not in the README's exercise table"
    done < <("$KIT_DIR/grader/tools/exercises" "$KIT_DIR")
    for dir in "$KIT_DIR"/exercises/*/; do
      ex=$(basename "$dir")
      [ "$ex" = common ] && continue
      [ -f "$dir/.meta/config.json" ] ||
        problem "exercises/$ex/ has no manifest (.meta/config.json), so the kit does not build it"
    done
    ;;
  documents)
    lines=$(wc -l <"$README")
    [ "$lines" -le 150 ] || problem "README.md has $lines lines; a front page has at most 150 (move the rest to a document)"
    for doc in docs/instructors.md SECURITY.md CONTRIBUTING.md; do
      [ -f "$KIT_DIR/$doc" ] || problem "there is no $doc"
      grep -qF "]($doc)" "$README" || problem "README.md does not link $doc"
    done
    ;;
  links)
    # The anchors of a file's headings, as GitHub makes them.
    slugs() {
      awk '/^```/ { code = !code; next } !code && /^#+ / {
        s = tolower($0); sub(/^#+ +/, "", s); gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
    }
    for doc in "$README" "$KIT_DIR"/ARCHITECTURE.md "$KIT_DIR"/SECURITY.md "$KIT_DIR"/CONTRIBUTING.md "$KIT_DIR"/docs/*.md; do
      [ -f "$doc" ] || continue
      while read -r link; do
        case "$link" in http://*|https://*|mailto:*) continue ;; esac
        target=${link%%#*}
        anchor=""
        case "$link" in *'#'*) anchor=${link#*#} ;; esac
        if [ -z "$target" ]; then path=$doc; else path=$(dirname "$doc")/$target; fi
        if [ ! -e "$path" ]; then
          problem "${doc#"$KIT_DIR"/}: the link ($link) leads nowhere"
        elif [ -n "$anchor" ] && [ -f "$path" ] && ! slugs "$path" | grep -qxF "$anchor"; then
          problem "${doc#"$KIT_DIR"/}: the link ($link) names no heading of ${path#"$KIT_DIR"/}"
        fi
      done < <(awk '/^```/ { code = !code; next } !code' "$doc" | grep -oE '\]\([^) ]+\)' | sed 's/^](//; s/)$//')
    done
    ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
[ "$errors" -eq 0 ] || { echo "$errors problem(s)"; exit 1; }
echo ok
