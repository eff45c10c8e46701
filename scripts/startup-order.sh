#!/usr/bin/env bash
# scripts/startup-order.sh: regenerates Linker/startup.order, the release profile's symbol-ordering
# file (scripts/build-release.sh passes it to lld as --symbol-ordering-file).
#
#   scripts/startup-order.sh
#
# The commands people run most (`token` with a config and an expiring login, `token` on a
# version-1 file, `token --host`, `git-credential get`, `docker-credential-ghlogin get`, `goauth`)
# each touch a few hundred of the binary's functions and a few hundred of its globals, scattered
# over 6 MB of code and 1.5 MB of data; every 64 KiB window of code and every page of data they
# touch is a page fault (about 2 us each on the machines here). The file lists what they touch,
# functions first, then data, in the order of first use, so that the link puts them side by side.
# It names symbols only: a stale or missing name costs a page fault, never a wrong answer, and
# ReleaseEndToEndTests fails when many of its names are gone from the binary (run this script then).
#
# How: builds the release binary, runs each command once under `valgrind --tool=lackey
# --trace-mem=yes` in a throwaway HOME (the files of bench/realistic.py), checks its answer, and
# maps every instruction and data address of the binary's own code (not the loader's relocation
# writes) to the symbol that holds it. Needs valgrind and python3; exit 2 when one is missing or a
# command gives a wrong answer. Removes the built binary so that the next build relinks with the
# new list (SwiftPM does not know that the link reads it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
for tool in valgrind python3 nm readelf objdump; do
  command -v "$tool" >/dev/null || { echo "startup-order.sh: $tool is required" >&2; exit 2; }
done
BUILD=("$ROOT/scripts/build-release.sh")
(cd "$ROOT" && "${BUILD[@]}" >&2)
BIN="$(cd "$ROOT" && "${BUILD[@]}" --show-bin-path)/ghlogin"
WORK=$(mktemp -d /tmp/ghlogin-order-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# valgrind 3.19 cannot read the DWARF 5 of the C targets: trace a copy without it (the symbol
# table, which the names come from, stays).
strip -g -o "$WORK/ghlogin" "$BIN"
ln -s ghlogin "$WORK/docker-credential-ghlogin"

TOKEN=ghu_16C7e42F292c6912E7710c838347Ae178B4a
REFRESH=ghr_1B4a2e77838347a7E420ce178F2E7c6912E7aB9cD0eF1a2B3c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F
SIMPLE=gho_16C7e42F292c6912E7710c838347Ae178B4a
R="$WORK/realistic" S="$WORK/simple"
install -d -m 0700 "$R" "$R/.config" "$R/.config/ghlogin" "$S" "$S/.config" "$S/.config/ghlogin"
python3 "$ROOT/bench/realistic.py" "$R/.config/ghlogin" "$TOKEN" "$REFRESH" "$(date +%s)" 1
(umask 077 && printf '{"version": 1, "hosts": {"github.com": {"active": "octocat", "accounts": [{"login": "octocat", "user_id": 1, "token": "%s", "token_type": "bearer", "scopes": ["repo"], "created_at": 1700000000}]}}}\n' \
  "$SIMPLE" >"$S/.config/ghlogin/credentials.json")
printf 'protocol=https\nhost=github.com\n\n' >"$WORK/request"
printf 'ghcr.io\n' >"$WORK/registry"

traces=()
trace() {  # name home stdin expected program args...
  local name=$1 home=$2 input=$3 expected=$4 program=$5
  shift 5
  env -i "HOME=$home" PATH=/usr/bin:/bin LANG=C.UTF-8 valgrind --tool=lackey --trace-mem=yes \
    --log-file="$WORK/$name.trace" "$WORK/$program" "$@" <"$input" >"$WORK/$name.out" 2>"$WORK/$name.err" ||
    { cat "$WORK/$name.err" >&2; echo "startup-order.sh: $name failed" >&2; exit 2; }
  grep -q "$expected" "$WORK/$name.out" ||
    { echo "startup-order.sh: $name did not print its answer" >&2; exit 2; }
  traces+=("$WORK/$name.trace")
}
trace token "$R" /dev/null "$TOKEN" ghlogin token
trace token-simple "$S" /dev/null "$SIMPLE" ghlogin token
trace token-host "$R" /dev/null "$TOKEN" ghlogin token --host github.com
trace git-credential "$R" "$WORK/request" "password=$TOKEN" ghlogin git-credential get
trace docker "$R" "$WORK/registry" "$TOKEN" docker-credential-ghlogin get
trace goauth "$R" /dev/null "Authorization: Basic" ghlogin goauth https://github.com/octocat/private/@v/list

python3 - "$WORK/ghlogin" "${traces[@]}" >"$WORK/startup.order" <<'PY'
import bisect, subprocess, sys

binary, traces = sys.argv[1], sys.argv[2:]
text, data = [], []
for line in subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    parts = line.split(" ", 3)
    if len(parts) != 4:
        continue
    address, size, kind, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
    if kind in "tTwW":
        text.append((address, size, name))
    elif kind in "bBdDrRvV":
        data.append((address, size, name))
text_starts, data_starts = [s[0] for s in text], [s[0] for s in data]
end = max(s[0] + s[1] for s in text + data)
entry = int(next(l for l in subprocess.run(["readelf", "-h", binary], capture_output=True, text=True,
                                              check=True).stdout.splitlines() if "Entry point" in l).split()[-1], 16)

def symbol(starts, symbols, address):
    i = bisect.bisect_right(starts, address) - 1
    if i < 0:
        return None
    start, size, name = symbols[i]
    return name if address < start + max(size, 1) else None

# The first instructions of the entry point (their offsets): where valgrind loaded the executable
# is where they run in this order.
start_offsets = [int(l.split(":")[0], 16) - entry for l in subprocess.run(
    ["objdump", "-d", f"--start-address={entry}", f"--stop-address={entry + 16}", binary],
    capture_output=True, text=True, check=True).stdout.splitlines() if l[:1] == " " and ":" in l][:4]

def load_base(lines):
    instructions = [int(l[3:].split(",")[0], 16) for l in lines if l[:1] == "I"]
    for i, address in enumerate(instructions):
        if (address - entry) % 4096 == 0 and [a - address for a in instructions[i:i + len(start_offsets)]] == start_offsets:
            return address - entry
    return None

functions, globals_, seen = [], [], set()
for path in traces:
    lines = open(path).read().splitlines()
    base = load_base(lines)
    if base is None:
        sys.exit(f"startup-order.sh: the entry point never ran in {path}")
    own = False
    for line in lines:
        if line[:1] == "I":
            offset = int(line[3:].split(",")[0], 16) - base
            own = 0 <= offset < end
            if own:
                name = symbol(text_starts, text, offset)
                if name and name not in seen:
                    seen.add(name)
                    functions.append(name)
        elif own and line[:2] in (" L", " S", " M"):
            offset = int(line[3:].split(",")[0], 16) - base
            if 0 <= offset < end:
                name = symbol(data_starts, data, offset)
                if name and name not in seen:
                    seen.add(name)
                    globals_.append(name)
print("# Linker/startup.order: written by scripts/startup-order.sh, never by hand. The functions, then")
print("# the globals, that the hot commands touch, in the order of first use (see the script).")
print("\n".join(functions + globals_))
print(f"startup-order.sh: {len(functions)} functions, {len(globals_)} globals", file=sys.stderr)
PY
install -m 0644 "$WORK/startup.order" "$ROOT/Linker/startup.order"
rm -f "$BIN"
echo "startup-order.sh: wrote Linker/startup.order; the next scripts/build-release.sh relinks with it" >&2
