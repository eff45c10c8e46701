#!/usr/bin/env bash
# The release build of ghlogin: what the README, scripts/install.sh, bench/run and .ci/run use.
# Arguments are passed to `swift build` (for example --show-bin-path or --product ghlogin).
#
# --static-swift-stdlib and the linker scripts in Linker/ keep libstdc++, the unwinder and libm
# (loaded on first use by Sources/CStartup/libm.c) out of start-up; --disable-local-rpath drops
# SwiftPM's $ORIGIN search path (the loader looked for glibc in a dozen directories next to the
# binary). -disable-concrete-type-metadata-mangled-name-accessors makes type metadata direct calls instead of names demangled at start-up (about a fifth of
# `token`'s instructions). --no-export-dynamic keeps the library's symbols out of the dynamic
# symbol table (641 entries to 310; nothing loads ghlogin as a library or looks its symbols up at
# run time), so the loader and --gc-sections have less to keep (about 3% of `token`'s
# instructions). -disable-implicit-string-processing-module-import leaves out `_StringProcessing`, the
# regex engine: one `firstRange(of:)` or `contains("ab")` linked all of it (about 9,000 symbols,
# 2 MB, about 20 page faults per run); Support/ByteSearch.swift has the byte searches ghlogin
# uses instead, and a new call to the regex module's string methods fails this build (the debug
# build and the tests keep the implicit import). These are given here, not in Package.swift: a library target with unsafe flags
# cannot be a version-tagged dependency, and GHLoginKit is one.
#
# A packager's default app (like gh's release builds, which embed gh's own OAuth app): with
# GHLOGIN_DEFAULT_CLIENT_ID (and optionally GHLOGIN_DEFAULT_CLIENT_SECRET, GHLOGIN_DEFAULT_APP_NAME)
# in the environment, the app is compiled in as the lowest layer of the configuration for
# github.com. The values go into Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift, which git
# ignores and this script removes when the build ends (also on failure), compiled only with
# -D GHLOGIN_BUILT_IN_APP (given here): no default is ever committed, a generated file left behind
# compiles to nothing, and Package.swift keeps no unsafe flags. Build it apart from the plain
# release build, e.g. with --scratch-path .build/default-app.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift
flags=()
if [ -n "${GHLOGIN_DEFAULT_CLIENT_ID:-}" ]; then
  export LC_ALL=C
  # printf is a shell builtin: the secret never reaches a command line.
  for name in GHLOGIN_DEFAULT_CLIENT_ID GHLOGIN_DEFAULT_CLIENT_SECRET; do
    value="${!name:-}"
    if [ -n "$value" ] && ! [[ "$value" =~ ^[A-Za-z0-9._~+/=-]+$ ]]; then
      printf 'build-release.sh: %s must be letters, digits and ._~+/=- only\n' "$name" >&2
      exit 2
    fi
  done
  if [[ "${GHLOGIN_DEFAULT_APP_NAME:-}" =~ [^\ -~]|[\"\\] ]]; then
    printf 'build-release.sh: GHLOGIN_DEFAULT_APP_NAME must be printable ASCII without " or \\\n' >&2
    exit 2
  fi
  literal() { if [ -n "$1" ]; then printf '"%s"' "$1"; else printf 'nil'; fi; }
  trap 'rm -f "$generated"' EXIT
  {
    printf '// Written by scripts/build-release.sh for this build only; ignored by git, removed after the build.\n'
    printf '#if GHLOGIN_BUILT_IN_APP\n  extension BuiltInApp {\n'
    printf '    package static let compiled: BuiltInApp? = BuiltInApp(\n'
    printf '      clientID: %s, clientSecret: %s, name: %s)\n' "$(literal "$GHLOGIN_DEFAULT_CLIENT_ID")" \
      "$(literal "${GHLOGIN_DEFAULT_CLIENT_SECRET:-}")" "$(literal "${GHLOGIN_DEFAULT_APP_NAME:-}")"
    printf '  }\n#endif\n'
  } > "$generated"
  chmod 600 "$generated"
  flags=(-Xswiftc -DGHLOGIN_BUILT_IN_APP)
elif [ -n "${GHLOGIN_DEFAULT_CLIENT_SECRET:-}${GHLOGIN_DEFAULT_APP_NAME:-}" ]; then
  echo "build-release.sh: GHLOGIN_DEFAULT_CLIENT_SECRET and GHLOGIN_DEFAULT_APP_NAME need GHLOGIN_DEFAULT_CLIENT_ID" >&2
  exit 2
fi
swift build -c release --static-swift-stdlib --disable-local-rpath \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -Xfrontend -Xswiftc -disable-implicit-string-processing-module-import \
  -Xlinker --no-export-dynamic ${flags[@]+"${flags[@]}"} "$@"
