#!/usr/bin/env bash
# Builds GHLoginKit's documentation (the DocC catalog plus the public symbol graph) into
# .build/docs/GHLoginKit.doccarchive. Fails on any docc warning, and on any public symbol
# without a documentation comment.
set -euo pipefail
cd "$(dirname "$0")/.."
symbols=$(scripts/symbol-graph.sh)
python3 scripts/api_digest.py --undocumented "$symbols"/GHLoginKit.symbols.json
rm -rf .build/docs
mkdir -p .build/docs
docc convert Sources/GHLoginKit/GHLoginKit.docc \
  --additional-symbol-graph-dir "$symbols" \
  --fallback-display-name GHLoginKit --fallback-bundle-identifier org.ghlogin.GHLoginKit \
  --output-path .build/docs/GHLoginKit.doccarchive --warnings-as-errors
echo "docs: .build/docs/GHLoginKit.doccarchive"
