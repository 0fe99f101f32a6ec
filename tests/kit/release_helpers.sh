# shellcheck shell=bash
# Shared by the release tests (kit_release.sh, prairielearn.sh); sourced, not run. The caller
# sets $out (the log that fail shows).

# fail MESSAGE: the test fails, with the last lines of the log.
# shellcheck disable=SC2154  # $out is the caller's
fail() { echo "FAILED: $*"; echo "--- output ---"; tail -n 60 "$out"; exit 1; }
# now: the time, for took; took START: the seconds since START, one decimal.
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
