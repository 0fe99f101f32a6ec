#!/usr/bin/env python3
"""Size limits of the kit's own C++ code (label `kit`), so that a file or a function stays one
idea a reader can hold:
  files      no file of the grader (grader/**/*.cpp, *.hpp) has more than 450 lines
  functions  no function of the kit's C++ code (grader/, reference/, exercises/ and tests/)
             has more than 80 lines, from its signature to its closing brace, but those listed
             in code_size_debts.txt, each at most as long as listed there: a listed function
             may shrink (then lower or drop its line), never grow, and a function not listed
             may not pass 80 lines.
A function is found as the kit's style writes one: a signature starting at the line's first
column (or the second indent level, a class's method defined in place) and a body closed by a
brace at that same indent.
  selftest   the two rules on a scratch kit: a 451-line grader file, an 81-line function, a
             listed function grown by a line, each refused; at the limits, accepted
usage: code_size.py KIT_DIR {files|functions|selftest}"""
import os
import re
import subprocess
import sys

FILE_LIMIT = 450
FUNCTION_LIMIT = 80
SIGNATURE = re.compile(r"^( {0,2})(?!return\b|if\b|for\b|while\b|else\b|switch\b|case\b)"
                       r"[A-Za-z_][\w:<>,\s*&]*[\s*&]~?[A-Za-z_][\w:~]*\(")


def tracked(kit, folders, suffixes):
    """The kit's files under `folders` (git's list; outside a git checkout, a release's copy,
    every file but those of build folders)."""
    got = subprocess.run(["git", "-C", kit, "ls-files", "--cached", "--others",
                          "--exclude-standard", "--", *folders], capture_output=True, text=True)
    if got.returncode == 0 and os.path.isdir(os.path.join(kit, ".git")):
        paths = got.stdout.split()
    else:
        paths = []
        for top in folders:
            for root, dirs, files in os.walk(os.path.join(kit, top)):
                dirs[:] = [d for d in dirs if not d.startswith(("build", ".git"))]
                paths += [os.path.relpath(os.path.join(root, f), kit) for f in files]
    return sorted(p for p in paths if p.endswith(suffixes) and os.path.isfile(os.path.join(kit, p)))


def functions(path):
    """(name, first line, length) of each function defined in the file."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        m = SIGNATURE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j == len(lines) or lines[j].rstrip().endswith(";"):
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and lines[k] != m.group(1) + "}":
            k += 1
        if k == len(lines):  # no closing brace at its indent: not a function as written here
            i += 1
            continue
        name = re.search(r"(~?[A-Za-z_][\w:~]*)\(", lines[i]).group(1)
        found.append((name, i + 1, k - i + 1))
        i = k + 1
    return found


def selftest():
    import tempfile
    me = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as kit:
        debts = os.path.join(kit, "debts.txt")
        def run(what):
            return subprocess.run([sys.executable, me, kit, what], capture_output=True, text=True,
                                  env={**os.environ, "CODE_SIZE_DEBTS": debts}).returncode
        open(debts, "w").close()
        subprocess.run(["git", "init", "-q", kit], check=True)
        os.makedirs(os.path.join(kit, "grader"))
        big = os.path.join(kit, "grader", "big.cpp")
        def function(name, lines):  # a function of `lines` lines in all
            return f"int {name}(int x) {{\n" + "  x += 1;\n" * (lines - 3) + "  return x;\n}\n"
        results = []
        for lines, want in ((FILE_LIMIT, 0), (FILE_LIMIT + 1, 1)):
            with open(big, "w") as f:
                f.write("// a file\n" * lines)
            results.append((f"a grader file of {lines} lines", run("files"), want))
        os.remove(big)
        for lines, want in ((FUNCTION_LIMIT, 0), (FUNCTION_LIMIT + 1, 1)):
            with open(os.path.join(kit, "grader", "f.cpp"), "w") as f:
                f.write(function("long_one", lines))
            results.append((f"a function of {lines} lines", run("functions"), want))
        with open(debts, "w") as f:
            f.write(f"# a debt\n{FUNCTION_LIMIT + 5} grader/f.cpp long_one\n")
        for lines, want in ((FUNCTION_LIMIT + 5, 0), (FUNCTION_LIMIT + 6, 1)):
            with open(os.path.join(kit, "grader", "f.cpp"), "w") as f:
                f.write(function("long_one", lines))
            results.append((f"a function listed at {FUNCTION_LIMIT + 5} lines, of {lines}",
                            run("functions"), want))
        return results


def main():
    kit, what = sys.argv[1], sys.argv[2]
    problems = []
    if what == "selftest":
        for case, got, want in selftest():
            print(f"{case}: exit {got}, expected {want}")
            if got != want:
                problems.append(f"{case}: the rule answered {got}, not {want}")
        what = "done"
    if what == "files":
        for p in tracked(kit, ["grader"], (".cpp", ".hpp")):
            n = sum(1 for _ in open(os.path.join(kit, p), encoding="utf-8", errors="replace"))
            if n > FILE_LIMIT:
                problems.append(f"{p} has {n} lines (at most {FILE_LIMIT}): split it by idea")
    elif what == "functions":
        debts = {}
        debts_file = os.environ.get("CODE_SIZE_DEBTS") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "code_size_debts.txt")
        for line in open(debts_file, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                length, where = line.split(None, 1)
                debts[where.strip()] = int(length)
        seen = set()
        for p in tracked(kit, ["grader", "reference", "exercises", "solutions", "tests"], (".cpp",)):
            for name, first, length in functions(os.path.join(kit, p)):
                key = f"{p} {name}"
                if key in debts:
                    seen.add(key)
                    if length > debts[key]:
                        problems.append(f"{key} (line {first}) grew to {length} lines; "
                                        f"code_size_debts.txt allows {debts[key]}")
                    elif length < debts[key]:
                        problems.append(f"{key} (line {first}) is down to {length} lines: lower "
                                        f"its line in code_size_debts.txt to {length}"
                                        + (" (or drop it: it is within the limit)"
                                           if length <= FUNCTION_LIMIT else ""))
                elif length > FUNCTION_LIMIT:
                    problems.append(f"{key} (line {first}) has {length} lines (at most "
                                    f"{FUNCTION_LIMIT}): split it")
        for key in sorted(set(debts) - seen):
            problems.append(f"code_size_debts.txt lists {key}, which is not there any more")
        print(f"{len(debts)} functions over {FUNCTION_LIMIT} lines still listed as debts")
    elif what != "done":
        sys.exit(f"usage: {sys.argv[0]} KIT_DIR {{files|functions|selftest}}")
    for p in problems:
        print("PROBLEM:", p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
