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

# Two stopgaps for the namespaces layer, needed until the grader itself handles them (see the
# README, "Ubuntu 22.04 and 24.04 roots with user namespaces allowed"):
# - The grader starts bubblewrap from the folder the compiler will see inside the sandbox,
#   /work, so that folder must also exist outside it. Ubuntu's images have no /work.
mkdir -p /work 2>/dev/null || true
# - The grader sizes its tmpfs folders with bubblewrap's --size, which came with bubblewrap
#   0.7.0; Ubuntu 22.04 ships 0.6.1. Where user namespaces are allowed, the grader would pick
#   namespaces and then fail every compile ("Unknown option --size"). Such an image grades
#   with the chroot layer instead: run_autograder reads the file `isolation` written here.
bwrap_help=$(bwrap --help 2>&1 || true)
if command -v bwrap >/dev/null 2>&1 && [[ $bwrap_help != *--size* ]]; then
  echo chroot >"$HERE/isolation"
  echo "setup.sh: $(bwrap --version 2>&1) has no --size (0.7.0 and newer have it): submissions will be graded with the chroot layer"
else
  rm -f "$HERE/isolation"
fi
