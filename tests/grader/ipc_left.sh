#!/usr/bin/env bash
# What a hostile runner leaves in System V IPC on the host: the corpus case
# hostile-sysv-shm-memo (four 16 MiB segments under fixed keys, never removed) graded in one
# layer, with the host's IPC objects of the sandbox's user ids (61000 and the 3999 after it,
# sandbox_settings.hpp) counted with ipcs before and after. Outside bubblewrap there is no IPC
# namespace: without the seccomp refusal and the sweep after each run (ipc_sweep.hpp), the
# segments stay on the host after the grader exits. The case's `read` must also lose.
#
# usage: ipc_left.sh GRADER KIT_DIR CORPUS_CASE LAYER
#   LAYER: namespaces, chroot, or chroot-nocap (the chroot layer without CAP_SYS_ADMIN, capsh)
set -euo pipefail
grader=$1
kit=$2
corpus_case=$3
layer=$4
work=$(mktemp -d /tmp/linattn-ipc-left-XXXXXX)
trap 'rm -rf "$work"' EXIT

# IPC objects (segments, queues, semaphore sets) made or owned by a sandbox user id: printed.
sandbox_objects() {
  ipcs -a -c | awk '$3 ~ /^[0-9]+$/ && (($3 >= 61000 && $3 < 65000) || ($5 >= 61000 && $5 < 65000))' | wc -l
}
# The case's own segments, by their keys: what is asserted (another test running at the same
# time may hold objects of a sandbox id for a moment, never under these keys).
case_segments() { ipcs -m | awk '$1 ~ /^0x6c6e610[0-3]$/' | wc -l; }

"$corpus_case" --make-only "$kit" "$kit/tests/submissions/hostile-sysv-shm-memo" "$work/submission"
before=$(sandbox_objects)
segments_before=$(case_segments)
run=("$grader" "$work/submission" --only memory --quiet --json "$work/report.json")
case $layer in
  namespaces | chroot) LINATTN_ISOLATION=$layer "${run[@]}" >/dev/null 2>&1 || true ;;
  chroot-nocap)
    capsh=$(command -v capsh || echo /usr/sbin/capsh)
    # shellcheck disable=SC2016  # "$0" "$@" are for the shell capsh starts
    LINATTN_ISOLATION=chroot "$capsh" --drop=cap_sys_admin -- -c 'exec "$0" "$@"' "${run[@]}" \
      >/dev/null 2>&1 || true
    ;;
  *) echo "unknown layer $layer" >&2; exit 2 ;;
esac
after=$(sandbox_objects)
segments_after=$(case_segments)
echo "IPC objects of the sandbox's user ids (ipcs): $before before, $after after ($layer)"
echo "the case's segments: $segments_before before, $segments_after after"
ipcs -a -c
status=0
if [ "$segments_after" -gt 0 ]; then
  echo "FAILED: the grader left the case's $segments_after segments on the host"
  status=1
fi
python3 - "$work/report.json" "$layer" <<'PY' || status=1
import json, sys
report = json.load(open(sys.argv[1]))
if report.get("isolation") != sys.argv[2].replace("-nocap", ""):
    sys.exit(f"FAILED: graded under {report.get('isolation')}, not {sys.argv[2]}")
reads = [c for e in report["exercises"] for c in e["checks"] if c.get("function") == "read"]
passed = [c["name"] for c in reads if c["status"] == "passed"]
if not reads or passed:
    sys.exit(f"FAILED: read kept its points with its segments: {passed}")
PY
exit "$status"
