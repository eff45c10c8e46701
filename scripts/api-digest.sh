#!/usr/bin/env bash
# The public API of the library products as text digests (like Go's api/ files): GHLoginKit's in
# api/GHLoginKit.txt, GHLoginKitTesting's (the fakes a tool's tests use) in api/GHLoginKitTesting.txt.
#   scripts/api-digest.sh          rewrite both files from the code
#   scripts/api-digest.sh --check  fail (exit 1, with the diff) when either module's API differs from its file
set -euo pipefail
cd "$(dirname "$0")/.."
symbols=$(scripts/symbol-graph.sh)
testing=$(scripts/symbol-graph.sh --testing)
mkdir -p .build/api
python3 scripts/api_digest.py "$symbols"/GHLoginKit.symbols.json > .build/api/GHLoginKit.txt
python3 scripts/api_digest.py "$testing"/GHLoginKitTesting.symbols.json "$testing"/GHLoginKitTesting@*.symbols.json \
  > .build/api/GHLoginKitTesting.txt
status=0
for module in GHLoginKit GHLoginKitTesting; do
  if [ "${1:-}" = "--check" ]; then
    if ! diff -u "api/$module.txt" ".build/api/$module.txt"; then
      echo "api-digest: the public API of $module changed; if that is intended, run scripts/api-digest.sh" \
        "and commit api/$module.txt" >&2
      status=1
    else
      echo "api-digest: api/$module.txt matches the code"
    fi
  else
    cp ".build/api/$module.txt" "api/$module.txt"
    echo "api-digest: wrote api/$module.txt"
  fi
done
exit "$status"
