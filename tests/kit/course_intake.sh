#!/usr/bin/env bash
# grade-all where the class folder comes from a course's other systems (label `kit`): a Canvas
# resubmission, competing files, the LMS column per assignment, macOS zip debris, cells that
# look like formulas, each report's own time, uploaded archives. Each case grades a small class
# on one exercise (flops: quick to build and check).
# usage: course_intake.sh GRADER KIT_DIR CASE
set -u
GRADER=$1
KIT_DIR=$2
name=$3
# shellcheck source=tests/kit/intake_helpers.sh
. "$(dirname "$0")/intake_helpers.sh"
intake_class "Week 1: which order to multiply"
row() { grep -qxF "$1" "$grades/gradebook.csv" || fail "no gradebook row '$1'; the gradebook:
$(cat "$grades/gradebook.csv")"; }

case "$name" in
  canvas-resubmission)
    # Kim sent the stub, then her work: Canvas named the second upload flops-1.cpp.
    cp "$STUB/flops/flops.cpp" "$class/kimlee_2001_500_flops.cpp"
    cp "$S/flops/flops.cpp" "$class/kimlee_LATE_2001_900_flops-1.cpp"
    # Grace's flops.cpp is on time; a late upload of hers that nothing is graded from (a file
    # of notes, or a name that only reads as hers) does not make her late.
    cp "$S/flops/flops.cpp" "$class/hoppergrace_2002_500_flops.cpp"
    printf 'notes\n' >"$class/hoppergrace_LATE_2002_950_notes.txt"
    grade
    row 'hoppergrace_2002,,,,10,10,10,10,no,0,ok,ok,not in the roster'
    # Canvas named the second upload _LATE_: late, one day (no time known), no policy: no penalty.
    row "kimlee_2001,,,,10,10,10,10,yes,1,ok,ok,\"not in the roster; late: Canvas's _LATE_ flag, no time known, counted as 1 day, no penalty; flops-1.cpp (Canvas submission 900) is graded; older uploads of flops.cpp left out: flops.cpp (submission 500)\""
    [ "$(field "$grades/reports/kimlee_2001.json" 'j["exercises"][0]["source"]')" = flops-1.cpp ] ||
      fail "kim's report does not name flops-1.cpp"
    field "$grades/reports/kimlee_2001.json" '" ".join(j["notices"])' |
      grep -qF "flops-1.cpp (Canvas submission 900) is graded; older uploads of flops.cpp left out: flops.cpp (submission 500)" ||
      fail "kim's report does not say which upload was graded" ;;

  ambiguous)
    # erin: two folders each with a flops.cpp; dave: no flops.cpp at all.
    mkdir -p "$class/erin/a" "$class/erin/b" "$class/dave"
    cp "$S/flops/flops.cpp" "$class/erin/a/"
    cp "$S/flops/flops.cpp" "$class/erin/b/"
    echo "nothing here" >"$class/dave/README.txt"
    grade
    row 'erin,,,,0,0,0,10,no,0,ambiguous,ambiguous,"not in the roster; several files, none graded: flops (a/flops.cpp, b/flops.cpp)"'
    row 'dave,,,,0,0,0,10,no,0,missing_files,missing_files,not in the roster; missing: flops'
    # The checks say it too: ambiguous (the contract's status), a missing file's reason.
    [ "$(field "$grades/reports/erin.json" '{c["status"] for c in j["exercises"][0]["checks"]}')" = "{'ambiguous'}" ] ||
      fail "erin's checks are not ambiguous"
    [ "$(field "$grades/reports/dave.json" '{(c["status"], c.get("reason")) for c in j["exercises"][0]["checks"]}')" = \
      "{('build_error', 'missing_files')}" ] || fail "dave's checks do not record missing_files"
    # `grade` says the same on the terminal: not "does not build".
    "$GRADER" "$class/erin" --assignment "$work/week1.json" >"$out" 2>&1
    grep -qF "flops  0/10  (several files, none graded)" "$out" || fail "the terminal does not say several files"
    grep -q "^  AMBIG  flops/by-hand" "$out" || fail "the terminal's checks are not AMBIG"
    "$GRADER" "$class/dave" --assignment "$work/week1.json" >"$out" 2>&1
    grep -qF "flops  0/10  (no file)" "$out" || fail "the terminal does not say no file" ;;

  lms-column)
    cp -r "$S" "$class/ada"
    printf 'folder,id,name,email\nada,1001,Ada,ada@example.org\n' >"$work/roster.csv"
    grade --roster "$work/roster.csv"
    [ "$(head -n 1 "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,week1' ] ||
      fail "canvas.csv's column is not the assignment's name: $(head -n 1 "$grades/canvas.csv")"
    [ "$(head -n 1 "$grades/moodle.csv")" = 'First name,Last name,ID number,Email address,Week 1: which order to multiply' ] ||
      fail "moodle.csv's column is not the assignment's title: $(head -n 1 "$grades/moodle.csv")"
    # --lms-column still decides when given.
    grade --roster "$work/roster.csv" --lms-column "Homework 1"
    [ "$(head -n 1 "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,Homework 1' ] ||
      fail "--lms-column was not used: $(head -n 1 "$grades/canvas.csv")" ;;

  macosx)
    # Unzipping the class's download on a Mac leaves __MACOSX; a hidden folder may be there too.
    cp -r "$S" "$class/ada"
    mkdir -p "$class/__MACOSX/ada/flops" "$class/.cache/flops"
    printf 'junk\n' >"$class/__MACOSX/ada/flops/._flops.cpp"
    cp "$S/flops/flops.cpp" "$class/.cache/flops/"
    ln -s "$class/ada" "$class/linked"  # a link to a folder is no submission either
    grade
    grep -qF "grade-all: 1 submissions, 1 to grade" "$out" || fail "not exactly one submission graded"
    [ "$(wc -l <"$grades/gradebook.csv")" -eq 2 ] || fail "the gradebook is not one row:
$(cat "$grades/gradebook.csv")" ;;

  csv-injection)
    # A file named with terminal escapes (red team): grade-all's lines show them escaped.
    printf x >"$class/$(printf '\033]0;pwned\007\033[2Jnotes.txt')"
    cp -r "$S" "$class/=1+2"
    mkdir -p "$class/@bob/=HYPERLINK(0)"
    cp "$S/flops/flops.cpp" "$class/@bob/=HYPERLINK(0)/"
    grade
    row "'=1+2,,,,10,10,10,10,no,0,ok,ok,not in the roster"
    row "'@bob,,,,10,10,10,10,no,0,ok,ok,not in the roster"
    if grep -q "$(printf '\033')" "$out"; then fail "an escape character reached the terminal"; fi
    grep -qF 'not graded: \x1b]0;pwned\x07\x1b[2Jnotes.txt' "$out" || fail "the escaped name is not shown"
    # The two identical files: in the similarity report, the folders and the file as text.
    grep -qF "flops,1," "$grades/similarity.csv" || fail "no similarity group: $(cat "$grades/similarity.csv")"
    python3 - "$grades" <<'EOF' || fail "a cell starts like a formula"
import csv, sys
for name in ("gradebook.csv", "similarity.csv"):
    for row in csv.reader(open(sys.argv[1] + "/" + name, newline="")):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                sys.exit(name + ": " + repr(cell))
EOF
    ;;

  seconds)
    # Each report's time is its own builds' and checks', not the batch's.
    cp -r "$S" "$class/ada"
    mkdir "$class/bob"
    cp "$STUB/flops/flops.cpp" "$class/bob/"
    grade
    for who in ada bob; do
      field "$grades/reports/$who.json" \
        'abs(j["seconds"] - sum(e["build"]["seconds"] + sum(c["seconds"] for c in e["checks"]) for e in j["exercises"])) < 1e-6' |
        grep -qx True || fail "$who's seconds are not its own: $(field "$grades/reports/$who.json" 'j["seconds"]')"
    done ;;

  grade-archive)
    # ./kit grade (and so the Gradescope bundle) on a folder holding only flops.zip: unpacked by
    # grade-all's code, graded, and the report says so and keeps the folder's name.
    mkdir -p "$work/mine"
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops/flops.cpp"); z.close()' \
      "$work/mine/flops.zip" "$S/flops/flops.cpp" || fail "cannot make the zip"
    "$GRADER" --kit "$KIT_DIR" grade "$work/mine" --only flops --json "$work/r.json" >"$out" 2>&1 ||
      fail "grade of a folder holding flops.zip exited $?"
    [ "$(field "$work/r.json" '"%g/%g" % (j["score"], j["max_score"])')" = 10/10 ] || fail "flops.zip was not graded"
    [ "$(field "$work/r.json" 'j["submission"]')" = "$work/mine" ] || fail "the report does not name the folder"
    field "$work/r.json" '" ".join(j["notices"])' | grep -q "flops.zip was unpacked" || fail "no notice of the unpacking"
    [ "$(ls "$work/mine")" = flops.zip ] || fail "the student's folder was changed" ;;

  archives)
    # kim: a loose kim.zip in the class folder; lee: a folder holding only flops.tar.gz; max: a
    # zip bomb; zed: an entry climbing out of the folder (zip-slip); ivy: a link in a tar; Ann:
    # a zip uploaded to Canvas.
    mkdir -p "$class/lee" "$class/max" "$class/zed" "$class/ivy"
    python3 - "$class" "$S/flops/flops.cpp" <<'EOF' || fail "cannot make the archives"
import io, sys, tarfile, zipfile
cls, flops = sys.argv[1], open(sys.argv[2], "rb").read()
with zipfile.ZipFile(cls + "/kim.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("kim/flops/flops.cpp", flops)
with zipfile.ZipFile(cls + "/leeann_3001_700_work.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("work/flops.cpp", flops)
with tarfile.open(cls + "/lee/flops.tar.gz", "w:gz") as t:
    info = tarfile.TarInfo("flops.cpp"); info.size = len(flops)
    t.addfile(info, io.BytesIO(flops))
with zipfile.ZipFile(cls + "/max/bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("flops.cpp", flops)
    z.writestr("padding.bin", bytes(100 << 20))
with zipfile.ZipFile(cls + "/zed/slip.zip", "w") as z:
    z.writestr("../../flops.cpp", flops)
with tarfile.open(cls + "/ivy/link.tar.gz", "w:gz") as t:
    info = tarfile.TarInfo("flops.cpp"); info.type = tarfile.SYMTYPE
    info.linkname = "../../../solutions/flops/flops.cpp"
    t.addfile(info)
EOF
    before=$(cd "$class" && find . | sort)
    grade
    row 'kim,,,,10,10,10,10,no,0,ok,ok,not in the roster; kim.zip was unpacked (1 file); its files are graded as kim.zip/...'
    row 'lee,,,,10,10,10,10,no,0,ok,ok,not in the roster; flops.tar.gz was unpacked (1 file); its files are graded as flops.tar.gz/...'
    row 'leeann_3001,,,,10,10,10,10,no,0,ok,ok,not in the roster; work.zip was unpacked (1 file); its files are graded as work.zip/...'
    row 'max,,,,0,0,0,10,no,0,missing_files,missing_files,not in the roster; missing: flops; bomb.zip was not unpacked: it unpacks to more than 64 MiB (a zip bomb?); nothing in it is graded'
    row "zed,,,,0,0,0,10,no,0,missing_files,missing_files,not in the roster; missing: flops; slip.zip was not unpacked: the entry ../../flops.cpp points outside the archive's folder; nothing in it is graded"
    row 'ivy,,,,0,0,0,10,no,0,missing_files,missing_files,not in the roster; missing: flops; link.tar.gz was not unpacked: the entry flops.cpp is a link (links are not unpacked); nothing in it is graded'
    # Nothing was unpacked into the class folder, nor beside it.
    [ "$(cd "$class" && find . | sort)" = "$before" ] || fail "the class folder changed"
    if [ -e "$work/flops.cpp" ] || [ -e "$class/flops.cpp" ]; then fail "the zip-slip entry escaped"; fi
    # A rerun unpacks again and grades nothing again.
    grade
    grep -qF "grade-all: 6 submissions, 0 to grade" "$out" || fail "the rerun graded again" ;;

  canvas-roster)
    # Canvas's gradebook export as the roster, as it comes (the Points Possible row; ID is
    # Canvas's user id, SIS User ID the student's); Canvas download files matched by Canvas id.
    cp "$S/flops/flops.cpp" "$class/lovelaceada_1001_500_flops.cpp"
    cp "$STUB/flops/flops.cpp" "$class/turingalan_1002_501_flops.cpp"
    cat >"$work/export.csv" <<'EOF'
Student,ID,SIS User ID,SIS Login ID,Section,Week 1 (4321)
    Points Possible,,,,,10.00
"Lovelace, Ada",1001,S-17,ada,Section 1,
"Turing, Alan",1002,S-18,alan,Section 1,
EOF
    grade --roster "$work/export.csv"
    [ "$(cat "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,week1
"Lovelace, Ada",1001,S-17,ada,Section 1,10
"Turing, Alan",1002,S-18,alan,Section 1,0' ] || fail "canvas.csv:
$(cat "$grades/canvas.csv")"
    row 'lovelaceada_1001,S-17,"Lovelace, Ada",,10,10,10,10,no,0,ok,ok,' ;;

  several-folders)
    # alice's first folder (the stub, older) and her second (her work, newer): the exports take
    # the newer; bob's roster entry pins his first folder though the second is newer.
    mkdir -p "$class/alice" "$class/alice_v2" "$class/bob" "$class/bob_v2"
    cp "$STUB/flops/flops.cpp" "$class/alice/"
    cp "$S/flops/flops.cpp" "$class/alice_v2/"
    cp "$S/flops/flops.cpp" "$class/bob/"
    cp "$STUB/flops/flops.cpp" "$class/bob_v2/"
    touch -d '2026-01-01 10:00' "$class/alice/flops.cpp" "$class/bob/flops.cpp"
    touch -d '2026-01-02 10:00' "$class/alice_v2/flops.cpp" "$class/bob_v2/flops.cpp"
    printf 'folder,id,name,pin\nalice*,1001,Alice,\nbob*,1002,Bob,bob\n' >"$work/roster.csv"
    grade --roster "$work/roster.csv"
    [ "$(cat "$grades/scores.csv")" = 'id,score
1001,10
1002,10' ] || fail "scores.csv:
$(cat "$grades/scores.csv")"
    row 'alice_v2,1001,Alice,,10,10,10,10,no,0,ok,ok,"one of 2 folders of 1001, the one in the exports (the newest files)"'
    row 'alice,1001,Alice,,0,0,0,10,no,0,partial,partial,one of 2 folders of 1001; the exports take alice_v2'
    row 'bob,1002,Bob,,10,10,10,10,no,0,ok,ok,"one of 2 folders of 1002, the one in the exports (pinned by the roster)"'
    grep -qF "several folders: 1001: alice_v2 alice (the exports take alice_v2: the newest files)" "$out" ||
      fail "the summary does not say which folder was taken" ;;

  international)
    # Names as a real class writes them (issue 32), graded in the C locale (the grader sets
    # none): Canvas files of García and 李明, _late_ in lower case, a zip named 作业1.zip with
    # a notes_é.txt inside, and olga.zip, one of whose names is in a legacy code page.
    cp "$S/flops/flops.cpp" "$class/garcíajosé_101007_5551234_flops.cpp"
    cp "$S/flops/flops.cpp" "$class/李明_1003_600_flops.cpp"
    cp "$S/flops/flops.cpp" "$class/kimlee_late_2001_900_flops.cpp"
    python3 - "$class" "$S/flops/flops.cpp" <<'EOF' || fail "cannot make the zips"
import sys, zipfile
cls, flops = sys.argv[1], open(sys.argv[2], "rb").read()
with zipfile.ZipFile(cls + "/作业1.zip", "w") as z:  # UTF-8 names, flagged as such
    z.writestr("作业1/flops.cpp", flops)
    z.writestr("notes_é.txt", "é")
with zipfile.ZipFile(cls + "/olga.zip", "w") as z:
    z.writestr("flops/flops.cpp", flops)
    z.writestr("notes_#.txt", "latin-1")
# é as Latin-1's one byte, unflagged: the name a legacy archiver writes.
data = open(cls + "/olga.zip", "rb").read().replace(b"notes_#.txt", b"notes_\xe9.txt")
open(cls + "/olga.zip", "wb").write(data)
EOF
    LC_ALL=C LANG=C grade
    row 'garcíajosé_101007,,,,10,10,10,10,no,0,ok,ok,not in the roster'
    row '李明_1003,,,,10,10,10,10,no,0,ok,ok,not in the roster'
    row "kimlee_2001,,,,10,10,10,10,yes,1,ok,ok,\"not in the roster; late: Canvas's _LATE_ flag, no time known, counted as 1 day, no penalty\""
    row '作业1,,,,10,10,10,10,no,0,ok,ok,not in the roster; 作业1.zip was unpacked (2 files); its files are graded as 作业1.zip/...'
    row 'olga,,,,10,10,10,10,no,0,ok,ok,not in the roster; olga.zip was unpacked (1 file); its files are graded as olga.zip/...; olga.zip: an entry named notes_\xe9.txt (not UTF-8: a legacy code page?) was left out'
    if grep -qF "neither a folder nor a Canvas download file" "$out"; then fail "a Canvas file was taken for a stray one"; fi ;;

  long-names)
    # No upload stops the class: a folder named with 255 bytes, a loose zip whose submission
    # name is 251 bytes, a folder with a control character and a byte that is not UTF-8. Each
    # is graded, its reports under a shortened name its notes give; ada is graded as ever.
    long=$(printf 'x%.0s' $(seq 1 255))
    mid=$(printf 'z%.0s' $(seq 1 251))
    odd=$(printf 'odd\001\377name')
    # A name that ends like a shortened one gets a name of its own: no folder can take over
    # another's report file.
    like=ada~0123456789abcdef
    for who in ada "$long" "$odd" "$like"; do mkdir -p "$class/$who"; cp "$S/flops/flops.cpp" "$class/$who/"; done
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops.cpp"); z.close()' \
      "$class/$mid.zip" "$S/flops/flops.cpp" || fail "cannot make the zip"
    grade
    row 'ada,,,,10,10,10,10,no,0,ok,ok,not in the roster'
    python3 - "$grades" "$long" "$mid" <<'EOF' || fail "the odd names' rows or reports"
import csv, os, sys
grades, long, mid = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.DictReader(open(grades + "/gradebook.csv", encoding="utf-8", errors="surrogateescape", newline="")))
assert len(rows) == 5, [r["submission"] for r in rows]
for r in rows:
    assert (r["status"], r["total"]) == ("ok", "10"), r
    if r["submission"] == "ada":
        continue
    note = r["notes"]
    assert "its reports are " in note, note
    stem = note.split("its reports are ")[1].split(".json and .html")[0]
    assert len(stem.encode()) < 130 and "~" in stem and stem != r["submission"], stem
    for ext in (".json", ".html"):
        assert os.path.isfile(grades + "/reports/" + stem + ext), stem + ext
for name in (long, mid):
    assert any(r["submission"] == name for r in rows), name
EOF
    grep -qF "grade-all: 5 submissions, 5 to grade" "$out" || fail "not every submission was graded"
    grep -qF "ada~0123456789abcdef,,,,10,10,10,10,no,0,ok,ok,not in the roster; the submission's name ends like a shortened report name" \
      "$grades/gradebook.csv" || fail "the name like a shortened one is not said"
    # A rerun finds every report again (nothing to grade), under the same names.
    grade
    grep -qF "grade-all: 5 submissions, 0 to grade" "$out" || fail "the rerun did not find the reports" ;;

  canvas-id)
    # A Canvas id joins only what is really that student's. Ada (Canvas id 1002) has her Canvas
    # download; mallory_1002.zip (a stub) and a folder eve_1002 end in her id beside it and are
    # not joined. Zoe (1009) has no Canvas download, and two folders made by hand claim her id:
    # ambiguous, no grade exported. Alan (1011) has one such folder: joined, as before.
    cp "$S/flops/flops.cpp" "$class/lovelaceada_1002_700_flops.cpp"
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops.cpp"); z.close()' \
      "$class/mallory_1002.zip" "$STUB/flops/flops.cpp" || fail "cannot make the zip"
    mkdir -p "$class/eve_1002" "$class/aaa_1009" "$class/bbb_1009" "$class/turingalan_1011"
    cp "$STUB/flops/flops.cpp" "$class/eve_1002/"
    cp "$S/flops/flops.cpp" "$class/aaa_1009/"
    cp "$STUB/flops/flops.cpp" "$class/bbb_1009/"
    cp "$S/flops/flops.cpp" "$class/turingalan_1011/"
    cat >"$work/export.csv" <<'EOF'
Student,ID,SIS User ID,SIS Login ID,Section,Week 1 (4321)
    Points Possible,,,,,10.00
"Lovelace, Ada",1002,S-2,ada,S1,
"Zed, Zoe",1009,S-9,zoe,S1,
"Turing, Alan",1011,S-11,alan,S1,
EOF
    grade --roster "$work/export.csv"
    [ "$(cat "$grades/canvas.csv")" = 'Student,ID,SIS User ID,SIS Login ID,Section,week1
"Lovelace, Ada",1002,S-2,ada,S1,10
"Zed, Zoe",1009,S-9,zoe,S1,
"Turing, Alan",1011,S-11,alan,S1,10' ] || fail "canvas.csv:
$(cat "$grades/canvas.csv")"
    row 'lovelaceada_1002,S-2,"Lovelace, Ada",,10,10,10,10,no,0,ok,ok,'
    row "mallory_1002,,,,0,0,0,10,no,0,partial,partial,\"not in the roster; its name ends in Canvas id 1002 (S-2), but a loose archive's name is the uploader's choice: not joined; mallory_1002.zip was unpacked (1 file); its files are graded as mallory_1002.zip/...\""
    row 'eve_1002,,,,0,0,0,10,no,0,partial,partial,"not in the roster; its name ends in Canvas id 1002 (S-2), whose own Canvas download is here: not joined"'
    row 'aaa_1009,S-9,"Zed, Zoe",,10,10,,10,no,0,ambiguous,ok,ambiguous: aaa_1009 bbb_1009 all claim Canvas id 1009; none goes to the exports'
    row 'bbb_1009,S-9,"Zed, Zoe",,0,0,,10,no,0,ambiguous,partial,ambiguous: aaa_1009 bbb_1009 all claim Canvas id 1009; none goes to the exports'
    row 'turingalan_1011,S-11,"Turing, Alan",,10,10,10,10,no,0,ok,ok,'
    # Per-student seeds follow the same join: mallory_1002 and eve_1002 are graded with seeds of
    # their own, not with Ada's.
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); a["seeds"] = "per-student"; json.dump(a, open(sys.argv[1], "w"))' \
      "$work/week1.json" || fail "cannot make the assignment per-student"
    grade --roster "$work/export.csv"
    for who in lovelaceada_1002:S-2 mallory_1002:mallory_1002 eve_1002:eve_1002 turingalan_1011:S-11; do
      [ "$(field "$grades/reports/${who%%:*}.json" 'j["student"]')" = "${who#*:}" ] ||
        fail "${who%%:*} was graded with the seeds of $(field "$grades/reports/${who%%:*}.json" 'j["student"]')"
    done ;;

  decisions)
    # Every decision said in the gradebook: lee's loose flops.cpp (the stub) is graded before
    # the one in work.zip; ray uploaded a .rar, sam.7z lies loose in the class folder; dan's
    # file is flops_draft.cpp.
    mkdir -p "$class/lee" "$class/ray" "$class/dan"
    cp "$STUB/flops/flops.cpp" "$class/lee/"
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops/flops.cpp"); z.close()' \
      "$class/lee/work.zip" "$S/flops/flops.cpp" || fail "cannot make the zip"
    printf 'Rar!\032\007\000' >"$class/ray/hw.rar"
    printf '7z\274\257\047\034' >"$class/sam.7z"
    cp "$S/flops/flops.cpp" "$class/dan/flops_draft.cpp"
    grade
    row 'lee,,,,0,0,0,10,no,0,partial,partial,"not in the roster; work.zip was unpacked (1 file); its files are graded as work.zip/...; flops: flops.cpp is graded; also named like it, not graded: work.zip/flops/flops.cpp"'
    row 'ray,,,,0,0,0,10,no,0,missing_files,missing_files,"not in the roster; missing: flops; hw.rar was not unpacked: the grader unpacks .zip, .tar.gz and .tgz, not .rar; nothing in it is graded (ask for a .zip or the files)"'
    row 'sam,,,,0,0,0,10,no,0,missing_files,missing_files,"not in the roster; missing: flops; sam.7z was not unpacked: the grader unpacks .zip, .tar.gz and .tgz, not .7z; nothing in it is graded (ask for a .zip or the files)"'
    row 'dan,,,,0,0,0,10,no,0,missing_files,missing_files,"not in the roster; missing: flops; flops: no flops.cpp, but flops_draft.cpp looks like it (not graded: the file must be named flops.cpp)"'
    # A rerun after dan.zip appeared beside dan's folder: dan's report is kept (his files did
    # not change), and its notes are this run's.
    cp "$class/lee/work.zip" "$class/dan.zip"
    grade
    grep -qF "grade-all: 4 submissions, 0 to grade" "$out" || fail "the rerun graded again"
    row 'dan,,,,0,0,0,10,no,0,missing_files,missing_files,"not in the roster; missing: flops; dan.zip, beside this submission in the class folder, is not graded (a loose archive of the same name); flops: no flops.cpp, but flops_draft.cpp looks like it (not graded: the file must be named flops.cpp)"' ;;

  escapes)
    # Names a student controls reach the terminal escaped in every intake message: a folder
    # with two flops.cpp ("several files could be"), and a loose zip of the same name beside it
    # (its note, "beside this submission"), both named with escape sequences that would retitle the
    # window and clear the screen.
    evil=$(printf 'evil\033]0;pwned\007\033[2J')
    mkdir -p "$class/$evil/a" "$class/$evil/b"
    cp "$S/flops/flops.cpp" "$class/$evil/a/"
    cp "$S/flops/flops.cpp" "$class/$evil/b/"
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops.cpp"); z.close()' \
      "$class/$evil.zip" "$S/flops/flops.cpp" || fail "cannot make the zip"
    printf x >"$class/$(printf 'notes\ngrade-all: all 40 students passed\2332J\377.txt')"
    mkdir -p "$class/$(printf 'forged\nname\233')"
    cp "$S/flops/flops.cpp" "$class/$(printf 'forged\nname\233')/"
    grade
    if grep -q "$(printf '\033')" "$out"; then fail "an escape character reached the terminal"; fi
    grep -qF 'evil\x1b]0;pwned\x07\x1b[2J: several files could be flops.cpp' "$out" ||
      fail "the ambiguous folder is not named, escaped"
    grep -qF 'grade-all: evil\x1b]0;pwned\x07\x1b[2J: evil\x1b]0;pwned\x07\x1b[2J.zip, beside this submission in the class folder, is not graded' "$out" ||
      fail "the loose zip is not named, escaped"
    # A name with a newline (a forged line of grade-all's own), an 8-bit CSI byte (0x9B, which
    # some terminals obey) and a byte that is not UTF-8: one line, every such byte shown as text.
    grep -qF 'not graded: notes\x0agrade-all: all 40 students passed\x9b2J\xff.txt' "$out" ||
      fail "the file name with a newline is not shown on one line, escaped"
    if grep -q '^grade-all: all 40 students passed' "$out"; then fail "a name forged a line of grade-all"; fi
    if LC_ALL=C grep -q "$(printf '[\233\377]')" "$out"; then fail "a raw 0x9B or 0xFF byte reached the terminal"; fi
    # The gradebook says so too, and its cells carry no control character of the names.
    grep -qF '.zip, beside this submission in the class folder, is not graded (a loose archive of the same name)' \
      "$grades/gradebook.csv" || fail "the gradebook does not say the zip was not graded"
    if LC_ALL=C grep -q "$(printf '[\033\007\233\377]')" "$grades/gradebook.csv"; then
      fail "a control byte of a name reached gradebook.csv"
    fi
    grep -qF 'evil\x1b]0;pwned\x07\x1b[2J' "$grades/gradebook.csv" || fail "the gradebook does not show the name escaped"
    grep -q '^forged\\x0aname\\x9b,' "$grades/gradebook.csv" || fail "the folder named with a newline is not one escaped cell" ;;

  *) echo "unknown test $name"; exit 2 ;;
esac
echo ok
