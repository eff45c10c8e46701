#!/usr/bin/env bash
# Writes GHLoginKit's public symbol graph (with the GHLoginCore types it re-exports) to .build/api/symbols/ (used by docs.sh and api-digest.sh);
# with --all, the graph of every symbol down to `private` to .build/api/symbols-all/ (docs.sh
# checks the links of every documentation comment in it, GHLoginKitTesting's included);
# with --testing, GHLoginKitTesting's public graph, a module of its own (its extensions of
# GHLoginKit's types in GHLoginKitTesting@GHLoginKit.symbols.json), to .build/api/symbols-testing/.
# Builds only the GHLoginKit target and extracts its graph alone: `swift package
# dump-symbol-graph` also wants every test module, which a fresh checkout has not built.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/api/symbols
level=public
modules=(GHLoginKit GHLoginCore)
# --all: the command line's comments are link-checked too.
if [ "${1:-}" = --all ]; then out=.build/api/symbols-all; level=private; modules+=(GHLoginCLI GHLoginKitTesting); fi
if [ "${1:-}" = --testing ]; then out=.build/api/symbols-testing; modules=(GHLoginKitTesting); fi
rm -rf "$out"
mkdir -p "$out"
for module in "${modules[@]}"; do swift build --target "$module" >&2; done
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")
c_modules=()
for map in Sources/*/include/module.modulemap; do
  c_modules+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc -I -Xcc "$PWD/$(dirname "$map")")
done
extract=$(dirname "$(readlink -f "$(command -v swift)")")/swift-symbolgraph-extract
for module in "${modules[@]}"; do
  mkdir -p "$out/$module"
  "$extract" -module-name "$module" -target "$triple" \
    -module-cache-path "$bin/ModuleCache" "${c_modules[@]}" -I "$bin/Modules" \
    -minimum-access-level "$level" -skip-synthesized-members -output-dir "$out/$module" >&2
  [ -f "$out/$module/$module.symbols.json" ] || { echo "symbol-graph: no $module.symbols.json" >&2; exit 1; }
done
if [ "${1:-}" = --testing ]; then
  mv "$out"/GHLoginKitTesting/*.symbols.json "$out"/
  rm -rf "$out/GHLoginKitTesting"
  echo "$out"
  exit 0
fi
# GHLoginKit re-exports GHLoginCore (`@_exported import`): its public value types (AccessToken,
# LoginOptions, ExitStatus, ...) are GHLoginKit's API. The extractor leaves them out of the
# GHLoginKit graph, so they are merged into it here: one module for the digest and for docc. At
# --all level this also puts Core's documentation comments under docs.sh's link check.
python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
graphs = {}  # output file name -> graph
for path in sorted(glob.glob(f"{out}/GHLogin*/*.symbols.json")):
    name = os.path.basename(path)[: -len(".symbols.json")]
    module, _, extended = name.partition("@")
    # Core's own graph and Kit's extensions of Core's types are part of GHLoginKit's main graph;
    # extensions of other modules (the standard library) stay extension graphs, under GHLoginKit.
    target = (
        "GHLoginKit" if extended in ("", "GHLoginCore", "GHLoginKit", "GHLoginCLI", "GHLoginKitTesting")
        else f"GHLoginKit@{extended}")
    graph = json.load(open(path))
    if target in graphs:
        graphs[target]["symbols"] += graph["symbols"]
        graphs[target]["relationships"] += graph["relationships"]
    else:
        graph["module"]["name"] = "GHLoginKit"
        graphs[target] = graph
for target, graph in graphs.items():
    json.dump(graph, open(f"{out}/{target}.symbols.json", "w"))
PY
for module in "${modules[@]}"; do rm -rf "${out:?}/$module"; done
echo "$out"
