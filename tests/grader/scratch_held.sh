#!/usr/bin/env bash
# The disk a hostile runner holds while it runs: the corpus case hostile-scratch-unlinked-open
# (16 files of 60 MiB, each deleted while kept open, 960 MiB that the scratch folder never
# shows) graded in one layer, with the free space of the jails' file system sampled every
# 50 ms. A check may write 64 MiB: a tmpfs of that size caps it where one can be mounted, and
# without CAP_SYS_ADMIN the scratch watcher must count what the runner holds, deleted or not
# (scratch_watch.hpp). The case's `read` must lose, and without CAP_SYS_ADMIN with the quota's
# message. Other work on the machine moves the free space too: the bound, 480 MiB (half the
# attack), is far above the quota and what is written between two looks of the watcher.
#
# usage: scratch_held.sh GRADER KIT_DIR CORPUS_CASE LAYER
#   LAYER: namespaces, chroot, chroot-nocap (no CAP_SYS_ADMIN), or chroot-container (no
#   CAP_SYS_ADMIN, CAP_SYS_PTRACE or CAP_CHECKPOINT_RESTORE, as in Docker's default)
set -euo pipefail
grader=$1
kit=$2
corpus_case=$3
layer=$4
work=$(mktemp -d /tmp/linattn-scratch-held-XXXXXX)
trap 'rm -rf "$work"' EXIT
jails=${TMPDIR:-/tmp}  # where the grader makes its jail folders (temp_directory_path)

free_bytes() { df --output=avail -B1 "$jails" | tail -1 | tr -d ' '; }

"$corpus_case" --make-only "$kit" "$kit/tests/submissions/hostile-scratch-unlinked-open" \
  "$work/submission"
run=("$grader" "$work/submission" --only memory --quiet --json "$work/report.json")
# The build first, so that the compiler's files are not counted as held.
LINATTN_ISOLATION=${layer%%-*} "$grader" "$work/submission" --only memory --quiet \
  --json "$work/warm.json" >/dev/null 2>&1 || true
capsh=$(command -v capsh || echo /usr/sbin/capsh)
case $layer in
  namespaces | chroot) drop= ;;
  chroot-nocap) drop=cap_sys_admin ;;
  chroot-container) drop=cap_sys_admin,cap_sys_ptrace,cap_checkpoint_restore ;;
  *) echo "unknown layer $layer" >&2; exit 2 ;;
esac
before=$(free_bytes)
if [ -z "$drop" ]; then
  LINATTN_ISOLATION=$layer "${run[@]}" >/dev/null 2>&1 &
else
  # shellcheck disable=SC2016  # "$0" "$@" are for the shell capsh starts
  LINATTN_ISOLATION=chroot "$capsh" --drop="$drop" -- -c 'exec "$0" "$@"' "${run[@]}" \
    >/dev/null 2>&1 &
fi
grading=$!
least=$before
while kill -0 "$grading" 2>/dev/null; do
  now=$(free_bytes)
  [ "$now" -lt "$least" ] && least=$now
  sleep 0.05
done
wait "$grading" || true
held=$(((before - least) >> 20))
echo "disk held at most during the grade ($layer): $held MiB (quota 64 MiB, attack 960 MiB)"
status=0
if [ "$held" -ge 480 ]; then
  echo "FAILED: the runner held $held MiB of the host's disk"
  status=1
fi
python3 - "$work/report.json" "$layer" <<'PY' || status=1
import json, sys
report = json.load(open(sys.argv[1]))
layer = sys.argv[2]
if report.get("isolation") != layer.split("-")[0]:
    sys.exit(f"FAILED: graded under {report.get('isolation')}, not {layer}")
reads = [c for e in report["exercises"] for c in e["checks"] if c.get("function") == "read"]
passed = [c["name"] for c in reads if c["status"] == "passed"]
if not reads or passed:
    sys.exit(f"FAILED: read kept its points: {passed}")
if layer != "namespaces" and layer != "chroot":
    quota = [c["name"] for c in reads if "the limit for files a check may write" in c.get("message", "")]
    if not quota:
        sys.exit("FAILED: no check of read was stopped with the scratch quota's message")
PY
exit "$status"
