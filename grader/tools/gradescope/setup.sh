#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: install what the kit
# needs (through the kit's own dependency step) and build the grader, so that grading a
# submission later compiles only the student's files.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
chmod +x "$HERE/kit/kit" "$HERE/run_autograder" 2>/dev/null || true
"$HERE/kit/kit" setup
# Under the chroot layer (a container where bubblewrap cannot make namespaces) compilers run
# as an unprivileged user id: the kit, its reference and its build must be closed to it.
chmod 700 "$HERE/kit"
