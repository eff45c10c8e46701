#!/usr/bin/env bash
# Runs the whole test suite (unit and end-to-end) under AddressSanitizer and ThreadSanitizer.
#
#   scripts/sanitizers.sh [address] [thread]     (default: both)
#
# Each sanitizer builds into its own scratch path (.build/address, .build/thread), so the normal
# debug build is untouched; the end-to-end tests then run the sanitized ghlogin binary that sits
# next to the test bundle. GHLOGIN_SANITIZER tells the tests which sanitizer is on: the hostile
# loopback test then reports peak memory without bounding it (ASan's shadow memory and TSan's
# history make RSS meaningless) and allows the callback 10 s instead of 2 s.
# Leaks inside the toolchain's XCTest and Foundation (used by the tests, not by ghlogin) are
# suppressed through scripts/lsan-suppressions.txt; scripts/tsan-suppressions.txt suppresses
# nothing (test code shares state through GHLoginTestSupport's TestLock, a pthread mutex TSan
# sees, not the futex-based Synchronization.Mutex it cannot); any sanitizer report fails the run. No test is skipped under either sanitizer.
# Logs go to .build/sanitizers-NAME.log; prints a summary and exits 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(address thread)
failed=0
for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in address | thread) ;; *) echo "unknown sanitizer: $sanitizer" >&2; exit 2 ;; esac
  log=.build/sanitizers-$sanitizer.log
  mkdir -p .build
  started=$SECONDS
  LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0" \
    TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt:print_suppressions=0" \
    GHLOGIN_SANITIZER=$sanitizer swift test --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" >"$log" 2>&1
  status=$?
  summary=$(grep -E '^(✔|✘|━) Test run with' "$log" | tail -1)
  xctest=$(grep -E 'Executed [0-9]+ tests' "$log" | tail -1 | sed 's/^[[:space:]]*//')
  reports=$(grep -cE '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread|Leak)Sanitizer)' "$log")
  echo "$sanitizer: exit $status in $((SECONDS - started)) s; ${summary:-no Swift Testing summary}; ${xctest:-no XCTest summary}; sanitizer reports: $reports"
  if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    failed=1
    grep -E '✘|==ERROR|WARNING: ThreadSanitizer|SUMMARY:' "$log" | head -20 | sed 's/^/  /'
  fi
done
exit $failed
