#!/usr/bin/env bash
# Builds and runs the libFuzzer targets under Fuzz/targets/.
#
#   Fuzz/run.sh SECONDS [TARGET...]
#
# Each target is built (cached in Fuzz/out/bin, rebuilt when a source is newer) by compiling
# its entry file, Fuzz/Support/*.swift and every Sources/GHLoginCore file as one module, with
# -sanitize=fuzzer,address, so internal APIs are reachable. Then it runs for SECONDS on its
# seed corpus Fuzz/corpus/NAME (read-only) plus a working corpus in Fuzz/out/corpus/NAME.
# A target that drives code above Core (the `status` text, a test fake) lists the extra
# source files or directories, one per line, in Fuzz/targets/NAME/sources; they join the
# same module, their `import GHLoginCore` lines removed.
# Prints one line per target with its executions; exits 1 if any target crashed, leaked,
# timed out or broke an invariant (the input is saved in Fuzz/out/crashes/NAME/).
#
# Environment: FUZZ_JOBS (parallel builds, default 1), FUZZ_FLAGS (extra libFuzzer flags),
# FUZZ_BUILD_ONLY=1 (build, do not run), FUZZ_RECORD=1 (write the run's figures, with the
# commit, into Fuzz/RESULTS.md: Fuzz/record.py).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: Fuzz/run.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=$1
shift
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for dir in Fuzz/targets/*/; do targets+=("$(basename "$dir")"); done
fi

out=Fuzz/out
mkdir -p "$out/bin" "$out/logs"
mapfile -t kit < <(find Sources/GHLoginCore -name '*.swift' | sort)
mapfile -t support < <(find Fuzz/Support -name '*.swift' | sort)

# Builds one target if its binary is missing or older than any of its sources.
build() {
  local name=$1 binary="$out/bin/$1"
  local dir="Fuzz/targets/$name"
  [ -d "$dir" ] || { echo "fuzz: no target $name (Fuzz/targets/$name)" >&2; return 1; }
  local extra=()
  if [ -f "$dir/sources" ]; then
    local entry
    while read -r entry; do
      [ -n "$entry" ] && mapfile -t -O "${#extra[@]}" extra < <(find "$entry" -name '*.swift' | sort)
    done <"$dir/sources"
  fi
  local sources=("$dir"/*.swift "${support[@]}" "${kit[@]}" "${extra[@]}")
  if [ -x "$binary" ] && [ -z "$(find "$dir" Fuzz/Support Sources/GHLoginCore Sources/COpenSSL Sources/CSecretService "${extra[@]}" -newer "$binary" -print -quit)" ]; then
    return 0
  fi
  echo "fuzz: building $name"
  local started=$SECONDS
  # From a snapshot of the sources in a scratch directory of its own, so that editing the
  # checkout during a build is harmless and nothing swiftc leaves behind lands in it.
  local root=$PWD scratch="$out/build/$name"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  cp --parents -r "${sources[@]}" Sources/COpenSSL Sources/CSecretService "$scratch/"
  if [ "${#extra[@]}" -gt 0 ]; then (cd "$scratch" && sed -i '/^import GHLoginCore$/d' "${extra[@]}"); fi
  # COpenSSL and CSecretService are C targets: their loaders (which dlopen libssl.so.3 and
  # libsecret-1.so.0) are compiled and linked in.
  (cd "$scratch" && clang -c -O1 -g -I Sources/COpenSSL/include Sources/COpenSSL/openssl_loader.c -o openssl_loader.o \
    && clang -c -O1 -g -I Sources/CSecretService/include Sources/CSecretService/secret_loader.c -o secret_loader.o \
    && swiftc -sanitize=fuzzer,address -parse-as-library -O -wmo -g -use-ld=lld \
    -module-name FuzzTarget -package-name ghlogin -swift-version 6 -enable-upcoming-feature ExistentialAny \
    -I Sources/COpenSSL/include -Xcc -fmodule-map-file=Sources/COpenSSL/include/module.modulemap \
    -I Sources/CSecretService/include -Xcc -fmodule-map-file=Sources/CSecretService/include/module.modulemap \
    "${sources[@]}" openssl_loader.o secret_loader.o -o "$root/$binary.tmp") \
    >"$out/logs/$name.build.log" 2>&1 || {
    cat "$out/logs/$name.build.log" >&2
    echo "fuzz: building $name failed" >&2
    return 1
  }
  mv "$binary.tmp" "$binary"
  echo "fuzz: built $name in $((SECONDS - started)) s"
}

jobs=${FUZZ_JOBS:-1}
pids=()
for name in "${targets[@]}"; do
  build "$name" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || exit 1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || exit 1; done
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

# abort() is how a target reports a broken invariant; the Swift runtime's own backtracer
# would fight ASan over the crashing process, so leave crash reporting to libFuzzer and ASan.
export SWIFT_BACKTRACE=enable=no
failed=0
total=0
for name in "${targets[@]}"; do
  corpus="$out/corpus/$name"
  crashes="$out/crashes/$name"
  mkdir -p "$corpus" "$crashes"
  options=()
  [ -f "Fuzz/targets/$name/options" ] && read -r -a options <"Fuzz/targets/$name/options"
  [ -f "Fuzz/targets/$name/dict" ] && options+=("-dict=Fuzz/targets/$name/dict")
  log="$out/logs/$name.log"
  status=0
  # shellcheck disable=SC2086
  "$out/bin/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "${options[@]}" ${FUZZ_FLAGS:-} "$corpus" "Fuzz/corpus/$name" >"$log" 2>&1 || status=$?
  echo "$status" >"$out/logs/$name.status"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "$name: FAILED (status $status) after ${runs:-?} executions; see $log and $crashes/"
    grep -E 'INVARIANT FAILED|ERROR: |Fatal error|SUMMARY' "$log" | head -5 | sed 's/^/  /'
  else
    total=$((total + ${runs:-0}))
    echo "$name: ${runs:-?} executions in ${time:-$seconds} s, ${cov:-cov: ?}, corpus $(find "$corpus" -type f | wc -l) files"
  fi
done
echo "total: $total executions"
if [ "${FUZZ_RECORD:-0}" = 1 ]; then python3 Fuzz/record.py "$seconds" "${targets[@]}" || exit 2; fi
exit $failed
