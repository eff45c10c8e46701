#!/usr/bin/env bash
# Checks the prose documents (README.md, CONTRIBUTING.md, ARCHITECTURE.md, doc/*.md), then builds
# GHLoginKit's documentation (the DocC catalog plus the public symbol graph) into
# .build/docs/GHLoginKit.doccarchive. Fails on any docc warning (an unresolved ``symbol`` or
# <doc:article> link is one), and on any public symbol of GHLoginKit or GHLoginKitTesting without a
# documentation comment. The
# links in the documentation comments of internal and private symbols are checked too: docc
# converts a second graph with every symbol (thrown away), so a renamed internal function
# cannot leave a stale ``link`` behind in the code.
set -euo pipefail
cd "$(dirname "$0")/.."
# The prose documents first (scripts/doc_checks.py says what it checks): README.md at most 350
# lines, ARCHITECTURE.md's prose at most 100 columns, every doc/*.md page linked from the README,
# relative links that resolve, the README's build and test commands (the test command is the one
# .ci/run ends with), and its typo transcript as the debug build prints it.
swift build --product ghlogin >&2
python3 scripts/doc_checks.py "$PWD" "$(swift build --show-bin-path)/ghlogin"
symbols=$(scripts/symbol-graph.sh)
python3 scripts/api_digest.py --undocumented "$symbols"/GHLoginKit.symbols.json
# GHLoginKitTesting (the fakes for a tool's tests) documents every public symbol too.
testing=$(scripts/symbol-graph.sh --testing)
python3 scripts/api_digest.py --undocumented "$testing"/*.symbols.json
rm -rf .build/docs
mkdir -p .build/docs
docc convert Sources/GHLoginKit/GHLoginKit.docc \
  --additional-symbol-graph-dir "$symbols" \
  --fallback-display-name GHLoginKit --fallback-bundle-identifier org.ghlogin.GHLoginKit \
  --output-path .build/docs/GHLoginKit.doccarchive --warnings-as-errors
all_symbols=$(scripts/symbol-graph.sh --all)
docc convert Sources/GHLoginKit/GHLoginKit.docc \
  --additional-symbol-graph-dir "$all_symbols" \
  --fallback-display-name GHLoginKit --fallback-bundle-identifier org.ghlogin.GHLoginKit \
  --output-path .build/docs/links-check.doccarchive --warnings-as-errors
rm -rf .build/docs/links-check.doccarchive
echo "docs: .build/docs/GHLoginKit.doccarchive"
