#!/usr/bin/env python3
"""Replays a GitHub Actions workflow on this machine, step by step, as the YAML says.

usage: actions_replay.py WORKFLOW STATE CONTEXT.json

The jobs run in the order their `needs` give, each matrix job once per combination, each in a
workspace of its own under STATE/jobs/. `run:` steps run as written (their `${{ }}` expressions
filled in, the env that the workflow, job and step give, GitHub's default variables, the shell
the step names). Steps that use an action are simulated by what the action does to files:

  actions/checkout           copies CONTEXT's "kit" (or, with `repository:`, CONTEXT's
                             "repositories"[name]) into the workspace (or `path:`)
  actions/cache              restores the newest saved entry of the key (or of a restore-key
                             prefix) from STATE/cache/, and saves `path` there after the job
  actions/upload-artifact    copies the files under `path` into STATE/artifacts/NAME/: only
                             files, so an empty folder is dropped, and no hidden files (the
                             action's defaults); with no file at all, no artifact is made
  actions/download-artifact  copies each artifact `name:` or `pattern:` selects into `path`,
                             one folder per artifact unless merge-multiple

An expression the replay does not know, an action it does not simulate, or an `if:` stops the
replay with an error: a workflow that grows past what is simulated here must grow the replay
too, never pass unnoticed. CONTEXT.json gives "kit", "repositories", "inputs", "secrets",
"env" (added to every run step's environment: PATH, the kit's build folder) and "run_id".
Writes STATE/result.json (every job's name and outcome) and exits 0 when every job succeeded.
"""
import fnmatch
import glob
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

import yaml


class Unsupported(Exception):
    pass


def log(text):
    print("[replay] " + text, flush=True)


def hash_files(workspace, patterns):
    """hashFiles(): a digest of the files the patterns match, "" when none does."""
    files = set()
    for pattern in patterns:
        for path in glob.glob(os.path.join(workspace, pattern), recursive=True):
            if os.path.isfile(path):
                files.add(path)
    if not files:
        return ""
    digest = hashlib.sha256()
    for path in sorted(files):
        with open(path, "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()


def evaluate(expr, ctx):
    """One `${{ }}` expression: a context's value, a string literal, or hashFiles(...)."""
    expr = expr.strip()
    m = re.fullmatch(r"hashFiles\((.*)\)", expr)
    if m:
        args = re.findall(r"'([^']*)'", m.group(1))
        if not args:
            raise Unsupported("hashFiles() without patterns: " + expr)
        return hash_files(ctx["github"]["workspace"], args)
    m = re.fullmatch(r"'([^']*)'", expr)
    if m:
        return m.group(1)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*", expr):
        raise Unsupported("an expression the replay does not evaluate: ${{ %s }}" % expr)
    value = ctx
    for part in expr.split("."):
        if not isinstance(value, dict) or part not in value:
            raise Unsupported("an unknown context value: ${{ %s }}" % expr)
        value = value[part]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fill(text, ctx):
    if not isinstance(text, str):
        return text
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: evaluate(m.group(1), ctx), text)


def copy_tree(src, dst):
    os.makedirs(dst, exist_ok=True)
    shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)


def upload(state, name, path, workspace):
    """upload-artifact: files only (folders are not stored), hidden files left out."""
    root = os.path.join(workspace, path)
    store = os.path.join(state, "artifacts", name)
    if os.path.exists(store):
        raise Unsupported("two uploads of the artifact " + name + " (v4 refuses the second)")
    kept = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if f.startswith("."):
                continue
            src = os.path.join(folder, f)
            dst = os.path.join(store, os.path.relpath(src, root))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            kept += 1
    if kept == 0:
        log("warning: no files found under %s: no artifact %s" % (path, name))
    else:
        log("artifact %s: %d file(s)" % (name, kept))


def download(state, given, workspace):
    store = os.path.join(state, "artifacts")
    names = sorted(os.listdir(store)) if os.path.isdir(store) else []
    dest = os.path.join(workspace, given.get("path", "."))
    if "name" in given:
        if given["name"] not in names:
            raise RuntimeError("no artifact named " + given["name"])
        copy_tree(os.path.join(store, given["name"]), dest)
        return
    chosen = [n for n in names if fnmatch.fnmatchcase(n, given.get("pattern", "*"))]
    merge = str(given.get("merge-multiple", "false")).lower() == "true"
    for name in chosen:
        copy_tree(os.path.join(store, name), dest if merge else os.path.join(dest, name))
    log("downloaded %d artifact(s): %s" % (len(chosen), " ".join(chosen)))


def restore_cache(state, key, restore_keys, path):
    store = os.path.join(state, "cache")
    saved = sorted(os.listdir(store)) if os.path.isdir(store) else []
    hit = key if key in saved else None
    for prefix in restore_keys if hit is None else []:
        matches = [k for k in saved if k.startswith(prefix)]
        if matches:
            hit = matches[-1]
            break
    if hit:
        copy_tree(os.path.join(store, hit), path)
    log("cache %s: %s" % (key, "restored from " + hit if hit else "miss"))
    return hit == key


def save_cache(state, key, path):
    store = os.path.join(state, "cache", key)
    if os.path.exists(store) or not os.path.isdir(path):
        return
    copy_tree(path, store)
    log("cache %s: saved" % key)


def shell_command(shell, script):
    if shell in (None, "bash"):
        # GitHub's own: `bash -e {0}` without a shell key, with `shell: bash` -o pipefail too.
        return (["bash", "-e", script] if shell is None else
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", script])
    if shell == "sh":
        return ["sh", "-e", script]
    raise Unsupported("the shell " + str(shell))


def run_job(state, wf, job_id, job, matrix, index, total, context):
    label = job_id + ("" if not matrix else " " + json.dumps(matrix, sort_keys=True))
    home = os.path.join(state, "jobs", "%s-%d" % (job_id, index + 1))
    workspace = os.path.join(home, "work")
    temp = os.path.join(home, "temp")
    os.makedirs(workspace)
    os.makedirs(temp)
    files = {k: os.path.join(home, k) for k in ("output", "env", "summary", "path")}
    for f in files.values():
        open(f, "w").close()
    ctx = {
        "github": {"workspace": workspace, "run_id": context["run_id"], "event_name": "workflow_dispatch"},
        "runner": {"os": "Linux", "temp": temp, "arch": "X64"},
        "inputs": context["inputs"],
        "secrets": context["secrets"],
        "matrix": matrix,
        "strategy": {"job-index": index, "job-total": total, "fail-fast": False},
        "steps": {},
        "env": {},
    }
    if "if" in job:
        raise Unsupported("a job's if: (" + job_id + ")")
    log("job %s" % label)
    saves = []
    ok = True
    for number, step in enumerate(job["steps"], 1):
        name = step.get("name", step.get("uses", "run"))
        if "if" in step:
            raise Unsupported("a step's if: (" + name + ")")
        if not ok:
            log("  skipped: " + name)
            continue
        log("  step %d: %s" % (number, name))
        given = {k: fill(v, ctx) for k, v in (step.get("with") or {}).items()}
        uses = step.get("uses")
        if uses:
            action = uses.split("@")[0]
            if action == "actions/checkout":
                if "repository" in given:
                    src = context["repositories"][given["repository"]]
                else:
                    src = context["kit"]
                copy_tree(src, os.path.join(workspace, given.get("path", ".")))
            elif action == "actions/cache":
                path = os.path.join(workspace, given["path"])
                if not given.get("key"):
                    raise RuntimeError("the cache step has no key")
                restore_keys = [k for k in given.get("restore-keys", "").splitlines() if k.strip()]
                restore_cache(state, given["key"], restore_keys, path)
                saves.append((given["key"], path))
            elif action == "actions/upload-artifact":
                upload(state, given["name"], given["path"], workspace)
            elif action == "actions/download-artifact":
                download(state, given, workspace)
            else:
                raise Unsupported("the action " + uses)
            continue
        script = os.path.join(home, "step-%d.sh" % number)
        with open(script, "w") as f:
            f.write(fill(step["run"], ctx))
        env = dict(os.environ)
        env.update(context["env"])
        env.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace,
            "GITHUB_RUN_ID": str(context["run_id"]), "RUNNER_TEMP": temp, "RUNNER_OS": "Linux",
            "GITHUB_OUTPUT": files["output"], "GITHUB_ENV": files["env"],
            "GITHUB_STEP_SUMMARY": files["summary"], "GITHUB_PATH": files["path"],
        })
        for level in (wf.get("env"), job.get("env"), step.get("env")):
            for k, v in (level or {}).items():
                env[k] = fill(str(v), ctx)
        open(files["output"], "w").close()
        cwd = os.path.join(workspace, step.get("working-directory", "."))
        code = subprocess.call(shell_command(step.get("shell"), script), cwd=cwd, env=env)
        outputs = {}
        with open(files["output"]) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    outputs[k] = v
        if "id" in step:
            ctx["steps"][step["id"]] = {"outputs": outputs}
        if code != 0:
            log("  failed (exit status %d): %s" % (code, name))
            ok = False
    # Post-job: actions/cache saves when the job succeeded and the key was not there yet.
    for key, path in saves if ok else []:
        save_cache(state, key, path)
    log("job %s: %s" % (label, "success" if ok else "failure"))
    return ok


def matrix_of(job):
    matrix = (job.get("strategy") or {}).get("matrix")
    if not matrix:
        return [{}]
    if "include" in matrix or "exclude" in matrix:
        raise Unsupported("matrix include/exclude")
    keys = sorted(matrix)
    return [dict(zip(keys, values)) for values in itertools.product(*(matrix[k] for k in keys))]


def main():
    workflow, state, context_file = sys.argv[1:4]
    with open(workflow) as f:
        wf = yaml.safe_load(f)
    with open(context_file) as f:
        context = json.load(f)
    os.makedirs(state, exist_ok=True)
    done, outcome, results = set(), {}, []
    jobs = wf["jobs"]
    while len(done) < len(jobs):
        ready = [j for j in jobs if j not in done and all(
            n in done for n in ([jobs[j]["needs"]] if isinstance(jobs[j].get("needs"), str)
                                else jobs[j].get("needs", [])))]
        if not ready:
            raise Unsupported("jobs whose needs cannot be met")
        for job_id in ready:
            job = jobs[job_id]
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            combos = matrix_of(job)
            ok = True
            for index, matrix in enumerate(combos):
                if not all(outcome[n] for n in needs):
                    results.append({"job": job_id, "matrix": matrix, "outcome": "skipped"})
                    ok = False
                    continue
                good = run_job(state, wf, job_id, job, matrix, index, len(combos), context)
                results.append({"job": job_id, "matrix": matrix,
                                "outcome": "success" if good else "failure"})
                ok = ok and good
            outcome[job_id] = ok
            done.add(job_id)
    with open(os.path.join(state, "result.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0 if all(outcome.values()) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Unsupported as e:
        print("[replay] not simulated: %s" % e, file=sys.stderr)
        sys.exit(3)
