#!/usr/bin/env bash
# Crash safety of the credentials file, the long run: kills `ghlogin logout` with SIGKILL at
# random moments (and, every fifth time, with GHLOGIN_TEST_FAULT=kill-before-rename) while it
# rewrites credentials.json, ITERATIONS times (default 200), checking after each kill that the
# file parses, holds the old or the new bytes, is 0600, and that at most one 0600 temp file is
# left (removed by the next write). The test suite runs the same loop 20 times.
#
#   scripts/crash-loop.sh [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-200}
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
GHLOGIN_CRASH_ITERATIONS=$iterations swift test --skip-build \
  --filter 'CrashSafetyTests/killedRewritesLeaveTheOldOrTheNewFile' >"$log" 2>&1 || status=$?
grep -E 'crash-safety:|✘|Expectation failed' "$log" || true
if [ "$status" -ne 0 ] || ! grep -q 'Test run with 1 test .*passed' "$log"; then
  cat "$log" >&2
  echo "crash-loop: FAILED" >&2
  exit 1
fi
echo "crash-loop: $iterations iterations passed"
