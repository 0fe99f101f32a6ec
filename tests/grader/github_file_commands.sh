#!/usr/bin/env bash
# GitHub Actions' file commands and workflow commands against a hostile submission: the corpus
# case hostile-github-file-commands (flops.cpp) graded with `grade --github-summary` in one
# layer, as a step of a workflow would run it. The step's command files (GITHUB_ENV, whose lines
# become the environment of every later step, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STATE, and
# GITHUB_STEP_SUMMARY) are in RUNNER_TEMP/_runner_file_commands/ as on a runner, under names
# the student need not guess, writable by every user id (only the sandbox keeps them), holding
# a secret line; a GITHUB_TOKEN holds another secret. The case, at build time, forges workflow
# commands in the compiler's and the assembler's messages and looks for those files with
# __has_include beside the stage; at run time (a static initializer and both functions) it
# prints its environment and /proc's, reads and appends to the files its environment names,
# every file of the runner's folders and of any _runner_file_commands folder above it, writes
# to inherited descriptors and the terminal, and prints ::set-env, ::add-path, ::stop-commands,
# ::endgroup, ::error and ##[...] lines on stdout and stderr, after guessed resume tokens too.
#
# Graded twice, each time with a line of its own added to the file (the build cache would
# otherwise skip the compile, and with it the build-time attack):
#   apart   the grader's TMPDIR elsewhere: the file builds in every layer and its run-time
#           attack must have run (the static initializer's and both functions' markers in the
#           report, the forged lines in the terminal report, inside the pause);
#   beside  TMPDIR=RUNNER_TEMP, so the stage sits beside _runner_file_commands/, where a
#           compiler that is not chrooted (the chroot layer's) could reach by a relative path:
#           the build sees nothing (namespaces) or is refused (Landlock's "Permission denied").
# Asserted each time: the command files other than the summary are byte for byte as they were,
# and no file was added beside them; the summary file kept what it held and gained only the
# grader's summary, with the student's text only inside its <pre>; neither secret, nor any
# GITHUB_ or RUNNER_ variable, reaches the student's code (the report holds what it saw); on
# stdout, a ::stop-commands::TOKEN line (32 hex digits) before any student text, every line
# a runner would read as a command (`::` after leading blanks, or `##[` anywhere; lines split at
# \r and \n as the runner splits them) is inside the pause or, after the one `::TOKEN::` line,
# one of the grader's own `::error file=...,title=...::` annotations; on stderr, no such line
# and no student text at all; the grader exits 1 (marks lost, no fault) under the layer asked.
#
# usage: github_file_commands.sh GRADER CORPUS_CASE KIT_DIR LAYER
#   LAYER: namespaces, chroot (LINATTN_ISOLATION=chroot, as root), or chroot-nocap (the chroot
#   layer without CAP_SYS_ADMIN, through capsh, as root). Exit 77: the layer cannot run here.
set -u
GRADER=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
CORPUS_CASE=$2  # tests/corpus/corpus_case, which makes a case's submission (--make-only)
KIT=$(cd "$3" && pwd)
LAYER=$4
CASE=$KIT/tests/submissions/hostile-github-file-commands

skip() { echo "SKIPPED: $*"; exit 77; }
wrapper=()
case $LAYER in
  namespaces)
    isolation=namespaces
    command -v bwrap >/dev/null 2>&1 || skip "bubblewrap (bwrap) is not installed"
    ;;
  chroot | chroot-nocap)
    isolation=chroot
    [ "$(id -u)" -eq 0 ] || skip "the chroot layer needs root"
    if [ "$LAYER" = chroot-nocap ]; then
      capsh=$(command -v capsh || echo /usr/sbin/capsh)
      [ -x "$capsh" ] || skip "capsh (libcap2-bin) is not installed"
      # shellcheck disable=SC2016  # "$0" "$@" are for the shell capsh starts
      wrapper=("$capsh" --drop=cap_sys_admin -- -c 'exec "$0" "$@"')
    fi
    ;;
  *) echo "usage: $0 GRADER CORPUS_CASE KIT_DIR namespaces|chroot|chroot-nocap" >&2; exit 2 ;;
esac
command -v python3 >/dev/null 2>&1 || skip "python3 is needed"
[ -f "$CASE/case.json" ] || { echo "FAILED: no case $CASE"; exit 1; }

work=$(mktemp -d /tmp/linattn-github-file-commands-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# The sandbox's user ids must reach the jails under it (the chroot layer's compilers).
chmod 755 "$work"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
pass() { echo "PASSED: $*"; }

secret=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
token_secret=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
runner_temp=$work/runner-temp
commands=$runner_temp/_runner_file_commands
mkdir -p "$commands" "$work/grader-tmp" "$work/copies"
chmod 777 "$runner_temp" "$commands" "$work/grader-tmp"
for f in set_env set_output add_path save_state step_summary; do
  printf 'LINATTN_EARLIER_%s=%s\n' "$f" "$secret" >"$commands/$f"
  chmod 666 "$commands/$f"
done
printf '%s\n' "## An earlier step's summary" >>"$commands/step_summary"

# The case's submission, as corpus_case makes it, plus a line of this run's own.
make_submission() {  # OUT TAG
  rm -rf "$1"
  "$CORPUS_CASE" --make-only "$KIT" "$CASE" "$1" >/dev/null || return 1
  printf '// this run: %s\n' "$2" >>"$1/flops/flops.cpp"
}

# One grade: RUN is apart or beside (above). Its files in $work/RUN.*; the checks print.
grade() {
  local run=$1 tmpdir
  [ "$run" = beside ] && tmpdir=$runner_temp || tmpdir=$work/grader-tmp
  for f in "$commands"/*; do cp "$f" "$work/copies/$(basename "$f")"; done
  local listing_before
  listing_before=$(ls -A "$commands")
  make_submission "$work/sub-$run" "$run $secret" || { fail "$run: cannot make the submission"; return; }
  local code
  (cd "$work" && env GITHUB_ACTIONS=true CI=true RUNNER_TEMP="$runner_temp" TMPDIR="$tmpdir" \
    GITHUB_ENV="$commands/set_env" GITHUB_OUTPUT="$commands/set_output" \
    GITHUB_PATH="$commands/add_path" GITHUB_STATE="$commands/save_state" \
    GITHUB_STEP_SUMMARY="$commands/step_summary" GITHUB_TOKEN="ghs_$token_secret" \
    LINATTN_ISOLATION=$isolation NO_COLOR=1 \
    "${wrapper[@]}" "$GRADER" --kit "$KIT" grade "sub-$run" --only flops --github-summary \
    --json "$work/$run.json") >"$work/$run.out" 2>"$work/$run.err"
  code=$?
  echo "--- $run: the grader exited $code; stderr: $(wc -l <"$work/$run.err") line(s)"
  if [ "$code" -eq 2 ] && [ "$LAYER" = namespaces ] &&
    grep -q 'LINATTN_ISOLATION=namespaces' "$work/$run.err"; then
    skip "no namespaces here: $(head -n 1 "$work/$run.err")"
  fi
  if [ "$code" -eq 1 ]; then
    pass "$run: exit 1 (marks lost, no grader fault)"
  else
    fail "$run: the grader exited $code, expected 1"
    head -n 20 "$work/$run.err"
  fi

  # The command files: unchanged (the summary: added to only), nothing new beside them.
  for f in set_env set_output add_path save_state; do
    if cmp -s "$commands/$f" "$work/copies/$f"; then
      pass "$run: $f unchanged"
    else
      fail "$run: $f changed:"
      diff "$work/copies/$f" "$commands/$f" | head -n 10
    fi
  done
  local listing_after
  listing_after=$(ls -A "$commands")
  if [ "$listing_after" = "$listing_before" ]; then
    pass "$run: no file added to _runner_file_commands"
  else
    fail "$run: files added to _runner_file_commands: $(echo "$listing_after" | tr '\n' ' ')"
  fi
  local kept
  kept=$(wc -c <"$work/copies/step_summary")
  if cmp -s -n "$kept" "$commands/step_summary" "$work/copies/step_summary"; then
    pass "$run: the summary file kept what it held"
  else
    fail "$run: the summary file's earlier text changed"
  fi
  tail -c +$((kept + 1)) "$commands/step_summary" >"$work/$run.summary"

  if ! python3 - "$run" "$LAYER" "$isolation" "$work/$run.json" "$work/$run.out" "$work/$run.err" \
    "$work/$run.summary" "$secret" "$token_secret" <<'PY'
import json, re, sys
run, layer, isolation, report_path, out_path, err_path, summary_path, secret, token_secret = sys.argv[1:]
failures = 0
def check(ok, what, detail=""):
    global failures
    print(("PASSED: " if ok else "FAILED: ") + run + ": " + what + ("" if ok else detail))
    failures += not ok
def text(path):
    return open(path, encoding="utf-8", errors="replace").read()
# The runner reads its output a line at a time, lines ending at \r or \n.
def runner_lines(t):
    return re.split(r"\r\n|\r|\n", t)
def command_like(line):
    return line.lstrip().startswith("::") or "##[" in line

report_text, out, err, summary = text(report_path), text(out_path), text(err_path), text(summary_path)
report = json.loads(report_text)
check(report.get("isolation") == isolation, "graded under %s" % isolation, ": %s" % report.get("isolation"))
(flops,) = report["exercises"]
outputs = "\n".join(c.get("output", "") for c in flops["checks"])
build_log = flops.get("build", {}).get("log", "")
messages = "\n".join(c.get("message", "") for c in flops["checks"])

# What the student's code saw (it prints it) and did (it says so when a write succeeds).
seen = [l for l in outputs.splitlines() if l.startswith("hostile-ghfc ")]
for what in ("wrote", "env-set", "build saw", "found folder", "read"):
    bad = [l for l in seen if l.startswith("hostile-ghfc " + what)]
    check(not bad, "the student's code never reports '%s'" % what, ": %s" % bad[:3])
env_lines = [l for l in seen if l.startswith(("hostile-ghfc env:", "hostile-ghfc environ"))]
bad = [l for l in env_lines if re.search(r"GITHUB_|RUNNER_|ghs_", l)]
check(not bad, "no GITHUB_/RUNNER_ variable in the student's environment (%d lines seen)" % len(env_lines),
      ": %s" % bad[:3])
for name, value in (("the command files' secret", secret), ("GITHUB_TOKEN's secret", token_secret)):
    where = [n for n, t in (("report", report_text), ("stdout", out), ("stderr", err), ("summary", summary))
             if value in t]
    check(not where, "%s is in no report, output or summary" % name, ": in %s" % where)

if flops["build"].get("ok"):
    for where in ("static-initializer", "attention_flops", "crossover_T"):
        check("hostile-ghfc ran: " + where in outputs, "the run-time attack ran (%s)" % where)
    check("from-pragma" in build_log, "the build-time attack reached the compiler (#pragma message)")
else:
    check(run == "beside" and isolation == "chroot", "the build failed only where expected",
          " (%s, %s): %s" % (run, isolation, build_log[:300]))
    check("Permission denied" in build_log, "the compiler was refused the command files (Landlock)",
          ": %s" % build_log[:300])
    refused = [l for l in build_log.splitlines() if "Permission denied" in l]
    print("note: %s: the build was refused: %s" % (run, (refused or [""])[0][:160]))

# stdout: the pause, then only the grader's own annotations.
lines = runner_lines(out)
stops = [i for i, l in enumerate(lines) if l.startswith("::stop-commands::")]
check(len(stops) == 1, "one ::stop-commands:: line", ": %d" % len(stops))
stop, resume, token = (stops[0] if len(stops) == 1 else None), None, ""
if stop is not None:
    token = lines[stop][len("::stop-commands::"):]
    check(re.fullmatch(r"[0-9a-f]{32}", token) is not None, "a token of 32 hex digits", ": %r" % token)
    resumes = [i for i, l in enumerate(lines) if l == "::%s::" % token]
    check(len(resumes) == 1 and resumes[0] > stop, "one resume line ::TOKEN::, after the stop", ": %s" % resumes)
    resume = resumes[0] if len(resumes) == 1 and resumes[0] > stop else None
    for guess in ("linattn-forged-token", "0" * 32):
        check(token != guess, "the token is not the student's guess %s" % guess)
paused = lambda i: stop is not None and resume is not None and stop <= i <= resume
annotation = re.compile(r"::error file=[^,:]+,title=[^:]*::")
loose = [l for i, l in enumerate(lines) if not paused(i) and (command_like(l) or "forged" in l or "hostile-ghfc" in l)
         and not (resume is not None and i > resume and annotation.match(l) and "##[" not in l)]
check(not loose, "outside the pause, no command-like line but the grader's annotations after the resume, "
      "and nothing of the student's", ": %d, %s" % (len(loose), loose[:4]))
if resume is not None:
    inside = "\n".join(lines[stop + 1:resume])
    if flops["build"].get("ok"):
        check("::set-env name=LINATTN_FORGED_ENV::from-output" in inside,
              "the student's forged commands were printed, inside the pause")
    annotations = [l for l in lines[resume + 1:] if l]
    check(len(annotations) >= 1 and all(l.startswith("::error file=sub-%s/flops/flops.cpp," % run) for l in annotations),
          "%d annotation(s) after the resume, each on the student's file" % len(annotations), ": %s" % annotations[:2])

# stderr: no command, no student text.
bad = [l for l in runner_lines(err) if command_like(l) or "forged" in l or "hostile-ghfc" in l]
check(not bad, "stderr has no command-like line and nothing of the student's", ": %s" % bad[:3])

# The summary: the grader's, the student's text only inside <pre>...</pre> (one line each).
check(summary.startswith("## Linear attention: "), "the summary added is the grader's", ": %r" % summary[:80])
outside = [re.sub(r"<pre>.*?</pre>", "", l) for l in summary.splitlines()]
bad = [l for l in outside if command_like(l) or "forged" in l or "hostile-ghfc" in l]
check(not bad, "the student's text in the summary only inside <pre>", ": %s" % bad[:3])
if run == "apart":
    check("hostile-ghfc ran:" in summary, "the summary shows what the student's code printed")
sys.exit(1 if failures else 0)
PY
  then
    failures=$((failures + 1))
  fi
}

echo "layer $LAYER (LINATTN_ISOLATION=$isolation${wrapper[*]:+, under capsh --drop=cap_sys_admin}); work in $work"
grade apart
grade beside
if [ "$failures" -ne 0 ]; then
  echo "FAILED: github-file-commands/$LAYER ($failures failing step(s)); KEEP=1 keeps $work"
  exit 1
fi
echo "PASSED: github-file-commands/$LAYER"
exit 0
