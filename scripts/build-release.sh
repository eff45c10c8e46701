#!/usr/bin/env bash
# The release build of ghlogin: what the README, scripts/install.sh, bench/run and .ci/run use.
# Arguments are passed to `swift build` (for example --show-bin-path or --product ghlogin).
#
# --static-swift-stdlib and the linker scripts in Linker/ keep libstdc++ and the unwinder out of
# start-up; --disable-local-rpath drops SwiftPM's $ORIGIN search path (the loader looked for glibc
# in a dozen directories next to the binary). -disable-concrete-type-metadata-mangled-name-accessors
# makes type metadata direct calls instead of names demangled at start-up (about a fifth of
# `token`'s instructions). --no-export-dynamic keeps the library's symbols out of the dynamic
# symbol table (641 entries to 310; nothing loads ghlogin as a library or looks its symbols up at
# run time), so the loader and --gc-sections have less to keep (about 3% of `token`'s
# instructions). These are given here, not in Package.swift: a library target with unsafe flags
# cannot be a version-tagged dependency, and GHLoginKit is one.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib --disable-local-rpath \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xlinker --no-export-dynamic "$@"
