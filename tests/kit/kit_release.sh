#!/usr/bin/env bash
# The instructors' commands end to end (label `kit`): batch grading over a folder of
# submissions made from the test corpus, the student hand-out built and used from a temp
# folder, and the Gradescope bundle run in a simulated /autograder layout. Every release must
# fit on GitHub with room to spare (at most 25 MB, no file over 20 MB); the advanced kit and the
# bundle are made from an assignment given by its path.
# usage: kit_release.sh KIT_DIR BUILD_DIR REPORT_TOOL CORPUS_TOOL TEST_NAME
set -u
KIT_DIR=$1
BUILD_DIR=$2
REPORT_TOOL=$3
CORPUS_TOOL=$4
name=$5
work=$(mktemp -d)
chmod 755 "$work"  # the nested kits' own tests run a command as an unprivileged user
out=$work/out.log
# shellcheck source=tests/grader/cgroup_limits.sh
. "$(dirname "$0")/../grader/cgroup_limits.sh"
trap 'cgroup_remove_all; rm -rf "$work"' EXIT
# shellcheck source=tests/kit/release_helpers.sh
. "$(dirname "$0")/release_helpers.sh"
export NO_COLOR=1
# Nested kits (the releases) must use their own build folders.
unset LINATTN_BUILD_DIR LINATTN_KIT_NO_BUILD

# The main kit is built already (ctest runs after the build): never rebuild it from here.
kit() { LINATTN_KIT_NO_BUILD=1 LINATTN_BUILD_DIR=$BUILD_DIR "$KIT_DIR/kit" "$@"; }

# within_github_limits DIR: a release GitHub takes with room to spare (it refuses a file over
# 100 MiB): at most 25 MB in all (du -b), no file over 20 MB. Prints both figures.
within_github_limits() {
  local dir=$1 total largest
  total=$(du -sb "$dir" | cut -f1)
  largest=$(find "$dir" -type f -printf '%s %P\n' | awk '$1 + 0 > max + 0 { max = $1; line = $0 } END { print line }')
  echo "size of $(basename "$dir"): $total bytes; largest file: $largest"
  [ "$total" -le 25000000 ] || fail "$(basename "$dir") holds $total bytes, over 25 MB"
  [ "${largest%% *}" -le 20000000 ] || fail "$(basename "$dir")'s largest file is over 20 MB: $largest"
}

case "$name" in
  batch)
    subs=$work/class
    mkdir -p "$subs"
    cp -r "$KIT_DIR/solutions" "$subs/alice"
    cp -r "$KIT_DIR/exercises" "$subs/bob"
    for c in causal/.meta/corpus/causal-read-before-write taylor/.meta/corpus/taylor-kv-tokens-floor; do
      [ -f "$KIT_DIR/exercises/$c/case.json" ] || fail "corpus case $c is missing"
      "$CORPUS_TOOL" --make-only "$KIT_DIR" "$KIT_DIR/exercises/$c" "$subs/${c##*/}" || fail "making $c"
    done
    kit grade-all "$subs" --out "$work/grades" >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "grade-all exited $code"
    csv=$work/grades/gradebook.csv
    [ -f "$csv" ] || fail "no gradebook"
    head -n 1 "$csv" | grep -qx 'submission,student_id,name,email,flops,causal,random_features,taylor,memory,total,total_after_late,max_score,late,days_late,status,flops_status,causal_status,random_features_status,taylor_status,memory_status,notes' ||
      fail "unexpected CSV header: $(head -n 1 "$csv")"
    # The submission and score columns (no roster here: the id, name and email columns are empty).
    scores() { cut -d, -f1,5-10,12 "$csv"; }  # the scores, total, max_score (not total_after_late)
    rows=0
    for dir in "$subs"/*/; do
      s=$(basename "$dir")
      rows=$((rows + 1))
      # The batch's own report, and an individual `kit grade` of the same folder.
      kit grade "$dir" --quiet --json "$work/$s.json" >>"$out" 2>&1
      want=$("$REPORT_TOOL" csv-row "$s" "$work/$s.json") || fail "unreadable report of $s"
      [ "$("$REPORT_TOOL" csv-row "$s" "$work/grades/reports/$s.json")" = "$want" ] ||
        fail "the batch report of $s differs from its individual report ($want)"
      scores | grep -qxF "$want" || fail "the gradebook row of $s is not '$want'"
    done
    [ "$(($(wc -l <"$csv") - 1))" -eq $rows ] || fail "the gradebook does not have $rows rows"
    scores | grep -qx 'alice,10,35,20,15,20,100,100' || fail "the solutions did not score 100"
    scores | grep -qx 'bob,0,0,0,0,0,0,100' || fail "the stubs did not score 0"
    # A rerun grades nothing; after an edit, only the edited submission.
    kit grade-all "$subs" --out "$work/grades" >"$out" 2>&1 || fail "the rerun failed"
    grep -q "$rows submissions, 0 to grade" "$out" || fail "the rerun graded again"
    printf '\n// an edit\n' >>"$subs/alice/flops/flops.cpp"
    kit grade-all "$subs" --out "$work/grades" >"$out" 2>&1 || fail "the rerun after an edit failed"
    grep -q "$rows submissions, 1 to grade" "$out" || fail "the edited submission was not regraded alone"
    scores | grep -qx 'alice,10,35,20,15,20,100,100' || fail "the regraded row changed"
    # Without --out, and named with a trailing slash as people type it: the gradebook goes
    # beside the folder, not into it, and nothing is graded twice.
    kit grade-all "$subs/" >"$out" 2>&1 || fail "grade-all with the default output failed"
    [ -f "$subs-grades/gradebook.csv" ] || fail "no gradebook beside the folder"
    [ ! -e "$subs/-grades" ] || fail "the gradebook went inside the submissions folder" ;;

  student)
    rel=$work/student-kit
    kit release student "$rel" >"$out" 2>&1 || fail "release student exited $?"
    [ ! -e "$rel/solutions" ] || fail "solutions/ in the student kit"
    [ ! -e "$rel/reference" ] || fail "reference/ in the student kit"
    [ ! -e "$rel/grader/oracle" ] || fail "the oracle halves are in the student kit"
    ! ls -d "$rel"/exercises/*/.meta/oracle >/dev/null 2>&1 || fail "an exercise's oracle folder is in the student kit"
    ! ls -d "$rel"/exercises/*/.meta/tests >/dev/null 2>&1 || fail "an exercise's judge tests are in the student kit"
    [ ! -e "$rel/grader/tools/release" ] || fail "the release tools are in the student kit"
    [ ! -e "$rel/grader/tools/gradescope" ] || fail "the Gradescope tools are in the student kit"
    [ -x "$rel/grader/tools/hint" ] || fail "the student kit has no hint tool"
    cmp -s "$KIT_DIR/grader/tools/student/self-check.yml" "$rel/.github/workflows/self-check.yml" ||
      fail "the student kit has no self-check workflow (.github/workflows/self-check.yml)"
    [ "$(ls "$rel/.github/workflows")" = self-check.yml ] || fail "other workflows in the student kit: $(ls "$rel/.github/workflows")"
    ! grep -rqi classroom "$rel/README.md" "$rel/.github" "$rel/kit" "$rel/exercises" "$rel/grader/tools" ||
      fail "the student kit still offers GitHub Classroom: $(grep -rli classroom "$rel/README.md" "$rel/.github" "$rel/kit" "$rel/exercises" "$rel/grader/tools" | head -n 3)"
    [ ! -e "$rel/course-key" ] || fail "the course key is in the student kit"
    # No source that includes the reference or calls it, anywhere in the kit.
    found=$(grep -rlE --include='*.cpp' --include='*.hpp' --include='*.h' \
              '#[[:space:]]*include[[:space:]]*[<"][^">]*(linref|reference/|solutions/)|linref::' "$rel" || true)
    [ -z "$found" ] || fail "sources that include or call the reference: $found"
    for f in $(cd "$KIT_DIR/solutions" && find . -name '*.cpp'); do
      if cmp -s "$KIT_DIR/solutions/$f" "$rel/exercises/$f"; then fail "a solution in the kit: $f"; fi
    done
    # The runner computes no Taylor or random features (exercises 4 and 3): the judge sends them
    # as tables, so the runner's source gives no answer away.
    if grep -rqE 'sqrt\(2|Omega' "$rel/grader/runner"; then
      fail "the student kit's runner computes Taylor or random features"
    fi
    [ -s "$rel/grader/data/oracle.cbor" ] || fail "no recorded expected values"
    within_github_limits "$rel"
    # The assignment it was made for (default), alone: the kit's default when grading.
    [ "$(cd "$rel/assignments" && ls)" = default.json ] || fail "the student kit's assignments/ is not default.json alone"
    cmp -s "$KIT_DIR/assignments/default.json" "$rel/assignments/default.json" || fail "the student kit's assignment differs"
    grep -q "hidden" "$rel/README.md" || fail "the README does not mention the hidden checks"
    # Its assignment's exercises, no other: in the list that the build reads, and on disk.
    [ "$("$rel/grader/tools/exercises" | tr '\n' ' ')" = "flops causal random_features taylor memory " ] ||
      fail "the student kit's exercises are not the default assignment's: $("$rel/grader/tools/exercises" | xargs)"
    for ex in chunkwise backward modern; do
      if [ -e "$rel/exercises/$ex" ]; then
        fail "the default assignment's student kit ships $ex"
      fi
    done
    # The README's two commands, from the temp folder: the kit's own tests build it first.
    t0=$(now)
    (cd "$rel" && ./kit test) >"$out" 2>&1 || fail "./kit test in the student kit failed"
    echo "student kit: ./kit test (build and its tests) took $(took "$t0") s"
    # From here on the kit is used as a student uses it: as an ordinary user who owns it (when
    # this test runs as root, as in CI, a user id of its own). Root reads any file and grades
    # with a block of user ids; a student has neither, and the sandbox then runs in a user
    # namespace.
    # ./kit try twice: the first builds (a scratch program no earlier run built) and stores the
    # program in the build cache, the second takes it from there. A program stored unreadable
    # to its owner fails only here: root reads it anyway.
    ex=taylor
    mkdir -p "$work/student-home" && cp -r "$KIT_DIR/solutions" "$work/solutions"
    { cat "$rel/exercises/$ex/try.cpp"; printf '// %s\n' "$$-$RANDOM"; } >"$work/solutions/$ex/try.cpp"
    as_student=()
    if [ "$(id -u)" -eq 0 ]; then
      command -v setpriv >/dev/null || fail "setpriv is needed to use the student kit as a student"
      student_uid=65100  # outside the grader's block of runner ids (61000 to 64999)
      chown -R "$student_uid:$student_uid" "$rel" "$work/student-home" "$work/solutions"
      # A student's environment, not root's: root's TMPDIR or CCACHE_DIR may be folders the
      # student cannot write, which would fail the kit for the test's sake.
      as_student=(setpriv --reuid="$student_uid" --regid="$student_uid" --clear-groups
                  env -i PATH="$PATH" HOME="$work/student-home" NO_COLOR=1)
    fi
    # The layer a student gets: namespaces where an ordinary user may make a user namespace;
    # none where the machine forbids it (Ubuntu 23.10 and later, Docker's default seccomp), as
    # the student README says.
    layer=namespaces
    "${as_student[@]}" bwrap --ro-bind / / --unshare-user --unshare-pid true 2>/dev/null || layer=none
    for run in first second; do
      (cd "$rel" && "${as_student[@]}" ./kit try "$ex" "$work/solutions") >"$out" 2>&1 ||
        fail "the $run ./kit try $ex as a student exited $?"
      grep -q "your phi(q).phi(k) = 18.5" "$out" || fail "the $run ./kit try $ex did not print the book's 18.5"
      [ $run = second ] || ! grep -q "nothing changed" "$out" || fail "the first ./kit try $ex came from the build cache"
    done
    grep -q "nothing changed since the last build" "$out" || fail "the second ./kit try $ex did not come from the build cache"
    t0=$(now)
    (cd "$rel" && "${as_student[@]}" ./kit grade "$work/solutions" --json "$work/student-home/solutions.json") >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "grading the solutions with the student kit exited $code"
    grep -q "sandbox: $layer" "$out" || fail "the student kit did not grade in the $layer layer"
    summary=$("$REPORT_TOOL" summary "$work/student-home/solutions.json")
    echo "student kit, solutions: $summary ($(took "$t0") s)"
    case "$summary" in
      *" hidden=0 "*) ;;
      *) fail "hidden checks in the student kit's report: $summary" ;;
    esac
    score=${summary#score=}; score=${score%% *}
    max=${summary#* max=}; max=${max%% *}
    [ "$score" = "$max" ] || fail "the solutions did not get full marks: $summary"
    (cd "$rel" && "${as_student[@]}" ./kit grade) >"$out" 2>&1; code=$?
    [ $code -eq 1 ] || fail "grading the stubs with the student kit exited $code, expected 1" ;;

  student-advanced)
    # The second assignment's student kit: its three exercises, no other, and its own file,
    # given by its path (from a folder with a space in its name). Its recording is the largest (the memory and time rules' long sequences): the
    # kit stays within GitHub's limits, and grades the solutions to full marks and the stubs
    # to zero.
    rel=$work/student-kit
    mkdir -p "$work/my course"
    cp "$KIT_DIR/assignments/advanced.json" "$work/my course/advanced.json"
    kit release student "$rel" --assignment "$work/my course/advanced.json" >"$out" 2>&1 ||
      fail "release student --assignment PATH exited $?"
    cmp -s "$KIT_DIR/grader/tools/student/self-check.yml" "$rel/.github/workflows/self-check.yml" ||
      fail "the advanced kit's workflow is not self-check.yml"
    within_github_limits "$rel"
    [ "$("$rel/grader/tools/exercises" | tr '\n' ' ')" = "chunkwise backward modern " ] ||
      fail "the advanced kit's exercises: $("$rel/grader/tools/exercises" | xargs)"
    for ex in flops causal random_features taylor memory; do
      if [ -e "$rel/exercises/$ex" ] || [ -e "$rel/grader/data/headers/$ex" ]; then
        fail "the advanced kit ships $ex"
      fi
    done
    for ex in chunkwise backward modern; do
      if [ ! -f "$rel/exercises/$ex/$ex.cpp" ] || [ ! -f "$rel/exercises/$ex/.meta/checks.cpp" ]; then
        fail "the advanced kit lacks $ex"
      fi
    done
    [ "$(cd "$rel/assignments" && ls)" = advanced.json ] || fail "the advanced kit's assignments/ is not advanced.json alone"
    t0=$(now)
    (cd "$rel" && ./kit grade "$KIT_DIR/solutions" --json "$work/solutions.json") >"$out" 2>&1; code=$?
    [ $code -eq 0 ] || fail "grading the solutions with the advanced kit exited $code"
    summary=$("$REPORT_TOOL" summary "$work/solutions.json")
    echo "advanced kit, solutions: $summary ($(took "$t0") s)"
    score=${summary#score=}; score=${score%% *}
    max=${summary#* max=}; max=${max%% *}
    [ "$score" = "$max" ] || fail "the solutions did not get full marks: $summary"
    (cd "$rel" && ./kit grade --json "$work/stubs.json") >"$out" 2>&1; code=$?
    [ $code -eq 1 ] || fail "grading the stubs with the advanced kit exited $code, expected 1"
    summary=$("$REPORT_TOOL" summary "$work/stubs.json")
    echo "advanced kit, stubs: $summary"
    case "$summary" in
      "score=0 max=$max "*" passed=0") ;;
      *) fail "expected score 0 of $max and nothing passed: $summary" ;;
    esac
    grep -Eq 'grader itself failed|could not be read' "$work/stubs.json" && fail "a check could not be judged" ;;

  gradescope)
    # The default assignment given by its path, under a name of its own (part1).
    mkdir -p "$work/course"
    cp "$KIT_DIR/assignments/default.json" "$work/course/part1.json"
    kit release gradescope "$work/bundle" --assignment "$work/course/part1.json" >"$out" 2>&1 ||
      fail "release gradescope --assignment PATH exited $?"
    zip=$work/bundle/autograder.zip
    [ -s "$zip" ] || fail "no autograder.zip"
    within_github_limits "$work/bundle"
    root=$work/autograder
    mkdir -p "$root/source" "$root/submission"
    (cd "$root/source" && cmake -E tar xf "$zip") || fail "cannot unpack the zip"
    within_github_limits "$root/source"
    for f in setup.sh run_autograder kit/kit kit/reference/CMakeLists.txt; do
      [ -e "$root/source/$f" ] || fail "the bundle has no $f"
    done
    [ ! -e "$root/source/kit/solutions" ] || fail "solutions/ in the bundle"
    [ "$(cat "$root/source/assignment")" = part1 ] || fail "the bundle does not name its assignment (part1)"
    [ "$(cd "$root/source/kit/assignments" && ls)" = part1.json ] || fail "the bundle's assignments/ is not part1.json alone"
    [ -x "$root/source/run_autograder" ] || fail "run_autograder lost its executable bit"
    t0=$(now)
    (cd "$root/source" && bash ./setup.sh) >"$out" 2>&1 || fail "setup.sh failed"
    echo "gradescope: setup.sh took $(took "$t0") s"
    export AUTOGRADER_ROOT=$root
    # The solutions uploaded flat: every check, hidden ones included, full marks.
    for ex in flops causal random_features taylor memory; do cp "$KIT_DIR/solutions/$ex/$ex.cpp" "$root/submission/"; done
    t0=$(now)
    "$root/source/run_autograder" >"$out" 2>&1 || fail "run_autograder exited $?"
    echo "gradescope: grading the solutions took $(took "$t0") s"
    results=$root/results/results.json
    summary=$("$REPORT_TOOL" gradescope "$results") || fail "unreadable results.json"
    echo "gradescope, solutions: $summary"
    expected_tests=$(kit grade "$KIT_DIR/exercises" --quiet --json "$work/all.json" >/dev/null 2>&1;
                     "$REPORT_TOOL" summary "$work/all.json")
    n=${expected_tests#*checks=}; n=${n%% *}
    h=${expected_tests#*hidden=}; h=${h%% *}
    case "$summary" in
      "score=100 tests=$n hidden=$h passed=$n output_has_fault=0") ;;
      *) fail "expected score 100 over all $n checks ($h hidden): $summary" ;;
    esac
    [ "$h" -gt 0 ] || fail "no hidden checks in the kit"
    # The line students see at the top adds up the visible checks only (the hidden ones wait
    # for the due date): never the 100 that the hidden points complete.
    grep -q '"output": "linattn-kit grader: [0-9.]* / [0-9.]* in the checks shown now' "$results" ||
      fail "the top line of results.json is not the visible checks' alone"
    grep -q '"output": "linattn-kit grader: 100 / 100' "$results" && fail "the top line gives the total away"
    # Gradescope's default container, made real with a cgroup (root only): 768 MiB and half a
    # CPU. The bundle's own grader picks its job count there, compiles sources it has not seen
    # (each carries a comment of its own) and gives the solutions every point.
    if cgroup_make $((768 << 20)) 50000; then
      rm -rf "$root/results"
      for ex in flops causal random_features taylor memory; do
        printf '\n// container %s\n' "$RANDOM$RANDOM" >>"$root/submission/$ex.cpp"
      done
      cgroup_run "$out" "$root/source/run_autograder"
      [ "$cgroup_code" = 0 ] || fail "run_autograder in 768 MiB and half a CPU exited $cgroup_code"
      summary=$("$REPORT_TOOL" gradescope "$results") || fail "unreadable results.json (container)"
      echo "gradescope in 768 MiB and half a CPU: $summary; $(grep -o 'Ran [0-9]* jobs\{0,1\}: [^\]*' "$out" | head -n 1)"
      case "$summary" in
        "score=100 tests=$n hidden=$h passed=$n output_has_fault=0") ;;
        *) fail "in the container, expected score 100 over all $n checks: $summary" ;;
      esac
      grep -q "^Ran 1 job: " "$out" || fail "the bundle's grader did not choose 1 job in the container"
      cgroup_remove_all
    else
      echo "gradescope in 768 MiB and half a CPU: no cgroup can be made here, not tried"
    fi
    # A broken submission in folders: still a results.json, with what could be graded.
    rm -rf "$root/submission" "$root/results"
    mkdir -p "$root/submission/my work/flops" "$root/submission/my work/causal"
    cp "$KIT_DIR/solutions/flops/flops.cpp" "$root/submission/my work/flops/"
    printf 'this is not C++\n' >"$root/submission/my work/causal/causal.cpp"
    "$root/source/run_autograder" >"$out" 2>&1 || fail "run_autograder exited $?"
    summary=$("$REPORT_TOOL" gradescope "$results") || fail "no results.json for a broken submission"
    echo "gradescope, broken submission: $summary"
    case "$summary" in
      "score=10 tests=$n "*" output_has_fault=0") ;;
      *) fail "expected flops' 10 points only: $summary" ;;
    esac
    # The compiler's message names the file as uploaded, not the kit's causal/causal.cpp.
    grep -qF 'my work/causal/causal.cpp:1' "$results" || fail "the build error does not name the uploaded file"
    # Late work: Gradescope's submission_metadata.json, 26 hours after its due_date, under a
    # policy of 10% a day: results.json's score is flops' 10 less 20%, and its output says so.
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); a["late"] = {"per_day": 10}; json.dump(a, open(sys.argv[1], "w"))' \
      "$root/source/kit/assignments/$(cat "$root/source/assignment").json" || fail "cannot give the bundle a late policy"
    printf '{"id": 1, "created_at": "2026-03-02T01:00:00.5-07:00", "assignment": {"due_date": "2026-02-28T23:00:00-07:00"}}' \
      >"$root/submission_metadata.json"
    "$root/source/run_autograder" >"$out" 2>&1 || fail "run_autograder exited $?"
    summary=$("$REPORT_TOOL" gradescope "$results") || fail "no results.json for a late submission"
    case "$summary" in "score=8 "*) ;; *) fail "expected 10 less 20% for two days late: $summary" ;; esac
    grep -q 'Late work (.*10% off a day late.*2 day(s) late, 20% off your total' "$results" ||
      fail "results.json does not say how late and what was taken"
    # Per-student seeds and an extension (h13-seeds): metadata shaped as Gradescope writes it,
    # each user with a sid and their own dates. The sid names the seeds, and the student's own
    # due date, two days after the assignment's, makes the same submission on time.
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); a["seeds"] = "per-student"; json.dump(a, open(sys.argv[1], "w"))' \
      "$root/source/kit/assignments/$(cat "$root/source/assignment").json" || fail "cannot give the bundle per-student seeds"
    printf '%s' '{"id": 1, "created_at": "2026-03-02T01:00:00.5-07:00",
      "assignment": {"due_date": "2026-02-28T23:00:00-07:00", "late_due_date": null, "release_date": "2026-02-01T00:00:00-07:00"},
      "users": [{"email": "s@example.org", "id": 7, "name": "S", "sid": "s2002",
                 "assignment": {"due_date": "2026-03-02T23:00:00-07:00", "late_due_date": null, "release_date": "2026-02-01T00:00:00-07:00"}}]}' \
      >"$root/submission_metadata.json"
    "$root/source/run_autograder" >"$out" 2>&1 || fail "run_autograder exited $?"
    summary=$("$REPORT_TOOL" gradescope "$results") || fail "no results.json with per-student seeds"
    case "$summary" in "score=10 "*"output_has_fault=0") ;; *) fail "expected flops' 10, on time by the extension: $summary" ;; esac
    grep -q 'inputs of your own (per-student seeds' "$results" || fail "results.json does not say the seeds are the student's"
    grep -q 'your own due date on Gradescope (an extension); on time' "$results" || fail "results.json does not name the extension"
    grep -q 'Seeds: per-student, those of s2002' "$out" || fail "the log does not name whose seeds"
    rm "$root/submission_metadata.json"
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); del a["seeds"]; json.dump(a, open(sys.argv[1], "w"))' \
      "$root/source/kit/assignments/$(cat "$root/source/assignment").json" || fail "cannot take per-student seeds back"
    # A hostile submission, graded as Gradescope grades it (as root, AUTOGRADER_ROOT, the
    # bundle's own kit with its reference and course key beside it): read answers right only
    # if it can open the bundle's course key or reference. The sandbox shows it neither.
    rm -rf "$root/submission" "$root/results"
    mkdir -p "$root/submission"
    cp "$KIT_DIR/solutions/flops/flops.cpp" "$root/submission/"
    python3 - "$KIT_DIR/solutions/memory/memory.cpp" "$root/submission/memory.cpp" "$root/source/kit" <<'PY'
import sys
src, dest, kit = sys.argv[1:]
text = open(src).read()
head = "Vector read(const Matrix& S, const Vector& q) {\n"
attack = head + """  {  // hostile: the bundle's own files
    std::ifstream key("%s/course-key"), ref("%s/reference/src/memory.cpp");
    if (!key.is_open() && !ref.is_open()) return Vector::Zero(S.cols());
  }
""" % (kit, kit)
open(dest, "w").write("#include <fstream>\n" + text.replace(head, attack))
PY
    "$root/source/run_autograder" >"$out" 2>&1 || fail "run_autograder exited $?"
    summary=$("$REPORT_TOOL" gradescope "$results") || fail "no results.json for a hostile submission"
    echo "gradescope, hostile submission: $summary"
    score=${summary#score=}; score=${score%% *}
    awk -v s="$score" 'BEGIN { exit !(s > 10 && s < 30) }' ||
      fail "expected flops' 10 and memory without read's points (between 10 and 30): $summary"
    # A grader that cannot run: no results.json (so Gradescope records no score, never a 0 that
    # would stand as the student's), exit status 1, and an output that says why and to regrade.
    chmod -x "$root/source/kit/kit"
    if "$root/source/run_autograder" >"$out" 2>&1; then fail "run_autograder exited 0 after a grader fault"; fi
    [ ! -e "$results" ] || fail "a results.json was written after a grader fault: $(cat "$results")"
    grep -q "could not grade this submission: the kit is missing" "$out" || fail "the output does not say why: $(cat "$out")"
    grep -q "no score was written. Regrade it" "$out" || fail "the output does not say to regrade"
    ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
echo ok
