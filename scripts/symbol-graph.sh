#!/usr/bin/env bash
# Writes GHLoginKit's public symbol graph to .build/api/symbols/ (used by docs.sh and api-digest.sh);
# with --all, the graph of every symbol down to `private` to .build/api/symbols-all/ (docs.sh
# checks the links of every documentation comment in it).
# Builds only the GHLoginKit target and extracts its graph alone: `swift package
# dump-symbol-graph` also wants every test module, which a fresh checkout has not built.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/api/symbols
level=public
if [ "${1:-}" = --all ]; then out=.build/api/symbols-all; level=private; fi
rm -rf "$out"
mkdir -p "$out"
swift build --target GHLoginKit >&2
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")
c_modules=()
for map in Sources/*/include/module.modulemap; do
  c_modules+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc -I -Xcc "$PWD/$(dirname "$map")")
done
extract=$(dirname "$(readlink -f "$(command -v swift)")")/swift-symbolgraph-extract
"$extract" -module-name GHLoginKit -target "$triple" \
  -module-cache-path "$bin/ModuleCache" "${c_modules[@]}" -I "$bin/Modules" \
  -minimum-access-level "$level" -skip-synthesized-members -output-dir "$out" >&2
[ -f "$out"/GHLoginKit.symbols.json ] || { echo "symbol-graph: no GHLoginKit.symbols.json in $out" >&2; exit 1; }
echo "$out"
