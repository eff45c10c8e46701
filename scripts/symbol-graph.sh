#!/usr/bin/env bash
# Writes GHLoginKit's public symbol graph to .build/api/symbols/ (used by docs.sh and api-digest.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/api/symbols
rm -rf "$out"
mkdir -p "$out"
log=$(swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members 2>&1) || {
  echo "$log" >&2
  exit 1
}
dir=$(printf '%s\n' "$log" | sed -n 's/^Files written to //p' | tail -1)
[ -n "$dir" ] && [ -d "$dir" ] || { echo "symbol-graph: no output directory in:" >&2; echo "$log" >&2; exit 1; }
cp "$dir"/GHLoginKit*.symbols.json "$out"/
echo "$out"
