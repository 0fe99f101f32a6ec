# shellcheck shell=bash
# Shared by the release tests (kit_release.sh, prairielearn.sh); sourced, not run. The caller
# sets $out (the log that fail shows) and $work (its scratch folder).

# fail MESSAGE: the test fails, with the last lines of the log.
# shellcheck disable=SC2154  # $out and $work are the caller's
fail() {
  echo "FAILED: $*"
  # Which checks lost points, when a class was graded: a CI log then names them.
  if [ -n "${REPORT_TOOL:-}" ] && compgen -G "$work/grades/reports/*.json" >/dev/null; then
    echo "--- checks that lost points ---"
    "$REPORT_TOOL" lost "$work"/grades/reports/*.json
  fi
  echo "--- output ---"; tail -n 60 "$out"; exit 1
}
# now: the time, for took; took START: the seconds since START, one decimal.
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
