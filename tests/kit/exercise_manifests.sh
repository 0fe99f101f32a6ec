#!/usr/bin/env bash
# kit/exercise-manifests: each exercise's manifest (exercises/<ex>/.meta/config.json) is the
# whole truth about its folder: it names every file there exactly once, under a known role, and
# nothing that is not there; its "order" is a whole number no other exercise has. The build
# takes an exercise's grader files from the manifest, so a file it forgets is a file the build
# never sees, and a release would ship or drop it by mistake.
# usage: exercise_manifests.sh KIT_DIR
set -u
KIT_DIR=$1
python3 - "$KIT_DIR" <<'PY'
import json, os, sys
kit = sys.argv[1]
roles = {"student", "header", "handout", "hints", "try", "api", "checks", "oracle", "judge_tests",
         "solution_tests", "stub_tests", "corpus"}
problems, orders, seen = [], {}, 0
for name in sorted(os.listdir(os.path.join(kit, "exercises"))):
    folder = os.path.join(kit, "exercises", name)
    manifest = os.path.join(folder, ".meta", "config.json")
    if not os.path.isdir(folder) or name == "common":
        continue
    if not os.path.isfile(manifest):
        problems.append("exercises/%s/ has no .meta/config.json" % name)
        continue
    seen += 1
    config = json.load(open(manifest))
    order = config.get("order")
    if not isinstance(order, int) or order < 0:
        problems.append("%s: \"order\" is not a whole number" % name)
    elif order in orders:
        problems.append("%s and %s have the same order %d" % (orders[order], name, order))
    else:
        orders[order] = name
    named = []
    for role, files in config.get("files", {}).items():
        if role not in roles:
            problems.append("%s: unknown role %r (known: %s)" % (name, role, ", ".join(sorted(roles))))
        named += files
    for f in named:
        if named.count(f) > 1:
            problems.append("%s: %s is named twice" % (name, f))
        if not os.path.isfile(os.path.join(folder, f)):
            problems.append("%s: the manifest names %s, which is not there" % (name, f))
    on_disk = sorted(os.path.relpath(os.path.join(r, f), folder)
                     for r, _, fs in os.walk(folder) for f in fs
                     if not f.endswith((".pyc", ".swp")))
    for f in on_disk:
        if f != ".meta/config.json" and f not in named:
            problems.append("%s: %s is in the folder but not in the manifest" % (name, f))
    for role in ("student", "header", "handout", "api", "checks"):
        if not config.get("files", {}).get(role):
            problems.append("%s: the manifest names no %s file" % (name, role))
if seen == 0:
    problems.append("no exercise has a manifest")
for p in problems:
    print("FAILED:", p)
if not problems:
    print("PASSED: %d manifests, each naming every file of its folder once" % seen)
sys.exit(1 if problems else 0)
PY
