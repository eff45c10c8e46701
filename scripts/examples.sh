#!/usr/bin/env bash
# Builds every package under Examples/ against this checkout's GHLoginKit (by path), so a
# change that breaks the public API for its users fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
for package in Examples/*/Package.swift; do
  dir=$(dirname "$package")
  echo "examples: building $dir"
  swift build --package-path "$dir"
done
