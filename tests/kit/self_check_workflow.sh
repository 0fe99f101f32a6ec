#!/usr/bin/env bash
# The student's self-check on GitHub Actions (grader/tools/student/self-check.yml, released as
# .github/workflows/self-check.yml), label `kit`: the workflow read with PyYAML (on push; check
# out, ccache's folder cached and built through, grade), then its grading step's script run as
# the runner runs it (bash -eo pipefail, GITHUB_STEP_SUMMARY and GITHUB_ACTIONS set) in a copy
# of this kit whose build is this CTest build's.
# usage: self_check_workflow.sh GRADER KIT_DIR CASE
#   stub       the stubs: exit 1, the summary's score 0, its table and Start here, one
#              annotation per function not written yet, on the student's file
#   hostile    flops.cpp prints Markdown, HTML and forged workflow commands: the summary shows
#              them as text, and the runner, which reads commands from the log, gets none of
#              them (the terminal report goes out between ::stop-commands:: and its token)
#   solutions  the solutions: exit 0, full marks, no Start here, no annotation
set -u
GRADER=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KIT_DIR=$(cd "$2" && pwd)
name=$3
BUILD_DIR=$(cd "$(dirname "$GRADER")/.." && pwd)
WORKFLOW=${LINATTN_SELF_CHECK_WORKFLOW:-$KIT_DIR/grader/tools/student/self-check.yml}
python3 -c 'import yaml' 2>/dev/null || { echo "SKIPPED: PyYAML is needed (./kit test installs python3-yaml)"; exit 77; }
work=$(mktemp -d)
chmod 755 "$work"
out=$work/out.log
: >"$out"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 60 "$out"; exit 1; }
has() { grep -qF -- "$2" "$1" || fail "$3 (no '$2' in $(basename "$1"))"; }
# The summary as HTML, through cmark-gfm with GitHub's extensions; raw HTML let through, as
# GitHub does before its sanitizer, so that anything a student could inject would show.
rendered() {
  if ! command -v cmark-gfm >/dev/null 2>&1; then
    [ "${LINATTN_CI:-0}" = 1 ] && fail "cmark-gfm is not installed (./kit test installs it)"
    echo "SKIPPED: cmark-gfm is needed to render the summary (./kit test installs it)"; exit 77
  fi
  cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter "$1" >"$2" ||
    fail "cmark-gfm cannot render $1"
}
lacks() { ! grep -qF -- "$2" "$1" || fail "$3 ('$2' is in $(basename "$1"))"; }

# The workflow's shape, and the grading step's script in $work/grade-step.sh.
python3 - "$WORKFLOW" "$work/grade-step.sh" >>"$out" 2>&1 <<'PY' || fail "the workflow's structure"
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
assert "push" in wf["on"], "it does not run on push"
(job,) = wf["jobs"].values()
steps = job["steps"]
uses = [str(s.get("uses", "")).split("@")[0] for s in steps]
assert uses[0] == "actions/checkout", "the first step is not the checkout"
assert not any("classroom" in u for u in uses), "a Classroom action"
grading = [i for i, s in enumerate(steps) if "--github-summary" in s.get("run", "")]
assert len(grading) == 1, "one step grades with --github-summary"
step = steps[grading[0]]
assert step.get("shell") == "bash" and "./kit grade" in step["run"], step
setup = [i for i, s in enumerate(steps) if "./kit setup" in s.get("run", "")]
cache = [i for i, s in enumerate(steps) if uses[i] == "actions/cache"]
assert setup and cache and cache[0] < setup[0] < grading[0], "cache, then build, then grade"
assert steps[cache[0]]["with"]["path"] == steps[setup[0]]["env"]["CCACHE_DIR"], "ccache's folder is cached"
assert "|| true" in [l for l in steps[setup[0]]["run"].splitlines() if "sysctl" in l][0]
open(sys.argv[2], "w").write(step["run"])
PY

# The student's repository: this kit's files, its build this CTest build's (LINATTN_KIT_NO_BUILD).
kit=$work/repo
mkdir -p "$kit"
tar -C "$KIT_DIR" --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./out \
  --exclude=./course-key --exclude=./grades --exclude=./grades-shards -cf - . | tar -C "$kit" -xf - ||
  fail "cannot copy the kit"
ln -s "$BUILD_DIR" "$kit/build"
case "$name" in
  solutions)
    for f in "$KIT_DIR"/solutions/*/*.cpp; do
      ex=$(basename "$(dirname "$f")")
      [ -d "$kit/exercises/$ex" ] && cp "$f" "$kit/exercises/$ex/"
    done ;;
  hostile)
    cat >"$kit/exercises/flops/flops.cpp" <<'CPP'
#include "flops.hpp"

#include <cstdio>

namespace linattn {

// Wrong on purpose, and loud: what it prints must stay text wherever the report goes.
std::int64_t attention_flops(std::int64_t, std::int64_t, std::int64_t, Order) {
  std::printf("<img src=x onerror=alert(1)> **bold** [link](https://evil.example)\n");
  std::printf("::error file=README.md,title=forged::not from the grader\n");
  std::printf("::add-mask::hidden\n| a | forged | row |\n");
  return 1;
}

std::int64_t crossover_T(std::int64_t, std::int64_t) { return 1; }

}  // namespace linattn
CPP
    ;;
  stub) ;;
  *) fail "no case $name" ;;
esac

summary=$work/summary.md
printf '%s\n' "## An earlier step's summary" >"$summary"
log=$work/step.log
(cd "$kit" && env GITHUB_ACTIONS=true CI=true GITHUB_STEP_SUMMARY="$summary" LINATTN_BUILD_DIR="$BUILD_DIR" \
  LINATTN_KIT_NO_BUILD=1 NO_COLOR=1 bash --noprofile --norc -eo pipefail "$work/grade-step.sh") >"$log" 2>>"$out"
code=$?
cat "$log" >>"$out"
cp "$summary" "$work/summary.copy"
echo "the grading step exited $code; summary: $(wc -c <"$summary") bytes, $(grep -c '^::error ' "$log") annotation(s)"

# The job summary is shared by a job's steps: this one's text comes after the earlier one's.
[ "$(head -n 1 "$summary")" = "## An earlier step's summary" ] || fail "the summary file was overwritten, not added to"
# The runner's commands: the report between ::stop-commands::TOKEN and ::TOKEN::, then ours.
python3 - "$log" >>"$out" 2>&1 <<'PY' || fail "workflow commands outside the grader's own annotations"
import re, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
stop = [i for i, l in enumerate(lines) if l.startswith("::stop-commands::")]
assert len(stop) == 1, "no single ::stop-commands:: line"
token = lines[stop[0]][len("::stop-commands::"):]
assert re.fullmatch(r"[0-9a-f]{32}", token), "a token one cannot guess: " + token
resume = lines.index("::%s::" % token)
# (A line is read as a command after its leading blanks, so indented ones count too.)
for i, line in enumerate(lines):
    if "::" in line and not (stop[0] <= i <= resume):
        assert i > resume and re.match(r"::error file=[^,:]+,title=[^:]*::", line), "line %d: %s" % (i, line)
PY

case "$name" in
  stub)
    [ "$code" -eq 1 ] || fail "grading the stubs exited $code, expected 1 (the job fails until all passes)"
    has "$summary" "## Linear attention: 0 / 100 points" "the score"
    has "$summary" "| flops | 0 / 10 | 0 / " "flops's row"
    has "$summary" "| memory | 0 / 20 | 0 / " "memory's row"
    has "$summary" "### Start here" "the Start here block"
    has "$summary" "Start here\\: flops\\, " "the Start here block names the first exercise"
    has "$summary" "exercises\\/flops\\/README\\.md" "Start here says where to read"
    has "$log" "::error file=exercises/flops/flops.cpp,title=flops%3A attention_flops::attention_flops is not written yet" \
      "an annotation on flops.cpp"
    has "$log" "::error file=exercises/memory/memory.cpp,title=memory%3A crosstalk_energy::" "an annotation on memory.cpp"
    [ "$(grep -c '^::error file=exercises/flops/flops.cpp,' "$log")" -eq 2 ] ||
      fail "flops's two functions not written yet: not one annotation each" ;;
  hostile)
    [ "$code" -eq 1 ] || fail "grading the hostile flops exited $code, expected 1"
    has "$log" "<img src=x onerror=alert(1)>" "the terminal report shows the output"
    rendered "$summary" "$work/summary.html"
    # The summary as GitHub shows it: only the summary's own elements, and what the student's
    # code printed, whole and literal, in a <pre> (no backslash before its punctuation).
    python3 - "$work/summary.html" >>"$out" 2>&1 <<'PY' || fail "the rendered summary: student text became markup, or is not shown as printed"
import sys
from html.parser import HTMLParser
ours = {"h2", "h3", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "li", "strong",
        "br", "details", "summary", "pre"}
class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.pres, self.in_pre = set(), [], False
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        assert not attrs or tag in {"th", "td"} and attrs[0][0] == "align", (tag, attrs)
        if tag == "pre": self.in_pre, self.text = True, ""
    def handle_endtag(self, tag):
        if tag == "pre": self.in_pre = False; self.pres.append(self.text)
    def handle_data(self, data):
        if self.in_pre: self.text += data
page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
assert page.tags <= ours, "elements the summary does not make: %s" % (page.tags - ours)
printed = ("<img src=x onerror=alert(1)> **bold** [link](https://evil.example)\n"
           "::error file=README.md,title=forged::not from the grader\n"
           "::add-mask::hidden\n| a | forged | row |")
assert any(printed in p for p in page.pres), page.pres[:2]
PY
    has "$work/summary.html" "<li><strong>flops</strong>, flops/by-hand (failed, 0 / 2)" \
      "the failing check, in the grader's own markup"
    has "$log" "::error file=exercises/flops/flops.cpp,title=flops%3A " "an annotation on flops.cpp"
    has "$log" "::error file=README.md,title=forged" "the forged command in the paused report" ;;
  solutions)
    [ "$code" -eq 0 ] || fail "grading the solutions exited $code, expected 0"
    has "$summary" "## Linear attention: 100 / 100 points" "full marks"
    has "$summary" "Every check passed." "the line for full marks"
    lacks "$summary" "Start here" "a Start here at full marks"
    lacks "$log" "::error" "an annotation at full marks" ;;
esac
echo "PASSED: self-check $name"
