#!/usr/bin/env bash
# GHLoginKit's public API as a text digest (like Go's api/ files), in api/GHLoginKit.txt.
#   scripts/api-digest.sh          rewrite the file from the code
#   scripts/api-digest.sh --check  fail (exit 1, with the diff) when the code's API differs from the file
set -euo pipefail
cd "$(dirname "$0")/.."
symbols=$(scripts/symbol-graph.sh)
if [ "${1:-}" = "--check" ]; then
  python3 scripts/api_digest.py "$symbols"/GHLoginKit.symbols.json > .build/api/GHLoginKit.txt
  if ! diff -u api/GHLoginKit.txt .build/api/GHLoginKit.txt; then
    echo "api-digest: the public API of GHLoginKit changed; if that is intended, run scripts/api-digest.sh" \
      "and commit api/GHLoginKit.txt" >&2
    exit 1
  fi
  echo "api-digest: api/GHLoginKit.txt matches the code"
else
  python3 scripts/api_digest.py "$symbols"/GHLoginKit.symbols.json > api/GHLoginKit.txt
  echo "api-digest: wrote api/GHLoginKit.txt"
fi
