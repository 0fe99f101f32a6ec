#!/usr/bin/env bash
# Two graders at once on one machine, one of them grading a hostile submission whose `read`
# spends five seconds looking through /proc for other runners (the victim's included) and
# killing every one it finds. The victim, the untouched solutions, must still score 100: runners
# live in process namespaces of their own (or, in the chroot layer, chrooted without /proc under
# user ids no other grader shares), so there is nothing to find.
#
# usage: concurrent_graders.sh GRADER KIT_DIR
set -euo pipefail
grader=$1
kit=$2
work=$(mktemp -d /tmp/linattn-concurrent-XXXXXX)
trap 'rm -rf "$work"' EXIT

cp -r "$kit/solutions" "$work/victim"
cp -r "$kit/solutions" "$work/hostile"
python3 - "$work/hostile/memory/memory.cpp" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
head = "Vector read(const Matrix& S, const Vector& q) {\n"
assert head in text
attack = head + r'''  {  // hostile: kill every other runner this process can see
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < until) {
      if (DIR* proc = ::opendir("/proc")) {
        while (dirent* e = ::readdir(proc)) {
          const int pid = std::atoi(e->d_name);
          if (pid <= 1 || pid == ::getpid()) continue;
          std::ifstream comm(std::string("/proc/") + e->d_name + "/comm");
          std::string name;
          std::getline(comm, name);
          if (name == "runner" || name.rfind("run-", 0) == 0) ::kill(pid, SIGKILL);
        }
        ::closedir(proc);
      }
    }
  }
'''
text = "#include <chrono>\n#include <csignal>\n#include <cstdlib>\n#include <dirent.h>\n#include <fstream>\n#include <string>\n#include <unistd.h>\n" + text.replace(head, attack)
open(path, "w").write(text)
PY

# Both are built first (a cold build takes seconds, long enough for the attack to miss);
# then the hostile grade starts, its first attack within a fraction of a second, and lasts
# five seconds a check, over the whole of the victim's grade.
"$grader" "$work/victim" --quiet >/dev/null 2>&1 || true
"$grader" "$work/hostile" --only memory --quiet >/dev/null 2>&1 || true
"$grader" "$work/hostile" --only memory --quiet --json "$work/hostile.json" >/dev/null 2>&1 &
hostile_pid=$!
sleep 0.5
"$grader" "$work/victim" --only causal --quiet --json "$work/victim.json" >/dev/null 2>&1 || true
"$grader" "$work/victim" --only memory --quiet --json "$work/victim-memory.json" >/dev/null 2>&1 || true
wait "$hostile_pid" || true

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
bad = []
for name in ("victim.json", "victim-memory.json"):
    r = json.load(open(f"{work}/{name}"))
    for ex in r["exercises"]:
        for c in ex["checks"]:
            if c["status"] != "passed":
                bad.append(f"{name}: {ex['name']}/{c['name']}: {c['status']}: {c['message'][:200]}")
h = json.load(open(f"{work}/hostile.json"))
if bad:
    print("FAILED: the victim lost points while a hostile grade ran beside it:")
    print("\n".join(bad))
    sys.exit(1)
print("victim kept every point; hostile memory score:", h["score"], "isolation:", h.get("isolation"))
PY
