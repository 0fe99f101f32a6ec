#!/usr/bin/env bash
# Builds the grader of this pack where it lies: the Containerfile runs it on its copy in
# /opt/linattn, and the entrypoint on a scratch copy when the image has none. The packages are
# the image's (the Containerfile installs them); `kit setup` finds them there and builds.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
chmod +x "$HERE/kit/kit" "$HERE/entrypoint"
"$HERE/kit/kit" setup
# Under the sandbox's chroot layer (a container where bubblewrap cannot make namespaces)
# student code runs as an unprivileged user id: the kit, its reference and course key must be
# closed to it.
chmod 700 "$HERE/kit"
