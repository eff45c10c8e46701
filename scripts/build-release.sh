#!/usr/bin/env bash
# The release build of ghlogin: what the README, scripts/install.sh, bench/run and .ci/run use.
#
#   scripts/build-release.sh [--pack-relative-relocs] [SWIFT BUILD ARGUMENTS...]
#   scripts/build-release.sh [--pack-relative-relocs] --print-flags
#
# Other arguments are passed to `swift build` (for example --show-bin-path or --scratch-path DIR);
# it builds the ghlogin product unless they name a --product or --target. --print-flags prints
# the `swift build` arguments of the release profile, one a line, and builds nothing: bench/run
# builds its floor program with them.
#
# The release profile: every flag and define of the release binary is here, and only here.
# Package.swift has no unsafe flags (a package with them cannot be a version-tagged dependency,
# and GHLoginKit is one) and no release-only define, so a plain `swift build -c release` builds a
# working ghlogin without any of the start-up measures below. What each measure avoids, the
# bench/RESULTS.md line that measured it and the test that catches its breakage are in
# ARCHITECTURE.md, "Release profile".
#
# - --static-swift-stdlib: the Swift runtime is linked in; with -L Linker (linker scripts named
#   libstdc++.so, libm.so and libgcc_s.so found before the real ones) libstdc++ is linked
#   statically, and libm and libgcc_s not at all, so start-up loads neither libstdc++.so.6,
#   libm.so.6 nor libgcc_s.so.1.
# - The unwinder (_Unwind_Backtrace for the runtime's backtraces, _Unwind_RaiseException for
#   libstdc++) is LLVM's libunwind, linked statically from its libunwind.a: /usr/lib/llvm-14/lib
#   (Debian 12 and Ubuntu 22.04: apt-get install libunwind-14-dev), or the one GHLOGIN_LIBUNWIND
#   names. It needs only old glibc symbols (dl_iterate_phdr), unlike GCC 12's libgcc_eh.a
#   (_dl_find_object, glibc 2.35). Loading libgcc_s.so.1 costs every run its constructor, which
#   asks the CPU for its features: a trap to the hypervisor on a virtual machine.
# - -Xcc -DGHLOGIN_STATIC_STARTUP: compiles Sources/CStartup (argv.c: the runtime's argv lookup,
#   which reads /proc/self/maps before main, replaced; libm.c: the math functions as stubs that
#   dlopen libm.so.6 on their first call). The stubs also keep the binary off versioned math
#   symbols newer than the glibc it supports (the standard library references hypotf, which
#   glibc 2.35 versioned anew).
# - --disable-local-rpath: no $ORIGIN run path (the loader would search it for glibc).
# - -disable-concrete-type-metadata-mangled-name-accessors: type metadata through direct calls,
#   not names demangled and conformances scanned at run time.
# - -disable-implicit-string-processing-module-import: no regex engine in the binary; code in
#   Sources uses Support/ByteSearch.swift, and a new call to the regex module's string methods
#   fails this build (debug builds and tests keep the implicit import).
# - -disable-type-layout: copies and destroys of large values (the config's HostSettings and
#   WebURL? fields, Result<String, ConfigError>?) are compiled inline rather than through value
#   witnesses of generic metadata (Optional<T>, tuples) instantiated at run time.
# - -function-sections: every Swift function of the package in its own section, so that
#   --gc-sections drops the unused ones and the ordering file below can move each one (without
#   it, specializations, outlined copies and witnesses share one section per file, which moves
#   whole). The standard library's own objects are prebuilt and stay as they are.
# - -disable-llvm-merge-functions-pass: LLVM merges identical functions into one without a name
#   (.L sections), which no ordering file can name; unmerged, each keeps its symbol.
# - -use-ld=lld and --no-export-dynamic: the library's symbols stay out of the dynamic symbol
#   table, so the loader and --gc-sections have less to keep.
# - --symbol-ordering-file=Linker/startup.order: the functions and globals the hot commands touch
#   (token, the credential helpers, goauth) laid out side by side, so that they fault in fewer pages
#   of code and data. Written by scripts/startup-order.sh (valgrind), never by hand; a stale name
#   costs a page fault, not a wrong answer (--no-warn-symbol-ordering), and ReleaseEndToEndTests
#   fails when many of its names are gone from the binary.
# - --pack-relative-relocs (opt-in): DT_RELR relocations, which need glibc 2.36 or newer at run
#   time (GLIBC_ABI_DT_RELR). Off by default: the default binary needs glibc 2.34 at most
#   (ReleaseEndToEndTests reads its version needs).
#
# The toolchain: argv.c replaces Swift runtime internals by name, and the libm list is the
# standard library's. Both are checked against the toolchains listed in TESTED_TOOLCHAINS; with
# another `swift --version`, the build stops (exit 2) unless GHLOGIN_UNTESTED_TOOLCHAIN=1 is set,
# in which case it warns and builds (then run ReleaseEndToEndTests and LibmStubTests).
#
# A packager's default app (like gh's release builds, which embed gh's own OAuth app): with
# GHLOGIN_DEFAULT_CLIENT_ID (and optionally GHLOGIN_DEFAULT_CLIENT_SECRET, GHLOGIN_DEFAULT_APP_NAME)
# in the environment, the app is compiled in as the lowest layer of the configuration for
# github.com. The values go into Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift, which git
# ignores and this script removes when the build ends (also on failure), compiled only with
# -D GHLOGIN_BUILT_IN_APP (given here): no default is ever committed and a generated file left
# behind compiles to nothing. That build runs under umask 077, so the generated file, the object
# files and the binary that hold the secret are readable by their owner only (the build directory
# is made so too). Build it apart from the plain release build, e.g. with
# --scratch-path .build/default-app.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

# `swift --version` of every toolchain this profile was built and tested with ("X.Y.Z").
TESTED_TOOLCHAINS=(6.3.1)

print_flags=0 pack_relocs=0 args=()
for arg in "$@"; do
  case $arg in
    --print-flags) print_flags=1 ;;
    --pack-relative-relocs) pack_relocs=1 ;;
    *) args+=("$arg") ;;
  esac
done

unwinder=${GHLOGIN_LIBUNWIND:-/usr/lib/llvm-14/lib/libunwind.a}
if [ ! -f "$unwinder" ]; then
  printf "build-release.sh: no static unwinder at %s: the release profile links LLVM's libunwind.a, so that start-up does not load libgcc_s.so.1.\n" "$unwinder" >&2
  printf "build-release.sh: install it (Debian 12, Ubuntu 22.04: apt-get install libunwind-14-dev), or set GHLOGIN_LIBUNWIND to LLVM's static libunwind.a.\n" >&2
  exit 2
fi

profile=(
  -c release --static-swift-stdlib --disable-local-rpath
  -Xcc -DGHLOGIN_STATIC_STARTUP
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
  -Xswiftc -Xfrontend -Xswiftc -disable-implicit-string-processing-module-import
  -Xswiftc -Xfrontend -Xswiftc -disable-type-layout
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xswiftc -Xfrontend -Xswiftc -disable-llvm-merge-functions-pass
  -Xswiftc -use-ld=lld -Xlinker -L -Xlinker "$ROOT/Linker" -Xlinker "$unwinder" -Xlinker --no-export-dynamic
  -Xlinker --symbol-ordering-file="$ROOT/Linker/startup.order" -Xlinker --no-warn-symbol-ordering
)
if ((pack_relocs)); then profile+=(-Xlinker -z -Xlinker pack-relative-relocs); fi

version_line=$(swift --version 2>&1 | grep -m1 'Swift version' || true)
version=$(sed -nE 's/.*Swift version ([0-9]+(\.[0-9]+)*).*/\1/p' <<<"$version_line")
tested=" ${TESTED_TOOLCHAINS[*]} "
if [[ $tested != *" $version "* ]]; then
  found="Swift ${version:-of unknown version} (swift --version: ${version_line:-nothing})"
  if [[ ${GHLOGIN_UNTESTED_TOOLCHAIN:-} != 1 ]]; then
    printf 'build-release.sh: %s is not a toolchain the release profile was tested with (tested: %s).\n' \
      "$found" "${TESTED_TOOLCHAINS[*]}" >&2
    printf 'build-release.sh: its start-up measures depend on the Swift runtime; use a tested toolchain, or set GHLOGIN_UNTESTED_TOOLCHAIN=1 to build anyway and run ReleaseEndToEndTests and LibmStubTests.\n' >&2
    exit 2
  fi
  printf 'build-release.sh: warning: building with %s, not a tested toolchain (tested: %s); GHLOGIN_UNTESTED_TOOLCHAIN=1 is set.\n' \
    "$found" "${TESTED_TOOLCHAINS[*]}" >&2
fi

if ((print_flags)); then
  printf '%s\n' "${profile[@]}"
  exit 0
fi

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
  # From here on every file this build makes (the generated source, object files, the binary)
  # is created readable by its owner only.
  umask 077
  literal() { if [ -n "$1" ]; then printf '"%s"' "$1"; else printf 'nil'; fi; }
  trap 'rm -f "$generated"' EXIT
  rm -f "$generated"
  {
    printf '// Written by scripts/build-release.sh for this build only; ignored by git, removed after the build.\n'
    printf '#if GHLOGIN_BUILT_IN_APP\n  extension BuiltInApp {\n'
    printf '    package static let compiled: BuiltInApp? = BuiltInApp(\n'
    printf '      clientID: %s, clientSecret: %s, name: %s)\n' "$(literal "$GHLOGIN_DEFAULT_CLIENT_ID")" \
      "$(literal "${GHLOGIN_DEFAULT_CLIENT_SECRET:-}")" "$(literal "${GHLOGIN_DEFAULT_APP_NAME:-}")"
    printf '  }\n#endif\n'
  } >"$generated"
  flags=(-Xswiftc -DGHLOGIN_BUILT_IN_APP)
  # The build directory (--scratch-path, else .build): files of an earlier build keep their mode,
  # so they are made owner-only too.
  scratch=.build
  for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[$i]} in
      --scratch-path) scratch=${args[$((i + 1))]:-$scratch} ;;
      --scratch-path=*) scratch=${args[$i]#--scratch-path=} ;;
    esac
  done
  mkdir -p "$scratch"
  chmod -R go-rwx "$scratch"
elif [ -n "${GHLOGIN_DEFAULT_CLIENT_SECRET:-}${GHLOGIN_DEFAULT_APP_NAME:-}" ]; then
  echo "build-release.sh: GHLOGIN_DEFAULT_CLIENT_SECRET and GHLOGIN_DEFAULT_APP_NAME need GHLOGIN_DEFAULT_CLIENT_ID" >&2
  exit 2
fi
# The ghlogin product unless the caller names what to build: the rest of the package (the test
# support library, which imports the Testing module that release builds of plain targets lack)
# is not part of a release.
names_product=0
for arg in ${args[@]+"${args[@]}"}; do
  case $arg in --product | --product=* | --target | --target=* | --build-tests) names_product=1 ;; esac
done
if ((!names_product)); then args+=(--product ghlogin); fi
swift build "${profile[@]}" ${flags[@]+"${flags[@]}"} ${args[@]+"${args[@]}"}
