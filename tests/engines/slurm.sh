#!/usr/bin/env bash
# Sharded grading on a real Slurm (label `engines`, issue 33): a cluster of one node on localhost
# (munged, slurmctld, slurmd, each with its own configuration, key, sockets, state and logs in a
# scratch folder, on ports nothing else uses), the instructors' guide's command (docs/instructors.md) run as written
# from a copy of the kit (the job array of grader/tools/sharded-grading/grade-class.slurm, then
# the merge job it queues), and the merged gradebook and exports compared byte for byte with
# one unsharded grade-all run of the same class. The daemons are always stopped.
# Needs root (the daemons, and SlurmUser=root) and the packages slurm-wlm and munge, which
# `./kit test` installs as root; without them the test is skipped (exit 77), saying why.
# usage: slurm.sh GRADER KIT_DIR
set -u
# Absolute paths: the runs below start in the kit's copy.
GRADER=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KIT_DIR=$(cd "$2" && pwd)
BUILD_DIR=$(cd "$(dirname "$GRADER")/.." && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "the Slurm test runs its own slurmctld, slurmd and munged, which needs root"
PATH=$PATH:/usr/sbin:/sbin
for program in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
  command -v "$program" >/dev/null 2>&1 ||
    skip "$program is not installed (the packages slurm-wlm and munge: ./kit test installs them as root)"
done

work=$(mktemp -d /tmp/linattn-slurm.XXXXXX)
chmod 755 "$work"
out=$work/out.log
: >"$out"
started=$(date +%s)
say() { echo "[$(($(date +%s) - started)) s] $*"; }

# Stops what this test started, by the process ids the daemons wrote, and waits for them.
stop_daemons() {
  local pidfile pid
  scancel --quiet --user=root >/dev/null 2>&1 || true
  for pidfile in "$work/slurm/slurmd.pid" "$work/slurm/slurmctld.pid" "$work/munge/munged.pid"; do
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
}
cleanup() { stop_daemons; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
  echo "FAILED: $*"
  echo "--- output ---"; tail -n 40 "$out"
  local log
  for log in "$work"/slurm/*.log "$work"/munge/*.log "$work"/kit/grades-shards/*.out \
    "$work"/kit/grades-shards/*/*.out; do
    [ -f "$log" ] && { echo "--- $log ---"; tail -n 25 "$log"; }
  done
  exit 1
}

# A port for each daemon that nothing listens on (ss lists the listening ones).
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    if ! ss -Htln "sport = :$port" 2>/dev/null | grep -q .; then echo "$port"; return; fi
  done
}

# --- munge: its own key, socket, pid file, log and seed ----------------------------------------
mkdir -p "$work/munge"
chmod 755 "$work/munge"  # the socket is reached through it; the key itself is 0600
mungekey --create --keyfile="$work/munge/munge.key" >>"$out" 2>&1 || fail "mungekey could not make a key"
# munged checks that its folders are not writable by others; --force accepts /tmp's sticky bit.
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" >>"$out" 2>&1 || fail "munged did not start"

# --- slurm: one node, localhost, the node's real CPUs and its memory less a margin -------------
cpus=$(nproc)
memory=$(free -m | awk '/^Mem:/ { print $2 }')
memory=$((memory - 1024))
[ "$memory" -ge 3072 ] || skip "the node has $((memory + 1024)) MB of memory; a shard asks for 3 GB"
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
mkdir -p "$work/slurm/state" "$work/slurm/spool"
conf=$work/slurm/slurm.conf
cat >"$conf" <<CONF
ClusterName=linattn-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
# Finished jobs stay listed for an hour: their state and exit code are read after they end.
MinJobAge=3600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=grading Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
slurmctld -c -f "$conf" >>"$out" 2>&1 || fail "slurmctld did not start"
slurmd -f "$conf" -N localhost >>"$out" 2>&1 || fail "slurmd did not start"
for _ in $(seq 1 60); do
  state=$(sinfo -h -N -o %T 2>>"$out")
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || fail "the node is not idle after 60 s (it is '$state')"
say "Slurm is up: node localhost, $cpus CPUs, $memory MB, ports $ctld_port and $slurmd_port"

# --- the kit and the class ----------------------------------------------------------------------
# A copy of the kit (the grader's build stays where it is: LINATTN_BUILD_DIR), so that the runs
# write their course key, grades-shards/ and grades/ in scratch, not in the source tree.
kit=$work/kit
mkdir -p "$kit"
tar -C "$KIT_DIR" --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./out \
  --exclude=./course-key --exclude=./grades --exclude=./grades-shards -cf - . | tar -C "$kit" -xf - ||
  fail "cannot copy the kit"
export LINATTN_BUILD_DIR=$BUILD_DIR NO_COLOR=1
# A quick assignment (two exercises whose checks take seconds), a file the script's
# LINATTN_ASSIGNMENT names (the grader reads the assignments/ of the tree it was built from).
cat >"$work/engines-quick.json" <<'JSON'
{ "title": "Two quick exercises", "exercises": [ { "name": "flops", "points": 10 },
  { "name": "random_features", "points": 20 } ] }
JSON
export LINATTN_ASSIGNMENT=$work/engines-quick.json
S=$kit/solutions
E=$kit/exercises
class=$kit/submissions
for s in ada bob cy dee eve; do mkdir -p "$class/$s"; done
for s in ada dee; do cp "$S/flops/flops.cpp" "$S/random_features/random_features.cpp" "$class/$s/"; done
cp "$E/flops/flops.cpp" "$E/random_features/random_features.cpp" "$class/bob/"
cp "$S/flops/flops.cpp" "$E/random_features/random_features.cpp" "$class/cy/"
cp "$S/random_features/random_features.cpp" "$class/eve/"
printf 'folder,id,name\nada,1,Ada\nbob,2,Bob\ncy,3,Cy\ndee,4,Dee\neve,5,Eve\ngus,6,Gus\n' >"$kit/roster.csv"
# Leftovers of an earlier run with more shards, in the folder the script used before runs had
# folders of their own: a merge that read them would find every student twice.
"$GRADER" --kit "$kit" make-course-key >>"$out" 2>&1 || fail "cannot make the course key"

# --- one unsharded run ------------------------------------------------------------------------
t0=$(date +%s)
(cd "$kit" && "$GRADER" --kit "$kit" grade-all submissions/ --out "$work/whole" \
  --assignment "$LINATTN_ASSIGNMENT" --roster roster.csv) >>"$out" 2>&1 ||
  fail "the unsharded grade-all exited $?"
say "unsharded grade-all: $(($(date +%s) - t0)) s"
mkdir -p "$kit/grades-shards/shard-6"
cp -r "$work/whole/." "$kit/grades-shards/shard-6/"

# --- the instructors' guide's command, as written ----------------------------------------------
guide=$KIT_DIR/docs/instructors.md
readme_line=$(grep -m 1 -E '^ *mkdir -p grades-shards && sbatch ' "$guide" | sed 's/^ *//')
[ -n "$readme_line" ] || fail "docs/instructors.md has no 'mkdir -p grades-shards && sbatch ...' line"
say "running, from the kit's folder: $readme_line"
t0=$(date +%s)
submitted=$(cd "$kit" && bash -c "$readme_line" 2>>"$out") || fail "the guide's command exited $?: $submitted"
echo "$submitted" >>"$out"
array=$(printf '%s\n' "$submitted" | sed -n 's/^Submitted batch job \([0-9][0-9]*\)$/\1/p')
[ -n "$array" ] || fail "sbatch did not say which job it queued: $submitted"

# Waits (20 minutes at most) until the array and the merge job it queues have left the queue.
# A job held for ever (a dependency that can never be met, a partition's limits) fails at once.
merge=""
deadline=$(($(date +%s) + 1200))
while :; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "the jobs did not end within 20 minutes: $(squeue -h 2>&1)"
  queue=$(squeue -h -o '%i %j %T %r' 2>>"$out")
  if printf '%s\n' "$queue" | grep -Eq 'DependencyNeverSatisfied|PartitionConfig|PartitionNodeLimit|Resources.*never'; then
    fail "a job can never start: $queue"
  fi
  [ -z "$merge" ] && merge=$(squeue -h -n linattn-merge -o %i 2>>"$out" | head -n 1)
  if [ -z "$queue" ]; then break; fi
  sleep 5
done
sharded=$(($(date +%s) - t0))
[ -n "$merge" ] || fail "no merge job was queued"
# Each job's end as slurmctld recorded it (no accounting database here, so not sacct).
for job in "$array" "$merge"; do
  scontrol -o show job "$job" 2>>"$out" | grep -o 'JobId=[0-9]* \|ArrayTaskId=[0-9]* \|JobState=[A-Z]* \|ExitCode=[0-9:]* ' |
    paste -sd ' ' >>"$out"
done
states=$(scontrol -o show job "$array" 2>>"$out" | grep -o 'JobState=[A-Z]*' | sort | uniq -c | xargs)
merge_state=$(scontrol -o show job "$merge" 2>>"$out" | grep -o 'JobState=[A-Z]*')
[ "$merge_state" = JobState=COMPLETED ] || fail "the merge job ended $merge_state (the array: $states)"
say "array job $array ($states) and merge job $merge ($merge_state): $sharded s"

# --- the merged class is the unsharded class, byte for byte -------------------------------------
shards=("$kit/grades-shards/$array"/shard-*/)
manifests=("$kit/grades-shards/$array"/shard-*.done)
[ "${#shards[@]}" -ge 2 ] || fail "the array ran ${#shards[@]} shard(s); the guide's script asks for more"
[ "${#manifests[@]}" -eq "${#shards[@]}" ] || fail "${#shards[@]} shards but ${#manifests[@]} manifests"
grep -qx "shard=1/${#shards[@]}" "$kit/grades-shards/$array/shard-1.done" || fail "shard 1's manifest: $(cat "$kit/grades-shards/$array/shard-1.done")"
compared=()
for f in gradebook.csv canvas.csv moodle.csv scores.csv similarity.csv class-report.html; do
  [ -f "$work/whole/$f" ] || continue
  cmp "$work/whole/$f" "$kit/grades/$f" >>"$out" 2>&1 || {
    diff "$work/whole/$f" "$kit/grades/$f" | head -n 20 >>"$out"
    fail "$f differs between one grade-all run and the Slurm run's merged shards"
  }
  compared+=("$f")
done
for f in gradebook.csv canvas.csv; do [ -f "$work/whole/$f" ] || fail "the unsharded run wrote no $f"; done
names() { (cd "$1/reports" && ls) | sort; }
[ "$(names "$kit/grades")" = "$(names "$work/whole")" ] || fail "the merged reports are not the class's"
grep -q '^ada,1,Ada,' "$kit/grades/gradebook.csv" || fail "ada is not in the gradebook"
say "merged outputs identical to the unsharded run: ${compared[*]} (${#shards[@]} shards)"
for s in "${shards[@]}"; do
  say "  $(basename "$s"): $(find "$s/reports" -maxdepth 1 -name '*.json' 2>/dev/null | wc -l) report(s)"
done
echo "PASSED: Slurm ran the guide's command; merged = unsharded"
