#!/usr/bin/env bash
# Builds every package under Examples/ against this checkout's GHLoginKit, so a change that
# breaks the public API for its users fails CI. The examples depend on the library by path; here
# each is built as a tool elsewhere would use it, through a version tag (`from: "1.0.0"`) of a
# clone of the committed HEAD: SwiftPM refuses a version-tagged dependency whose library targets
# have unsafe flags, so this also guards that GHLoginKit stays usable that way.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "$(git status --porcelain -- Sources Package.swift)" ] \
  || echo "examples: note: uncommitted changes under Sources/ or in Package.swift are not in the tagged clone"
git clone --quiet "$root" "$work/ghlogin"
git -C "$work/ghlogin" -c user.name=examples -c user.email=examples@localhost tag 1.0.0
for package in Examples/*/Package.swift; do
  dir=$(dirname "$package")
  name=$(basename "$dir")
  grep -q '\.package(name: "ghlogin", path: "\.\./\.\.")' "$package" \
    || { echo "examples: $package does not depend on ../.. by path as expected" >&2; exit 1; }
  mkdir -p "$work/examples"
  cp -R "$dir" "$work/examples/$name"
  rm -rf "$work/examples/$name/.build"
  sed -i "s|\.package(name: \"ghlogin\", path: \"\.\./\.\.\")|.package(url: \"file://$work/ghlogin\", from: \"1.0.0\")|" \
    "$work/examples/$name/Package.swift"
  echo "examples: building $dir against GHLoginKit 1.0.0 (a tagged clone of $(git rev-parse --short HEAD))"
  # Reuse the example's own build directory between runs (the clone's path changes each time).
  swift build --package-path "$work/examples/$name" --scratch-path "$root/$dir/.build/tagged"
done
