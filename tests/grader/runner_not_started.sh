#!/usr/bin/env bash
# A runner the kernel refuses to start is the machine's doing, never the submission's: the
# grader runs that check again alone, and the solution keeps full marks; refused every time,
# the check is the grader's fault (exit 2, no score) and says it failed twice. CI once lost a
# correct check to "cannot run /runner: Text file busy" under parallel grading. Here deny-exec
# (fanotify) refuses the runner's start on a tmpfs given to the grader as its TMPDIR, where each
# check's runner copy lives. A time check whose first measure failed is measured again in fresh
# runners: when the machine refuses one of those, the failed verdict must not stand on the first
# measure alone (the check is the grader's fault instead). Root only; each layer that cannot run
# here is skipped.
#
# usage: runner_not_started.sh GRADER DENY_EXEC KIT_DIR
set -uo pipefail
grader=$1
deny_exec=$2
kit=$3
[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root (a tmpfs and fanotify)"; exit 77; }
work=$(mktemp -d /tmp/linattn-runner-not-started-XXXXXX)
helper=
cleanup() {
  [ -z "$helper" ] || kill "$helper" 2>/dev/null
  umount "$work/tmp" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"  # bubblewrap starts under a worker's id, which must reach the tmpfs
fail() { echo "FAILED: $*"; for f in "$work"/*.txt; do echo "--- $f"; cat "$f"; done; exit 1; }

mkdir -p "$work/submission" "$work/tmp" "$work/slow"
cp -r "$kit/solutions/flops" "$work/submission/"
# The chunkwise solution made to grow like T^3 through CPU time of its own: its time check fails
# every measure by a wide margin (about 20 times the growth, against a bound of 8) with every
# call well under the second of CPU beyond which no second look is taken.
cp -r "$kit/solutions/chunkwise" "$work/slow/"
python3 - "$work/slow/chunkwise/chunkwise.cpp" <<'PY' || fail "cannot make the slow submission"
import sys
path = sys.argv[1]
text = open(path).read()
start = "  const Matrix FQ = phi(Q);  // (T, d_phi)\n"
burn = """  // CPU time in proportion to T^3: half a second at T = 8192, 8 ms at 2048
  const double T3 = static_cast<double>(Q.rows()) * static_cast<double>(Q.rows() * Q.rows());
  const std::clock_t until = std::clock() + static_cast<std::clock_t>(T3 / (1 << 30) * CLOCKS_PER_SEC / 1000);
  while (std::clock() < until) {
  }
"""
assert text.count(start) == 1
open(path, "w").write("#include <ctime>\n" + text.replace(start, burn + start))
PY
mount -t tmpfs -o size=1g,mode=1777 linattn-deny-exec "$work/tmp" ||
  { echo "SKIPPED: cannot mount a tmpfs here"; exit 77; }

# Starts deny-exec on the tmpfs, refusing COUNT starts of NAME after letting the first ALLOW
# (default 0) start (each check's program is /runner, in the chroot or in bubblewrap's
# namespace, where the kernel names it so); waits until deny-exec holds the file system.
refuse() {
  local name=$1 count=$2 allow=${3:-0} i
  rm -f "$work/ready"
  "$deny_exec" "$work/tmp" "$name" "$count" "$work/ready" "$allow" >"$work/refused-$layer.txt" 2>&1 &
  helper=$!
  for ((i = 0; i < 600; ++i)); do
    [ -e "$work/ready" ] && return 0
    kill -0 "$helper" 2>/dev/null || break
    sleep 0.1
  done
  wait "$helper"
  local code=$?
  helper=
  [ $code -eq 77 ] && { cat "$work/refused-$layer.txt"; exit 77; }
  fail "deny-exec did not start (exit $code)"
}
stop_refusing() {
  kill "$helper"
  wait "$helper"
  helper=
}

# grade LAYER LABEL [OPTIONS]: what `graded` names (the flops solution unless said otherwise)
# graded in LAYER, its output in LABEL.txt. The layer chroot-nocap is the chroot layer without
# CAP_SYS_ADMIN (as in a container), the grader's alone: deny-exec keeps it.
graded=("$work/submission" --only flops)
grade() {
  local layer=$1 label=$2
  shift 2
  local run=(env LINATTN_ISOLATION="${layer%-nocap}" TMPDIR="$work/tmp" "$grader"
             "${graded[@]}" --quiet "$@")
  if [ "$layer" = chroot-nocap ]; then
    command -v capsh >/dev/null || return 77
    # shellcheck disable=SC2016 # expanded by the shell capsh starts, not by this one
    run=(capsh --drop=cap_sys_admin -- -c 'exec "$0" "$@"' "${run[@]}")
  fi
  "${run[@]}" >"$work/$label.txt" 2>&1
}

# report_says JSON EXPECT: EXPECT is "full marks", "failed" (each check failed, the
# submission's doing), or "the grader's fault" (no score written, each check failed twice).
report_says() {
  python3 - "$@" <<'PY'
import json, sys
path, expect = sys.argv[1:3]
report = json.load(open(path))
checks = [c for e in report["exercises"] for c in e["checks"]]
if not checks:
    sys.exit("no checks in the report")
if expect == "full marks":
    lost = [f'{c["name"]} ({c["status"]}: {c.get("message", "")[:200]})' for c in checks
            if c["status"] != "passed"]
    if lost:
        sys.exit(f"a runner refused once cost the solution: {lost}")
elif expect == "failed":
    for c in checks:
        if c["status"] != "failed":
            sys.exit(f'{c["name"]} is {c["status"]}, not failed: {c.get("message", "")[:300]}')
else:
    for c in checks:
        if c["status"] != "grader_fault":
            sys.exit(f'{c["name"]} is {c["status"]}, not grader_fault')
        if "twice, the second time with no other check running" not in c["message"]:
            sys.exit(f'{c["name"]} does not say it failed twice: {c["message"]}')
print(f"{expect}: {len(checks)} checks")
PY
}

layers=0
for layer in chroot chroot-nocap namespaces; do
  if ! grade $layer "probe-$layer"; then
    echo "layer $layer: cannot grade here, skipped"
    continue
  fi
  layers=$((layers + 1))

  refuse runner 1
  grade $layer "once-$layer" --jobs 2 --json "$work/once-$layer.json"
  code=$?
  stop_refusing
  grep -q "^refused 1$" "$work/refused-$layer.txt" || fail "layer $layer: deny-exec refused no runner"
  [ $code -eq 0 ] || fail "layer $layer: one runner refused once made the solution's run exit $code, expected 0"
  report_says "$work/once-$layer.json" "full marks" || fail "layer $layer: the report of one refused runner"

  refuse runner 1000000
  grade $layer "always-$layer" --jobs 2 --json "$work/always-$layer.json"
  code=$?
  stop_refusing
  [ $code -eq 2 ] || fail "layer $layer: runners refused every time made the run exit $code, expected 2"
  report_says "$work/always-$layer.json" "the grader's fault" || fail "layer $layer: the report of runners refused every time"

  # The slow chunkwise's time check: its first measure (9 calls, each in a runner of its own: 3
  # sizes, 3 problems each, as exercises/chunkwise/README.md states and tests/checks'
  # stated-sizes test holds) fails; from the next measure on, every runner is refused. Its
  # failure must not stand on the first measure alone.
  # First, nothing refused: the check fails on its own, so what follows starts from a failed
  # first measure.
  graded=("$work/slow" --assignment advanced --only chunkwise/chunkwise/linear-time)
  grade $layer "look-control-$layer" --jobs 1 --json "$work/look-control-$layer.json"
  code=$?
  [ $code -eq 1 ] || fail "layer $layer: the slow chunkwise, nothing refused, exited $code, expected 1"
  report_says "$work/look-control-$layer.json" "failed" || fail "layer $layer: the slow chunkwise, nothing refused"
  refuse runner 1000000 9
  grade $layer "look-$layer" --jobs 1 --json "$work/look-$layer.json"
  code=$?
  stop_refusing
  graded=("$work/submission" --only flops)
  # The first measure's 9 runners started, and only later ones were refused.
  grep -q "^allowed 9$" "$work/refused-$layer.txt" || fail "layer $layer: deny-exec did not let exactly the first measure's 9 runners start: $(tail -1 "$work/refused-$layer.txt")"
  grep -q "^refused [1-9]" "$work/refused-$layer.txt" || fail "layer $layer: deny-exec refused no later runner"
  [ $code -eq 2 ] || fail "layer $layer: a time check whose second measure could not start exited $code, expected 2"
  report_says "$work/look-$layer.json" "the grader's fault" || fail "layer $layer: the report of a second measure refused"
  echo "layer $layer: ok"
done
[ $layers -gt 0 ] || { echo "SKIPPED: no layer can grade here"; exit 77; }
echo ok
