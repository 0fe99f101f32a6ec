#!/usr/bin/env bash
# The chroot layer on a kernel without Landlock (before Linux 5.13, or built without it, as on
# some graders' hosts). There the compilers run as an unprivileged user id and see the host's
# files as that id does, so a kit that id can read is refused for course grading (--course) and
# warned about in a student's own run; a closed kit is neither. The solutions still get full
# marks in that layer. Landlock is taken away by a seccomp filter (without-landlock), so this
# runs on any kernel; as root only (the chroot layer's ids).
#
# usage: without_landlock.sh GRADER WITHOUT_LANDLOCK KIT_DIR
set -uo pipefail
grader=$1
without_landlock=$2
kit=$3
work=$(mktemp -d /tmp/linattn-without-landlock-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; for f in "$work"/*.txt; do echo "--- $f"; cat "$f"; done; exit 1; }

command -v setpriv >/dev/null || { echo "SKIPPED: setpriv is not installed"; exit 77; }
mkdir -p "$work/submission"
cp -r "$kit/solutions/flops" "$work/submission/"
# Whether a sandbox user id (the block starts at 61000, sandbox_settings.hpp) can read the kit:
# what the grader asks of its first worker's id.
if setpriv --reuid=61000 --regid=61000 --clear-groups test -r "$kit/README.md"; then
  readable=yes
else
  readable=no
fi
echo "the kit can be read by a sandbox user id: $readable"
grade() { LINATTN_ISOLATION=chroot "$without_landlock" "$grader" "$work/submission" --only flops "$@"; }
refusal="refusing to grade: under the chroot layer, compilers run as an unprivileged user id, and that id can read the kit ($kit/README.md); close it with chmod 700 $kit"
warning="warning: under the chroot layer, compilers run as an unprivileged user id, and that id can read the kit"

grade --course --quiet --json "$work/course.json" >"$work/course.txt" 2>&1
course=$?
grade --quiet --json "$work/student.json" >"$work/student.txt" 2>&1
student=$?
if [ $readable = yes ]; then
  [ $course -eq 2 ] || fail "course grading of a kit the sandbox can read exited $course, expected 2"
  grep -qF "$refusal" "$work/course.txt" || fail "course grading did not say why it refused, or how to close the kit"
  [ ! -e "$work/course.json" ] || fail "a refused course grading wrote a report"
  grep -qF "$warning" "$work/student.txt" || fail "a student's own run was not warned that the kit is open"
else
  [ $course -eq 0 ] || fail "course grading of a closed kit exited $course, expected 0"
  ! grep -q "can read the kit" "$work/course.txt" "$work/student.txt" || fail "a closed kit was said to be open"
fi
[ $student -eq 0 ] || fail "the solution's own run exited $student, expected 0 (full marks)"
python3 - "$work/student.json" <<'PY' || fail "the report of the solution's run"
import json, sys
report = json.load(open(sys.argv[1]))
checks = [c for e in report["exercises"] for c in e["checks"]]
if report.get("isolation") != "chroot":
    sys.exit(f"graded under {report.get('isolation')}, not the chroot layer")
lost = [c["name"] for c in checks if c["status"] != "passed"]
if not checks or lost:
    sys.exit(f"the solution lost checks without Landlock: {lost}")
print(f"without Landlock, chroot layer: {len(checks)} checks of flops, all passed")
PY
# With Landlock the compilers are kept to /usr and their own folder: no word of the kit.
LINATTN_ISOLATION=chroot "$grader" "$work/submission" --only flops --quiet >"$work/with-landlock.txt" 2>&1 ||
  fail "the solution's run with Landlock did not exit 0"
if python3 -c 'import ctypes, sys; sys.exit(ctypes.CDLL(None).syscall(444, None, 0, 1) < 1)'; then
  ! grep -q "can read the kit" "$work/with-landlock.txt" || fail "warned of an open kit though Landlock keeps the compilers from it"
fi
echo ok
