#!/usr/bin/env bash
# GitHub Classroom: the workflow the student kit carries (grader/tools/student/classroom.yml,
# released as .github/workflows/classroom.yml) and the payload it hands to the reporter.
# usage: classroom_workflow.sh KIT_DIR TEST_NAME [GRADER]
#   yaml        the file is valid YAML; on push, one job whose steps come in order: check out,
#               install (sudo ./kit setup), grade (./kit grade --github-classroom, base64 into
#               the step's output), report (classroom-resources/autograding-grading-reporter@v1
#               with env <ID>_RESULTS from that output and runners: <ID>, the same id).
#               Parsed with PyYAML, else with Ruby's YAML; with neither, a structural check of
#               the keys with awk and grep, and it says so.
#               The job's id is run-autograding-tests with no name of its own (Classroom reads
#               the check run of that name), and an actions/cache step keyed on the kit's
#               sources keeps ccache's folder, which the setup step builds through.
#   official-yaml  the official mode's variant (classroom-official.yml): the same, and the
#               submission and the instructor's private grader checked out side by side (the
#               grader with a deploy key from the organisation's secrets), graded with --course.
#   official-grade-step  that variant's grade step against a stand-in kit: the hidden checks'
#               messages are blanked in the payload, the visible ones' kept.
#   grade-step  the grade step's own script, run as GitHub runs it (bash -e -o pipefail) against
#               a stand-in ./kit: exit 1 (a grade) and 0 pass the payload on, base64-encoded, and
#               do not fail the step; exit 2 with no payload gives an "error" payload.
#   payload     the real grader (GRADER) writes --github-classroom for the stubs and the solutions
#               (--only flops): statuses, names, points adding up, exit codes 1 and 0.
set -u
KIT_DIR=$1
name=$2
GRADER=${3:-}
WORKFLOW=${LINATTN_CLASSROOM_WORKFLOW:-$KIT_DIR/grader/tools/student/classroom.yml}
case "$name" in
  official-*) WORKFLOW=${LINATTN_CLASSROOM_OFFICIAL_WORKFLOW:-$KIT_DIR/grader/tools/student/classroom-official.yml} ;;
esac
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
: >"$out"
fail() { echo "FAILED: $*"; echo "--- output ---"; cat "$out"; exit 1; }
[ -f "$WORKFLOW" ] || fail "no workflow at $WORKFLOW"
command -v python3 >/dev/null || { echo "SKIPPED: python3 is needed"; exit 77; }

# The workflow as JSON in $work/workflow.json, or nothing when no YAML parser is here.
yaml_to_json() {
  if python3 -c 'import yaml' 2>/dev/null; then
    python3 - "$WORKFLOW" "$work/workflow.json" >"$out" 2>&1 <<'EOF' || fail "not valid YAML (PyYAML)"
import json, sys, yaml
with open(sys.argv[1]) as f:
    doc = yaml.safe_load(f)
with open(sys.argv[2], "w") as f:
    json.dump(doc, f)
EOF
    echo "parser: PyYAML"
  elif command -v ruby >/dev/null 2>&1; then
    ruby -ryaml -rjson -e 'File.write(ARGV[1], JSON.generate(YAML.safe_load(File.read(ARGV[0]))))' \
      "$WORKFLOW" "$work/workflow.json" >"$out" 2>&1 || fail "not valid YAML (Ruby)"
    echo "parser: Ruby YAML"
  fi
}

# The id of the step that grades, and that step's run script (from the parsed workflow).
grade_step() {
  python3 - "$work/workflow.json" "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for job in doc["jobs"].values():
    for step in job["steps"]:
        if "--github-classroom" in step.get("run", ""):
            print(step["id"] if sys.argv[2] == "id" else step["run"], end="")
            sys.exit(0)
sys.exit(1)
EOF
}

case "$name" in
  yaml|official-yaml)
    yaml_to_json
    [ "$name" = official-yaml ] && [ ! -s "$work/workflow.json" ] &&
      { echo "SKIPPED: no YAML parser (PyYAML or Ruby; ./kit test installs python3-yaml)"; exit 77; }
    if [ -s "$work/workflow.json" ]; then
      python3 - "$work/workflow.json" "$name" >"$out" 2>&1 <<'EOF' || fail "the workflow's structure"
import json, re, sys
doc = json.load(open(sys.argv[1]))
official = sys.argv[2] == "official-yaml"
problems = []
def need(ok, what):
    if not ok:
        problems.append(what)
# YAML 1.1 reads a bare `on` as true: the key must be the string "on".
on = doc.get("on")
need(on is not None, 'no "on" key (a bare on: is read as true; quote it)')
events = on if isinstance(on, (list, dict)) else [on]
need("push" in events, "not run on push")
jobs = doc.get("jobs") or {}
need(len(jobs) == 1, "not exactly one job")
# GitHub Classroom takes the points from the check run named run-autograding-tests, which is
# the job's id when the job has no name of its own.
need(list(jobs) == ["run-autograding-tests"], "the job's id is %r, not run-autograding-tests" % list(jobs))
job = next(iter(jobs.values())) if jobs else {}
need(job.get("name", "run-autograding-tests") == "run-autograding-tests",
     "the job's name %r renames its check run" % job.get("name"))
need("runs-on" in job, "the job has no runs-on")
steps = job.get("steps") or []
def find(pred, start=0):
    return next((i for i, s in enumerate(steps) if i >= start and pred(s)), None)
# In the official mode the kit is the instructor's grader, checked out in a folder of its own.
checkout = find(lambda s: str(s.get("uses", "")).startswith("actions/checkout@"))
kit = "./kit"
if official and checkout is not None:
    sub_dir = (steps[checkout].get("with") or {}).get("path", "")
    fetch = find(lambda s: str(s.get("uses", "")).startswith("actions/checkout@"), checkout + 1)
    need(fetch is not None, "no second checkout (the course's grader)")
    w = (steps[fetch].get("with") or {}) if fetch is not None else {}
    grader_dir = w.get("path", "")
    need(sub_dir and grader_dir and sub_dir != grader_dir,
         "the submission (%r) and the grader (%r) are not checked out in folders of their own" % (sub_dir, grader_dir))
    need(re.fullmatch(r"\$\{\{\s*(vars|secrets)\.[A-Z_]+\s*\}\}", str(w.get("repository", ""))) is not None,
         "the grader's repository %r does not come from the organisation's variables" % w.get("repository"))
    need(re.fullmatch(r"\$\{\{\s*secrets\.[A-Z_]+\s*\}\}", str(w.get("ssh-key", ""))) is not None,
         "the grader is not read with a deploy key from the secrets: ssh-key %r" % w.get("ssh-key"))
    for i in (checkout, fetch):
        if i is not None:
            need((steps[i].get("with") or {}).get("persist-credentials") is False,
                 "checkout %d keeps its credentials" % i)
    kit = grader_dir + "/kit"
setup = find(lambda s: re.search(r"\bsudo (env [^\n]*)?%s setup\b" % re.escape(kit), s.get("run", "")))
grade = find(lambda s: re.search(r"%s grade\b[^\n]*--github-classroom" % re.escape(kit),
                                 s.get("run", "").replace("\\\n", " ")))
report = find(lambda s: s.get("uses") == "classroom-resources/autograding-grading-reporter@v1")
cache = find(lambda s: str(s.get("uses", "")).startswith("actions/cache@"))
for what, i in [("check-out", checkout), ("setup", setup), ("grade", grade), ("reporter", report),
                ("build cache", cache)]:
    need(i is not None, "no %s step" % what)
if None not in (checkout, setup, grade, report, cache):
    need(checkout < cache < setup < grade < report,
         "steps out of order: checkout %d, cache %d, setup %d, grade %d, report %d"
         % (checkout, cache, setup, grade, report))
    # The cache: ccache's folder, keyed on the kit's sources, and the setup builds through it.
    cw = steps[cache].get("with") or {}
    need("hashFiles(" in str(cw.get("key", "")) and "grader/**" in str(cw.get("key", "")),
         "the cache key is not a hash of the kit's sources: %r" % cw.get("key"))
    need(cw.get("restore-keys"), "the cache has no restore-keys (an older cache is a good start)")
    senv = steps[setup].get("env") or {}
    need(senv.get("CCACHE_DIR") == cw.get("path"),
         "the setup's CCACHE_DIR %r is not the cached path %r" % (senv.get("CCACHE_DIR"), cw.get("path")))
    need('CCACHE_DIR="$CCACHE_DIR"' in steps[setup]["run"], "sudo does not pass CCACHE_DIR on to ./kit setup")
    if official:
        run = steps[grade]["run"].replace("\\\n", " ")
        need(re.search(r"%s grade %s/exercises\b" % (re.escape(kit), re.escape(sub_dir)), run) is not None,
             "the grade step does not grade the submission's exercises/ with the course's grader")
        need("--course" in run, "the grade step does not grade with the course's seeds (--course)")
    g, r = steps[grade], steps[report]
    runner = g.get("id", "")
    # The reporter's own check of its input: ids of letters and digits, comma-separated.
    need(re.fullmatch(r"[A-Za-z0-9]+", runner) is not None, "grade step id %r is not letters and digits" % runner)
    need("base64" in g["run"], "the grade step does not base64-encode the payload")
    need(re.search(r"result=.*>>\s*\"?\$GITHUB_OUTPUT", g["run"]) is not None,
         "the grade step does not write result= to $GITHUB_OUTPUT")
    need((r.get("with") or {}).get("runners") == runner,
         "runners %r is not the grade step's id %r" % ((r.get("with") or {}).get("runners"), runner))
    env = r.get("env") or {}
    key = runner.upper() + "_RESULTS"
    need(key in env, "the reporter has no env %s (has %s)" % (key, sorted(env)))
    need(re.fullmatch(r"\$\{\{\s*steps\.%s\.outputs\.result\s*\}\}" % re.escape(runner), str(env.get(key, ""))) is not None,
         "env %s is not ${{ steps.%s.outputs.result }}: %r" % (key, runner, env.get(key)))
perms = doc.get("permissions") or {}
need(perms.get("contents") == "read", "permissions: contents is not read")
print("\n".join(problems))
sys.exit(1 if problems else 0)
EOF
    else
      # No YAML parser: the keys in their places and the steps in order, by line number.
      echo "NOTE: neither PyYAML nor Ruby here: a structural check only" | tee "$out"
      grep -qE '^"?on"?:' "$WORKFLOW" || fail "no top-level on:"
      grep -qE '^[[:space:]]+(- )?push:?' "$WORKFLOW" || fail "not run on push"
      grep -qE '^jobs:' "$WORKFLOW" || fail "no jobs:"
      grep -qE '^  run-autograding-tests:$' "$WORKFLOW" || fail "no job run-autograding-tests"
      [ "$(awk '/^jobs:/ { j = 1; next } j && /^  [A-Za-z0-9_-]+:/ { n++ } END { print n + 0 }' "$WORKFLOW")" = 1 ] ||
        fail "not exactly one job"
      grep -qE '^    name:' "$WORKFLOW" && fail "the job has a name of its own (it renames the check run)"
      grep -qE 'uses: actions/cache@' "$WORKFLOW" || fail "no build cache"
      grep -q $'\t' "$WORKFLOW" && fail "a tab in the YAML"
      line() { grep -nE -- "$1" "$WORKFLOW" | head -1 | cut -d: -f1; }
      c=$(line 'uses: actions/checkout@') s=$(line 'sudo (env [^#]*)?\./kit setup')
      g=$(line '\./kit grade .*--github-classroom') r=$(line 'uses: classroom-resources/autograding-grading-reporter@v1')
      { [ -n "$c" ] && [ -n "$s" ] && [ -n "$g" ] && [ -n "$r" ]; } || fail "a step is missing ($c $s $g $r)"
      { [ "$c" -lt "$s" ] && [ "$s" -lt "$g" ] && [ "$g" -lt "$r" ]; } || fail "steps out of order"
      id=$(awk -v g="$g" 'NR < g && /^[[:space:]]+id:/ { id = $2 } END { print id }' "$WORKFLOW")
      [ -n "$id" ] || fail "the grade step has no id"
      key=$(printf '%s' "$id" | tr '[:lower:]' '[:upper:]')_RESULTS
      grep -qE "^[[:space:]]+$key: \"?\\$\\{\\{ *steps\\.$id\\.outputs\\.result *\\}\\}" "$WORKFLOW" || fail "no env $key"
      grep -qE "^[[:space:]]+runners: $id\$" "$WORKFLOW" || fail "runners is not $id"
      grep -q 'base64' "$WORKFLOW" || fail "no base64"
    fi ;;

  grade-step)
    yaml_to_json
    [ -s "$work/workflow.json" ] || { echo "SKIPPED: no YAML parser (PyYAML or Ruby) to read the step"; exit 77; }
    grade_step run >"$work/step.sh" || fail "no step runs ./kit grade --github-classroom"
    # A stand-in kit: records its arguments, writes the payload named after --github-classroom
    # (unless told not to) and exits with the code it is given.
    mkdir -p "$work/repo"
    cat >"$work/repo/kit" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_ARGS"
while [ $# -gt 0 ]; do
  if [ "$1" = --github-classroom ] && [ "$FAKE_WRITE" = 1 ]; then printf '%s' "$FAKE_PAYLOAD" >"$2"; fi
  shift
done
echo "a report on the terminal"
exit "$FAKE_CODE"
EOF
    chmod +x "$work/repo/kit"
    payload='{"version": 1, "status": "fail", "max_score": 10, "tests": [{"name": "flops: a/b", "status": "fail", "score": 0, "message": "ünïcode", "line_no": 0}]}'
    # run CODE WRITE: the step as GitHub runs a `shell: bash` step; prints the decoded result.
    run() {
      local code=$1 write=$2
      rm -rf "$work/tmp" && mkdir -p "$work/tmp" && : >"$work/github_output"
      (cd "$work/repo" && FAKE_ARGS=$work/args FAKE_CODE=$code FAKE_WRITE=$write FAKE_PAYLOAD=$payload \
         RUNNER_TEMP=$work/tmp GITHUB_OUTPUT=$work/github_output \
         bash --noprofile --norc -eo pipefail "$work/step.sh") >>"$out" 2>&1 || return 1
      [ "$(grep -c '^result=' "$work/github_output")" = 1 ] || { echo "not one result= line" >>"$out"; return 1; }
      sed -n 's/^result=//p' "$work/github_output" | base64 -d
    }
    for code in 0 1; do
      got=$(run "$code" 1) || fail "the step failed when ./kit grade exited $code"
      [ "$got" = "$payload" ] || fail "exit $code: the decoded result is not the payload: $got"
    done
    grep -qx -- '--github-classroom' "$work/args" || fail "./kit was not called with --github-classroom"
    [ "$(head -1 "$work/args")" = grade ] || fail "./kit was not called as ./kit grade: $(head -1 "$work/args")"
    # The grader's own fault, with its payload (status error): passed on as it is.
    got=$(run 2 1) || fail "the step failed when ./kit grade exited 2 with a payload"
    [ "$got" = "$payload" ] || fail "exit 2 with a payload: not passed on"
    # No payload at all: an error payload the reporter can read.
    got=$(run 2 0) || fail "the step failed when ./kit grade exited 2 without a payload"
    printf '%s' "$got" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert p["status"] == "error", p
assert p["tests"] and all(t["status"] == "error" for t in p["tests"]), p
assert p["tests"][0]["line_no"] == 0, p
' >>"$out" 2>&1 || fail "exit 2 without a payload: no error payload ($got)" ;;

  official-grade-step)
    yaml_to_json
    [ -s "$work/workflow.json" ] || { echo "SKIPPED: no YAML parser (PyYAML or Ruby) to read the step"; exit 77; }
    grade_step run >"$work/step.sh" || fail "no step runs the grader with --github-classroom"
    # A stand-in grader in grader/: writes a payload and a native report with one visible and
    # one hidden check, both failed, and exits 1.
    mkdir -p "$work/repo/grader" "$work/repo/submission/exercises"
    cat >"$work/repo/grader/kit" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_ARGS"
while [ $# -gt 0 ]; do
  case "$1" in
    --github-classroom) printf '%s' '{"version": 1, "status": "fail", "max_score": 3, "tests": [
      {"name": "causal: recurrent/hand-example", "status": "fail", "score": 0, "max_score": 2, "message": "failed: expected 0.5 got 0.4", "test_code": "./kit grade --only causal/recurrent/hand-example", "line_no": 0},
      {"name": "causal: recurrent/random-hidden", "status": "fail", "score": 0, "max_score": 1, "message": "failed: expected 0.123 got 0.2", "test_code": "", "line_no": 0}]}' >"$2" ;;
    --json) printf '%s' '{"exercises": [{"name": "causal", "checks": [
      {"name": "recurrent/hand-example", "visibility": "visible"},
      {"name": "recurrent/random-hidden", "visibility": "hidden"}]}]}' >"$2" ;;
  esac
  shift
done
exit 1
EOF
    chmod +x "$work/repo/grader/kit"
    mkdir -p "$work/tmp" && : >"$work/github_output"
    (cd "$work/repo" && FAKE_ARGS=$work/args RUNNER_TEMP=$work/tmp GITHUB_OUTPUT=$work/github_output \
       GITHUB_REPOSITORY=course-org/part1-alice ASSIGNMENT=default \
       bash --noprofile --norc -eo pipefail "$work/step.sh") >>"$out" 2>&1 ||
      fail "the official grade step failed on a grade of 1"
    grep -qx -- '--course' "$work/args" || fail "the grader was not called with --course"
    # Per-student seeds: the student's repository names whose seeds (h13-seeds).
    grep -A1 -x -- '--student' "$work/args" | grep -qx 'course-org/part1-alice' ||
      fail "the grader was not told whose repository it grades (--student)"
    grep -qx -- 'submission/exercises' "$work/args" || fail "the grader was not given submission/exercises"
    sed -n 's/^result=//p' "$work/github_output" | base64 -d | python3 -c '
import json, sys
p = json.load(sys.stdin)
seen, hidden = p["tests"]
assert seen["message"] == "failed: expected 0.5 got 0.4" and seen["test_code"], seen
assert "0.123" not in hidden["message"] and hidden["test_code"] == "", hidden
assert hidden["score"] == 0 and hidden["max_score"] == 1, hidden
' >>"$out" 2>&1 || fail "the hidden check's message was not blanked, or the visible one's was" ;;

  payload)
    [ -x "$GRADER" ] || fail "no grader at '$GRADER'"
    "$GRADER" "$KIT_DIR/exercises" --quiet --only flops --github-classroom "$work/stubs.json" >>"$out" 2>&1
    code=$?; [ $code -eq 1 ] || fail "the stubs: exit $code, not 1"
    "$GRADER" "$KIT_DIR/solutions" --quiet --only flops --github-classroom "$work/solutions.json" \
      --json "$work/native.json" >>"$out" 2>&1
    code=$?; [ $code -eq 0 ] || fail "the solutions: exit $code, not 0"
    python3 - "$work/stubs.json" "$work/solutions.json" "$work/native.json" >>"$out" 2>&1 <<'EOF' || fail "the payloads"
import base64, json, sys
stubs, sols, native = (json.load(open(p)) for p in sys.argv[1:4])
checks = [(e["name"], c) for e in native["exercises"] for c in e["checks"]]
for p, want in ((stubs, "fail"), (sols, "pass")):
    assert p["version"] == 1 and p["status"] == want, (p["status"], want)
    assert p["max_score"] == native["max_score"] == 10, p["max_score"]
    assert [t["name"] for t in p["tests"]] == ["%s: %s" % (e, c["name"]) for e, c in checks]
    assert abs(sum(t["max_score"] for t in p["tests"]) - p["max_score"]) < 1e-9
    for t in p["tests"]:
        assert t["status"] in ("pass", "fail", "error") and t["line_no"] == 0, t
    # The reporter's way in: base64 of the file, decoded, is the same JSON.
    raw = open(sys.argv[1 if want == "fail" else 2], "rb").read()
    assert json.loads(base64.b64decode(base64.b64encode(raw))) == p
assert sum(t["score"] for t in sols["tests"]) == 10
assert all(t["status"] == "pass" and t["message"] == "" for t in sols["tests"])
assert sum(t["score"] for t in stubs["tests"]) < 10
failing = [t for t in stubs["tests"] if t["status"] == "fail"]
assert failing and all(t["message"].split(":")[0] in
                       ("failed", "not_implemented", "error", "crashed", "timeout", "over_memory", "build_error")
                       for t in failing), failing
print("ok:", len(sols["tests"]), "tests")
EOF
    ;;
  *) echo "unknown test $name"; exit 2 ;;
esac
echo ok
