#!/usr/bin/env bash
# Builds every package under Examples/ (and runs the tests of those that have them) against this
# checkout's GHLoginKit, so a change that
# breaks the public API for its users fails CI. The examples depend on the library by path; here
# each is built as a tool elsewhere would use it, by the dependency doc/library.md and the DocC
# article show, `.package(url: ..., branch: "main")`, on a plain copy of the repository whose
# `main` is the committed HEAD and which has no tags (the repository has no release tag, so a
# `from:` dependency would not resolve: a tag made here would hide that). SwiftPM refuses a
# remote dependency whose library targets have unsafe flags, so this also guards that GHLoginKit
# stays usable that way.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "$(git status --porcelain -- Sources Package.swift)" ] \
  || echo "examples: note: uncommitted changes under Sources/ or in Package.swift are not in the clone"
# Only the committed HEAD, as the clone's `main`, and no tags (works on a detached HEAD in CI).
git init --quiet --bare "$work/ghlogin.git"
git -C "$work/ghlogin.git" config receive.shallowUpdate true  # CI's checkout may be shallow
git push --quiet --no-tags "$work/ghlogin.git" HEAD:refs/heads/main
git -C "$work/ghlogin.git" symbolic-ref HEAD refs/heads/main
[ -z "$(git -C "$work/ghlogin.git" tag)" ] || { echo "examples: the clone has tags" >&2; exit 1; }
for package in Examples/*/Package.swift; do
  dir=$(dirname "$package")
  name=$(basename "$dir")
  grep -q '\.package(name: "ghlogin", path: "\.\./\.\.")' "$package" \
    || { echo "examples: $package does not depend on ../.. by path as expected" >&2; exit 1; }
  mkdir -p "$work/examples"
  cp -R "$dir" "$work/examples/$name"
  rm -rf "$work/examples/$name/.build"
  sed -i "s|\.package(name: \"ghlogin\", path: \"\.\./\.\.\")|.package(url: \"file://$work/ghlogin.git\", branch: \"main\")|" \
    "$work/examples/$name/Package.swift"
  grep -q 'branch: "main")' "$work/examples/$name/Package.swift" \
    || { echo "examples: could not point $package at the clone" >&2; exit 1; }
  echo "examples: building $dir against GHLoginKit by branch: \"main\" (a clone of $(git rev-parse --short HEAD), no tags)"
  # Reuse the example's own build directory between runs (the clone's path changes each time).
  swift build --package-path "$work/examples/$name" --scratch-path "$root/$dir/.build/clone"
  if [ -d "$dir/Tests" ]; then
    echo "examples: testing $dir"
    swift test --package-path "$work/examples/$name" --scratch-path "$root/$dir/.build/clone"
  fi
done
