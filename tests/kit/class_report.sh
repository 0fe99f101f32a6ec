#!/usr/bin/env bash
# The class report and the students' pages (label `kit`): a small class graded with grade-all
# (flops alone, quick to build and check) whose planted mistake, the two orders swapped in
# attention_flops, is made by three students; one more mistake by one student; a stub in a
# folder named like markup, a roster name that is a script tag; a build error, a missing file,
# competing files, a late submission. class-report.html must show those counts, keep every
# name as text (no element or attribute comes from a student), and link only pages that exist;
# `grade --html` writes one student's page, folded as the terminal folds it. The class is left in
# OUT for the browser test (tests/browser/test_class_report.py), which looks at the same pages.
# usage: class_report.sh GRADER KIT_DIR OUT
set -u
GRADER=$1
KIT_DIR=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
out=$work/out.log
: >"$out"
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }
export NO_COLOR=1
S=$KIT_DIR/solutions

cat >"$work/week1.json" <<'JSON'
{ "title": "Week 1 <flops>", "exercises": [ { "name": "flops", "points": 10 } ],
  "due": "2026-03-06T23:59:00Z", "late": { "per_day": 10 } }
JSON
class=$work/class
hostile='<img src=x onerror=alert(1)>'
for s in ada bob cy dee eve gus; do mkdir -p "$class/$s"; cp "$S/flops/flops.cpp" "$class/$s/"; done
# The planted mistake, three times: Left and Right swapped.
for s in bob cy dee; do
  sed -i 's/if (order == Order::Left) {/if (order == Order::Right) {/' "$class/$s/flops.cpp"
done
grep -q 'Order::Right) {' "$class/bob/flops.cpp" || fail "the planted edit did not apply"
# Another mistake, once: crossover_T rounded down.
sed -i 's|return 2 \* d_phi \* d_v / (d_phi + d_v) + 1;|return 2 * d_phi * d_v / (d_phi + d_v);|' "$class/eve/flops.cpp"
echo 'int broken = ;' >>"$class/gus/flops.cpp"
mkdir -p "$class/$hostile" "$class/hal" "$class/ivy/a" "$class/ivy/b"
cp "$KIT_DIR/exercises/flops/flops.cpp" "$class/$hostile/"
echo "no code" >"$class/hal/README.txt"
cp "$S/flops/flops.cpp" "$class/ivy/a/"
cp "$S/flops/flops.cpp" "$class/ivy/b/"
# eve comes first, so that the page must sort the mistakes to put the planted one first. Every
# folder is a roster student's (with a roster, a folder no entry names is not counted).
printf '%s\n' 'folder,id,name,submitted' 'eve,5,Eve,' 'ada,1,Ada,2026-03-08T10:00:00Z' \
  'bob,2,<script>alert(1)</script>,' 'cy,3,Cy,' 'dee,4,Dee,' 'gus,6,Gus,' 'hal,7,Hal,' 'ivy,8,Ivy,' \
  "$hostile,9,Mal," >"$work/roster.csv"

grades=$work/grades
"$GRADER" --kit "$KIT_DIR" grade-all "$class" --out "$grades" --roster "$work/roster.csv" \
  --assignment "$work/week1.json" >"$out" 2>&1 || fail "grade-all exited $?"
grep -q "wrote .*class-report.html" "$out" || fail "grade-all does not say it wrote class-report.html"
# One student's page by grade --html, beside the class.
"$GRADER" --kit "$KIT_DIR" grade "$class/bob" --assignment "$work/week1.json" --html "$work/bob.html" \
  --json "$work/bob.json" >>"$out" 2>&1
[ $? -eq 1 ] || fail "grade --html on bob's planted mistake did not exit 1"

# The pages, read with Python's own HTML parser: the elements and attributes there are, the
# links, the counts.
python3 - "$grades" "$work" "$hostile" <<'PY' >>"$out" 2>&1 || fail "the class report (see above)"
import html.parser, json, os, sys, urllib.parse

grades, work, hostile = sys.argv[1:4]
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)

class Page(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.tags, self.links, self.ids, self.text = [], [], set(), []
        self.rows, self.row = [], None
        self.feed(open(path, encoding="utf-8").read())
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "tr":
            self.row = {"attrs": a, "cells": []}
            self.rows.append(self.row)
        if tag == "td" and self.row is not None:
            self.row["cells"].append("")
    def handle_data(self, data):
        self.text.append(data)
        if self.row is not None and self.row["cells"]:
            self.row["cells"][-1] += data

def safe(page, name):
    for tag, attrs in page.tags:
        check(tag not in ("script", "img", "iframe", "object", "embed", "form", "base"),
              f"{name}: a <{tag}> element")
        for key in attrs:
            check(not key.startswith("on"), f"{name}: an event attribute {key} on <{tag}>")

report = Page(os.path.join(grades, "class-report.html"))
safe(report, "class-report.html")
text = "".join(report.text)
check(hostile in text, "the hostile folder's name is not shown as text")
check("<script>alert(1)</script>" in text, "bob's roster name is not shown as text")
check("Week 1 <flops>" in text, "the assignment's title is not shown as text")
# Counts: 9 submissions; the planted mistake first, by 3 students; eve's mistakes by 1.
check(">9</span> submission(s) graded" in open(os.path.join(grades, "class-report.html")).read(),
      "the report does not count 9 submissions")
mistakes = [r for r in report.rows if r["attrs"].get("class") == "mistake"]
check(len(mistakes) >= 2, f"{len(mistakes)} mistake rows")
if mistakes:
    top = mistakes[0]
    check(top["attrs"].get("data-students") == "3", f"the top mistake has {top['attrs'].get('data-students')} students")
    check("two orders are swapped" in top["cells"][2], f"the top mistake is not the planted one: {top['cells'][2]}")
    check(all(int(r["attrs"]["data-students"]) == 1 for r in mistakes[1:]),
          "another mistake than the planted one has more than one student")
def section_count(section):
    html_text = open(os.path.join(grades, "class-report.html"), encoding="utf-8").read()
    start = html_text.find(f'<section id="{section}">')
    check(start >= 0, f"no section {section}")
    head = html_text[start:html_text.find("</h2>", start)]
    return head[head.find('class="count">') + len('class="count">'):].split("<")[0]
for section, want in (("build-errors", "1"), ("missing", "1"), ("ambiguous", "1"), ("late", "1")):
    check(section_count(section) == want, f"section {section} counts {section_count(section)}, not {want}")
# Every link: inside the grades folder, to a page that exists, or to an id of this page.
pages = set()
for href in report.links:
    if href.startswith("#"):
        check(href[1:] in report.ids, f"link {href} names no id")
        continue
    check("://" not in href and not href.startswith("/") and ":" not in href.split("/")[0],
          f"link {href} is not relative")
    target = os.path.normpath(os.path.join(grades, urllib.parse.unquote(href)))
    check(target.startswith(os.path.join(grades, "reports") + os.sep), f"link {href} leaves reports/")
    check(os.path.isfile(target), f"link {href}: no file {target}")
    pages.add(target)
names = {os.path.basename(p)[:-len(".html")] for p in pages}
check(names == {"ada", "bob", "cy", "dee", "eve", "gus", "hal", "ivy", hostile}, f"links to {sorted(names)}")
# Each student's page is safe too, and opens its failing checks.
# grade-all's pages are read away from the kit: a hand-out is named, never a link.
for p in pages:
    page = Page(p)
    safe(page, os.path.basename(p))
    check(not any(h.endswith("README.md") for h in page.links), f"{os.path.basename(p)} links a hand-out")
bob = Page(os.path.join(work, "bob.html"))
safe(bob, "bob.html")
# grade --html's page links each hand-out from where the page is written, to the kit's file.
handouts = [h for h in bob.links if h.endswith("README.md")]
check(handouts, "bob.html links no hand-out")
for h in handouts:
    target = os.path.normpath(os.path.join(work, urllib.parse.unquote(h)))
    check(os.path.isfile(target) and "/exercises/" in target, f"bob.html: hand-out link {h} leads to no hand-out")
native = json.load(open(os.path.join(work, "bob.json")))
failing = sum(c["status"] != "passed" for e in native["exercises"] for c in e["checks"])
opened = [a for t, a in bob.tags if t == "details" and "check" in a.get("class", "") and "open" in a]
closed = [a for t, a in bob.tags if t == "details" and "check" in a.get("class", "") and "open" not in a]
# Folded as the terminal folds (report_layout.hpp): the first check of a likely mistake is open,
# the others that share it are folded and point back to it; nothing else that failed is folded.
folded = [a for a in closed if a.get("data-status") != "passed"]
pointers = "".join(bob.text).count("(likely mistake: as ")
check(failing > 0 and len(opened) >= 1, f"bob's page opens {len(opened)} checks; {failing} did not pass")
check(len(opened) + len(folded) == failing, f"bob's page has {len(opened) + len(folded)} failing checks, not {failing}")
check(len(folded) == pointers, f"{len(folded)} failing checks folded, {pointers} point to the one that explains them")
check(all(a.get("data-status") != "passed" for a in opened), "a passed check is open")
for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY

# A starter that runs (memory's write and read) left as handed out, by ann as it is and by ben
# with a comment of his own, is work not done: the class report counts no likely mistake for
# it, and says so. cat's file differs by one statement and still makes the starter's slips:
# those are mistakes made, counted for cat alone.
starters=$work/starters
stub=$KIT_DIR/exercises/memory/memory.cpp
mkdir -p "$starters/ann" "$starters/ben" "$starters/cat"
cp "$stub" "$starters/ann/"
{ echo '// my attempt: not started yet'; cat "$stub"; } >"$starters/ben/memory.cpp"
sed 's|  return S \* q;|  const Vector out = S * q;\n  return out;|' "$stub" >"$starters/cat/memory.cpp"
grep -q 'const Vector out' "$starters/cat/memory.cpp" || fail "the edit of cat's starter did not apply"
printf '%s\n' '{ "title": "Memory", "exercises": [ { "name": "memory", "points": 10 } ] }' \
  >"$work/memory.json"
"$GRADER" --kit "$KIT_DIR" grade-all "$starters" --out "$work/starter-grades" \
  --assignment "$work/memory.json" >>"$out" 2>&1 || fail "grade-all of the starters exited $?"
python3 - "$work/starter-grades/class-report.html" <<'PY' >>"$out" 2>&1 || fail "the starters' class report (see above)"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
rows = re.findall(r'<tr class="mistake" data-students="(\d+)">(.*?)</tr>', page, re.S)
problems = []
if not rows:
    problems.append("cat's starter slips are not counted as likely mistakes")
for students, cells in rows:
    who = re.findall(r'class="report"[^>]*>([^<]*)</a>', cells)
    if students != "1" or who != ["cat"]:
        problems.append(f"a likely mistake counted for {who} ({students} students), not for cat alone")
if "Not counted: 2 memory files left as handed out" not in page:
    problems.append("the page does not say that two memory files were left as handed out")
for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY
echo ok
