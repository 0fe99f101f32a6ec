# shellcheck shell=bash
# A platform's limits made real with a cgroup of this machine's (root only), for the tests that
# grade as Gradescope's container or a small cluster node would. Sourced, not run:
#   cgroup_make MEMORY_BYTES CPU_QUOTA_US   a child cgroup of our own with those limits (the
#                                           quota of a 100000 us period; 0: none); returns 1
#                                           where none can be made
#   cgroup_run OUT COMMAND...               COMMAND inside the newest one, its output in OUT,
#                                           its exit status in $cgroup_code
#   cgroup_remove_all                       every cgroup made, anything left in it moved out
# cgroup v2 (one hierarchy) or v1 (a hierarchy per controller, as on this kind of machine).
cgroup_groups=()

cgroup_make() {
  local memory=$1 quota=$2 name="linattn-limits-$$-${#cgroup_groups[@]}" own g controller
  [ "$(id -u)" = 0 ] || return 1
  if grep -q ' - cgroup2 ' /proc/self/mountinfo && [ -f /sys/fs/cgroup/cgroup.controllers ] &&
     grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
    own=$(sed -n 's/^0:://p' /proc/self/cgroup)
    g=/sys/fs/cgroup${own%/}/$name
    echo "+memory +cpu" >"/sys/fs/cgroup${own%/}/cgroup.subtree_control" 2>/dev/null || true
    mkdir "$g" || return 1
    cgroup_groups+=("$g")
    echo "$memory" >"$g/memory.max"
    echo 0 >"$g/memory.swap.max" 2>/dev/null || true
    [ "$quota" = 0 ] || echo "$quota 100000" >"$g/cpu.max"
    return 0
  fi
  [ -d /sys/fs/cgroup/memory ] && [ -d /sys/fs/cgroup/cpu ] || return 1
  for controller in memory cpu; do
    own=$(awk -F: -v c="$controller" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' /proc/self/cgroup)
    g=/sys/fs/cgroup/$controller${own%/}/$name
    mkdir "$g" || return 1
    cgroup_groups+=("$g")
  done
  echo "$memory" >"${cgroup_groups[-2]}/memory.limit_in_bytes"
  echo "$memory" >"${cgroup_groups[-2]}/memory.memsw.limit_in_bytes" 2>/dev/null || true
  [ "$quota" = 0 ] || echo "$quota" >"${cgroup_groups[-1]}/cpu.cfs_quota_us"
}

cgroup_run() {
  local out=$1 joins
  shift
  if [[ ${cgroup_groups[-1]} == /sys/fs/cgroup/cpu/* ]]; then  # v1: memory and cpu
    joins="echo \$\$ >'${cgroup_groups[-2]}/cgroup.procs'; echo \$\$ >'${cgroup_groups[-1]}/cgroup.procs';"
  else
    joins="echo \$\$ >'${cgroup_groups[-1]}/cgroup.procs';"
  fi
  set +e
  bash -c "$joins exec \"\$@\"" in-cgroup "$@" >"$out" 2>&1
  # shellcheck disable=SC2034  # read by the sourcing script
  cgroup_code=$?
  set -e
}

cgroup_remove_all() {
  local g pid
  for g in "${cgroup_groups[@]}"; do
    while read -r pid; do echo "$pid" >"$(dirname "$g")/cgroup.procs" 2>/dev/null || true; done \
      <"$g/cgroup.procs" 2>/dev/null || true
    rmdir "$g" 2>/dev/null || true
  done
  cgroup_groups=()
}
