#!/usr/bin/env bash
# A runner the kernel refuses to start is the machine's doing, never the submission's: the
# grader runs that check again alone, and the solution keeps full marks; refused every time,
# the check is the grader's fault (exit 2, no score) and says it failed twice. CI once lost a
# correct check to "cannot run /runner: Text file busy" under parallel grading. Here deny-exec
# (fanotify) refuses the runner's start on a tmpfs given to the grader as its TMPDIR, where each
# check's runner copy lives. Root only; each layer that cannot run here is skipped.
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

mkdir -p "$work/submission" "$work/tmp"
cp -r "$kit/solutions/flops" "$work/submission/"
mount -t tmpfs -o size=1g,mode=1777 linattn-deny-exec "$work/tmp" ||
  { echo "SKIPPED: cannot mount a tmpfs here"; exit 77; }

# Starts deny-exec on the tmpfs, refusing the first COUNT starts of NAME (each check's program is
# /runner, in the chroot or in bubblewrap's namespace, where the kernel names it so); waits until
# deny-exec holds the file system.
refuse() {
  local name=$1 count=$2 i
  rm -f "$work/ready"
  "$deny_exec" "$work/tmp" "$name" "$count" "$work/ready" >"$work/refused-$layer.txt" 2>&1 &
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

# grade LAYER LABEL [OPTIONS]: the solution graded in LAYER, its report in LABEL.json. The layer
# chroot-nocap is the chroot layer without CAP_SYS_ADMIN (as in a container), the grader's
# alone: deny-exec keeps it.
grade() {
  local layer=$1 label=$2
  shift 2
  local run=(env LINATTN_ISOLATION="${layer%-nocap}" TMPDIR="$work/tmp" "$grader"
             "$work/submission" --only flops --quiet "$@")
  if [ "$layer" = chroot-nocap ]; then
    command -v capsh >/dev/null || return 77
    # shellcheck disable=SC2016 # expanded by the shell capsh starts, not by this one
    run=(capsh --drop=cap_sys_admin -- -c 'exec "$0" "$@"' "${run[@]}")
  fi
  "${run[@]}" >"$work/$label.txt" 2>&1
}

# report_says JSON EXPECT: EXPECT is "full marks", or "the grader's fault" (no score written,
# each check failed twice).
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
  echo "layer $layer: ok"
done
[ $layers -gt 0 ] || { echo "SKIPPED: no layer can grade here"; exit 77; }
echo ok
