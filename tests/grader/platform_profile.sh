#!/usr/bin/env bash
# The grader inside a platform's limits, made real with a cgroup of this machine's (root only).
#   platform_profile.sh GRADER KIT gradescope
#     Gradescope's default container: 768 MiB of memory and half a CPU. Forced to 5 jobs, the
#     solutions still score full marks (a compiler the kernel kills is built again alone);
#     left to choose, the grader runs 1 job and says why.
#   platform_profile.sh GRADER KIT starved
#     A memory limit of 100 MiB, where the grader fits (about 30 MiB) and no compile against
#     Eigen does (about 200 MiB): every compiler is killed from outside, twice, and the
#     exercise is the grader's fault (status grader_fault, exit 2), never the student's
#     build_error, and nothing of it is remembered in the build cache.
#   platform_profile.sh GRADER KIT runner-starved
#     A runner whose read touches 256 MiB (well inside its own limits) in a cgroup of 160 MiB:
#     the kernel kills it from outside, twice (the second time alone), and read's checks are
#     the grader's fault (exit 2), never the submission's crash.
# Each run compiles afresh: the sources carry a comment of their own, so the cache has them not.
set -euo pipefail
grader=$1 kit=$2 mode=$3

[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root to make a cgroup"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/platform-profile-XXXXXX")
# shellcheck source=tests/grader/cgroup_limits.sh
. "$(dirname "$0")/cgroup_limits.sh"
cleanup() {
  cgroup_remove_all
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && tail -n 40 "$work/out.txt"; exit 1; }
make_group() { cgroup_make "$@" || { echo "SKIPPED: no cgroup can be made here"; exit 77; }; }
in_group() {
  cgroup_run "$work/out.txt" "$@"
  code=$cgroup_code
}

# The solutions, each with a comment no cached build has seen.
fresh_solutions() {
  local dir=$1 file
  cp -r "$kit/solutions" "$dir"
  for file in "$dir"/*/*.cpp; do printf '\n// platform profile %s %s\n' "$$" "$RANDOM$RANDOM" >>"$file"; done
}

value() {  # value REPORT.json PYTHON-EXPRESSION-OF-r
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

case "$mode" in
gradescope)
  make_group $((768 << 20)) 50000
  fresh_solutions "$work/forced"
  kills_before=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
  in_group "$grader" grade "$work/forced" --jobs 5 --json "$work/forced.json"
  kills=$(($(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat) - ${kills_before:-0}))
  echo "forced: the kernel's out-of-memory killer killed $kills processes during the grade"
  [ "$code" = 0 ] || fail "5 jobs in 768 MiB and half a CPU: exit $code, not 0 (full marks)"
  [ "$(value "$work/forced.json" 'r["score"] == r["max_score"] > 0')" = True ] || fail "not full marks"
  [ "$(value "$work/forced.json" 'r["jobs"]["count"]')" = 5 ] || fail "--jobs 5 was not taken"
  echo "forced: $(value "$work/forced.json" 'r["jobs"]["why"]'), score $(value "$work/forced.json" 'r["score"]')/$(value "$work/forced.json" 'r["max_score"]')"

  fresh_solutions "$work/chosen"
  in_group "$grader" grade "$work/chosen" --only flops --json "$work/chosen.json"
  [ "$code" = 0 ] || fail "left to choose in 768 MiB and half a CPU: exit $code, not 0"
  why=$(value "$work/chosen.json" 'r["jobs"]["why"]')
  echo "chosen: $why"
  [ "$(value "$work/chosen.json" 'r["jobs"]["count"]')" = 1 ] || fail "not 1 job: $why"
  [[ $why == *"CPU quota of 0.5 CPUs"* || $why == *"768 MiB memory limit"* ]] ||
    fail "the reason names neither the quota nor the memory limit: $why"
  grep -q "^Ran 1 job: " "$work/out.txt" || fail "the terminal report does not say how many jobs ran"
  ;;
starved)
  make_group $((100 << 20)) 0
  fresh_solutions "$work/starved"
  in_group "$grader" grade "$work/starved" --only memory --jobs 2 --json "$work/starved.json"
  [ "$code" = 2 ] || fail "every compile killed: exit $code, not 2 (the grader's fault)"
  statuses=$(value "$work/starved.json" 'sorted({c["status"] for e in r["exercises"] for c in e["checks"]})')
  echo "statuses: $statuses"
  [ "$statuses" = "['grader_fault']" ] || fail "statuses $statuses, not only grader_fault"
  grep -q "ran short of memory" "$work/starved.json" || fail "no message says the machine ran short"
  grep -q "killed from outside" "$work/starved.json" || fail "no message says the compiler was killed"

  # Nothing was remembered: with room, the same text builds and passes.
  make_group $((4096 << 20)) 0
  in_group "$grader" grade "$work/starved" --only memory --json "$work/roomy.json"
  [ "$code" = 0 ] || fail "the same file with room to compile: exit $code, not 0"
  ;;
runner-starved)
  fresh_solutions "$work/heavy"
  file="$work/heavy/memory/memory.cpp"
  python3 - "$file" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
head = "Vector read(const Matrix& S, const Vector& q) {\n"
assert head in text
touch = ("  {  // 256 MiB touched, inside the check's own limits\n"
         "    Vector big = Vector::Ones(32 << 20);\n"
         "    if (big.sum() < 0) return big;\n"
         "  }\n")
open(path, "w").write(text.replace(head, head + touch, 1))
PY
  # Built first with room (the compile is not what this case is about), then graded tight.
  make_group $((4096 << 20)) 0
  in_group "$grader" grade "$work/heavy" --only memory --json "$work/roomy.json"
  [ "$code" = 0 ] || fail "with room, the heavy read still passes: exit $code, not 0"
  make_group $((160 << 20)) 0
  in_group "$grader" grade "$work/heavy" --only memory --jobs 2 --json "$work/tight.json"
  [ "$code" = 2 ] || fail "every runner of read killed: exit $code, not 2 (the grader's fault)"
  statuses=$(value "$work/tight.json" 'sorted({c["status"] for e in r["exercises"] for c in e["checks"] if c["function"] == "read"})')
  others=$(value "$work/tight.json" 'sorted({c["status"] for e in r["exercises"] for c in e["checks"] if c["function"] != "read"})')
  echo "read: $statuses; the others: $others"
  [ "$statuses" = "['grader_fault']" ] || fail "read's statuses $statuses, not only grader_fault"
  [ "$others" = "['passed']" ] || fail "the other functions' statuses $others, not passed"
  grep -q "its runner was killed from outside its limits" "$work/tight.json" ||
    fail "no message says the runner was killed from outside"
  ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
echo "ok"
