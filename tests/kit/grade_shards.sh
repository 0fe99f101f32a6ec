#!/usr/bin/env bash
# Grading a class on several machines (label `kit`): grade-all --shard K/N splits the class by
# submission name, and merge-grades joins the parts into the gradebook and exports an unsharded
# run writes, byte for byte (merge); the GitHub Actions workflow and the Slurm script that ship
# under grader/tools/ run exactly that (ci-files).
# usage: grade_shards.sh GRADER KIT_DIR CASE
set -u
GRADER=$1
KIT_DIR=$2
name=$3
work=$(mktemp -d)
chmod 755 "$work"
out=$work/out.log
: >"$out"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 40 "$out"; exit 1; }
export NO_COLOR=1
S=$KIT_DIR/solutions

case "$name" in
  merge)
    # flops alone (quick), due on 6 March with 10% a day: a class of copies, a stub, a missing
    # file, a Canvas upload marked _LATE_, a roster with one student's time.
    cat >"$work/week1.json" <<'JSON'
{ "exercises": [ { "name": "flops", "points": 10 } ],
  "due": "2026-03-06T23:59:00Z", "late": { "per_day": 10 } }
JSON
    class=$work/class
    for s in ada bob cy dee eve fay; do mkdir -p "$class/$s"; cp "$S/flops/flops.cpp" "$class/$s/"; done
    cp "$KIT_DIR/exercises/flops/flops.cpp" "$class/bob/"
    rm "$class/cy/flops.cpp"
    cp "$S/flops/flops.cpp" "$class/kimlee_LATE_2001_900_flops.cpp"
    # A folder named with 255 bytes: its reports get a shortened name, and the merge finds the
    # submission's own name in them (the byte-for-byte comparison below covers it).
    long=$(printf 'l%.0s' $(seq 1 255))
    mkdir -p "$class/$long"
    cp "$S/flops/flops.cpp" "$class/$long/"
    # fay has two folders: the exports take the newer, fay_v2 (its report says how recent it is).
    mkdir -p "$class/fay_v2"
    cp "$KIT_DIR/exercises/flops/flops.cpp" "$class/fay_v2/"
    touch -d '2026-03-01 12:00' "$class/fay/flops.cpp"
    # A loose archive is a submission of its own: graded in one shard only, like a folder.
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "flops.cpp"); z.close()' \
      "$class/hal.zip" "$S/flops/flops.cpp" || fail "cannot make the zip"
    # A loose archive beside a folder of its name is not graded, and ada's notes say so.
    cp "$class/hal.zip" "$class/ada.zip"
    printf 'folder,id,name,submitted\nada,1,Ada,2026-03-08T01:00:00Z\nbob,2,Bob,\ncy,3,Cy,\nkimlee_2001,4,Kim,\ngus,5,Gus,\nfay*,6,Fay,\n' \
      >"$work/roster.csv"
    all() { "$GRADER" --kit "$KIT_DIR" "$@" --roster "$work/roster.csv" --assignment "$work/week1.json" >>"$out" 2>&1; }
    all grade-all "$class" --out "$work/whole" || fail "grade-all exited $?"
    # Where each submission came from, in its report: hal a loose archive, kim's Canvas files,
    # bob a folder.
    python3 - "$work/whole/reports" <<'PY' >>"$out" 2>&1 || fail "a report's origin is wrong"
import json, sys
for name, origin in (("hal", "archive"), ("kimlee_2001", "canvas"), ("bob", "folder")):
    got = json.load(open(f"{sys.argv[1]}/{name}.json"))["class"]["origin"]
    assert got == origin, f"{name}: origin {got}, expected {origin}"
PY
    # An unsharded run is one whole class: it says nothing of shards.
    ! grep -q "shard" "$out" || fail "grade-all without --shard speaks of a shard"
    for k in 1 2; do
      # The shard's whole output, from its first line: what it says before it takes its share
      # counts too.
      start=$(($(wc -c <"$out") + 1))
      all grade-all "$class" --out "$work/s$k" --shard "$k/2" || fail "grade-all --shard $k/2 exited $?"
      tail -c +"$start" "$out" >"$work/s$k.log"
    done
    # A shard speaks of its own submissions only: each note it prints ("grade-all: NAME: ...")
    # is on a submission it graded, ada's on the archive beside her folder in one shard alone.
    for k in 1 2; do
      while IFS= read -r who; do
        [ -f "$work/whole/reports/$who.json" ] || continue  # a line of another kind
        [ -f "$work/s$k/reports/$who.json" ] || fail "shard $k/2 printed a note on $who, graded by another shard"
      done < <(sed -n 's|^grade-all: \([^:/]*\): .*|\1|p' "$work/s$k.log" | sort -u)
    done
    # Nor does it name, anywhere in its output, a submission another shard graded.
    for k in 1 2; do
      for report in "$work"/whole/reports/*.json; do
        who=$(basename "$report" .json)
        [ -f "$work/s$k/reports/$who.json" ] && continue
        ! grep -qw -- "$who" "$work/s$k.log" ||
          fail "shard $k/2 names $who, graded by another shard: $(grep -w -- "$who" "$work/s$k.log" | head -2)"
      done
    done
    [ "$(cat "$work/s1.log" "$work/s2.log" | grep -c '^grade-all: ada: ada.zip, beside this submission')" -eq 1 ] ||
      fail "ada's note on the archive beside her folder is not in exactly one shard's output"
    # Each submission in exactly one shard, both shards used.
    names() { (cd "$1/reports" && ls) | sort; }
    for shard in s1 s2; do [ "$(names "$work/$shard" | wc -l)" -gt 0 ] || fail "shard $shard is empty"; done
    [ "$( (names "$work/s1"; names "$work/s2") | sort)" = "$(names "$work/whole")" ] ||
      fail "the shards' reports are not the class's, each once"
    all merge-grades "$work/merged" "$work/s1" "$work/s2" || fail "merge-grades exited $?"
    for f in gradebook.csv canvas.csv moodle.csv scores.csv similarity.csv class-report.html reports/bob.html; do
      diff "$work/whole/$f" "$work/merged/$f" >>"$out" || fail "$f differs between one run and the merged shards"
    done
    [ "$(names "$work/merged")" = "$(names "$work/whole")" ] || fail "the merged reports are not the class's"
    # The run has what the comparison needs: a late penalty, a Canvas flag, a similarity group.
    grep -q '^ada,1,Ada,,10,10,8,10,yes,2,' "$work/merged/gradebook.csv" || fail "ada is not 2 days late"
    grep -q '^kimlee_2001,4,Kim,,10,10,9,10,yes,1,' "$work/merged/gradebook.csv" || fail "kim's _LATE_ is not 1 day"
    grep -q ',dee,' "$work/merged/similarity.csv" || fail "no similarity group"
    grep -q '^fay_v2,6,Fay,.*the one in the exports (the newest files)' "$work/merged/gradebook.csv" ||
      fail "fay's newer folder is not the one taken"
    # The same shard twice, a bad split, an assignment other than the shards': refused.
    "$GRADER" --kit "$KIT_DIR" merge-grades "$work/m2" "$work/s1" "$work/s1" --assignment "$work/week1.json" >"$out" 2>&1
    [ $? -eq 2 ] || fail "a shard given twice did not exit 2"
    grep -q "is in .*s1 and in .*s1" "$out" || fail "no message naming the conflict"
    "$GRADER" --kit "$KIT_DIR" merge-grades "$work/m3" "$work/s1" >"$out" 2>&1
    [ $? -eq 2 ] || fail "another assignment than the shards' did not exit 2"
    # A shard's report edited to claim more than its checks give, or more than the maximum:
    # refused, the file named (a copy of the shards, so the others above stay as they were).
    for claim in 999 9.5; do
      rm -rf "$work/t1" "$work/t2" "$work/m4"
      cp -r "$work/s1" "$work/t1"
      cp -r "$work/s2" "$work/t2"
      reports=("$work"/t1/reports/*.json)
      edited=${reports[0]}
      python3 - "$edited" "$claim" <<'PY' || fail "cannot edit a report"
import json, sys
j = json.load(open(sys.argv[1]))
j["score"] = float(sys.argv[2])
if j["score"] < j["max_score"]:  # within the maximum: the exercise and the total agree, the checks do not
    j["exercises"][0]["score"] = j["score"]
json.dump(j, open(sys.argv[1], "w"))
PY
      "$GRADER" --kit "$KIT_DIR" merge-grades "$work/m4" "$work/t1" "$work/t2" --assignment "$work/week1.json" >"$out" 2>&1
      [ $? -eq 2 ] || fail "a report claiming $claim was merged"
      grep -qF "$edited cannot be merged" "$out" || fail "the message does not name $edited"
      [ ! -e "$work/m4/gradebook.csv" ] || fail "a gradebook was written from a report claiming $claim"
    done
    # A report of a newer format than this grader's: refused, its version said.
    rm -rf "$work/t1" "$work/m5"
    cp -r "$work/s1" "$work/t1"
    reports=("$work"/t1/reports/*.json)
    python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j["version"] = 2; json.dump(j, open(sys.argv[1], "w"))' \
      "${reports[0]}" || fail "cannot edit a report"
    "$GRADER" --kit "$KIT_DIR" merge-grades "$work/m5" "$work/t1" "$work/s2" --assignment "$work/week1.json" >"$out" 2>&1
    [ $? -eq 2 ] || fail "a report of version 2 was merged"
    grep -qF "its format is version 2; this grader reads versions 1 to 1" "$out" || fail "the message does not say the version"
    shard2=("$work"/s2/reports/*.json)
    python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["version"] == 1' "${shard2[0]}" ||
      fail "a shard's report has no version 1"
    "$GRADER" --kit "$KIT_DIR" grade-all "$class" --shard 3/2 >"$out" 2>&1
    [ $? -eq 2 ] || fail "--shard 3/2 did not exit 2"
    grep -q "1 <= K <= N" "$out" || fail "no message for --shard 3/2" ;;

  ci-files)
    # The workflow: a matrix of shards, each running grade-all --shard with its index, its
    # --out uploaded as an artifact; a merge job that needs them, downloads every one, and
    # runs merge-grades over them.
    python3 - "$KIT_DIR/grader/tools/sharded-grading/grade-class.yml" <<'PY' || fail "the workflow's structure"
import re, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
grade, merge = jobs["grade"], jobs["merge"]
shards = grade["strategy"]["matrix"]["shard"]
assert len(shards) > 1 and shards == list(range(1, len(shards) + 1)), shards
assert grade["strategy"].get("fail-fast") is False, "one failed shard must not cancel the others"
runs = " ".join(s.get("run", "") for s in grade["steps"])
assert re.search(r"grade-all .*--shard \$\{\{ *matrix\.shard *\}\}/", runs), runs
n = re.search(r"--shard \$\{\{ *matrix\.shard *\}\}/(\$\{\{[^}]*\}\}|\d+)", runs).group(1)
assert n == str(len(shards)) or "strategy.job-total" in n, "N is not the matrix's size: " + n
uploads = [s for s in grade["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
assert uploads and "matrix.shard" in uploads[0]["with"]["name"], "each shard uploads its own artifact"
needs = merge["needs"]
assert needs == "grade" or needs == ["grade"], needs
assert merge.get("if", "").replace(" ", "") in ("always()", "${{always()}}") or "if" not in merge
downloads = [s for s in merge["steps"] if str(s.get("uses", "")).startswith("actions/download-artifact@")]
assert downloads, "the merge job downloads the shards"
mruns = " ".join(s.get("run", "") for s in merge["steps"])
assert "merge-grades" in mruns, mruns
assert any(str(s.get("uses", "")).startswith("actions/upload-artifact@") for s in merge["steps"]), "merged grades kept"
PY
    # The Slurm script: a job array of N tasks, each grade-all --shard $((ID+1))/N (or ID from
    # 1), then the merge in a job that depends on the array (afterok).
    script=$KIT_DIR/grader/tools/sharded-grading/grade-class.slurm
    bash -n "$script" || fail "the Slurm script is not valid bash"
    grep -Eq '^#SBATCH --array=1-[0-9]+' "$script" || fail "no job array (#SBATCH --array=1-N)"
    grep -Eq 'grade-all .*--shard "?\$\{?SLURM_ARRAY_TASK_ID\}?/\$\{?SLURM_ARRAY_TASK_COUNT' "$script" ||
      fail "the tasks do not grade --shard \$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT"
    grep -Eq 'sbatch .*--dependency=afterok:' "$script" || fail "no merge job after the array (afterok)"
    grep -q 'merge-grades' "$script" || fail "the Slurm script does not merge"
    # And the instructors' guide shows both.
    grep -q 'grader/tools/sharded-grading/grade-class.yml' "$KIT_DIR/docs/instructors.md" || fail "docs/instructors.md: no workflow"
    grep -q 'grader/tools/sharded-grading/grade-class.slurm' "$KIT_DIR/docs/instructors.md" || fail "docs/instructors.md: no Slurm script" ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
