#!/usr/bin/env bash
# bench/startup-order.sh: regenerates Linker/startup.order, the list of functions that
# `ghlogin token`, `ghlogin git-credential get`, `docker-credential-ghlogin get` and `ghlogin goauth URL` run, which the release link (lld
# --symbol-ordering-file, Package.swift) places side by side so that start-up faults in fewer
# pages of code. Run it after changing those paths; an entry that no longer exists is ignored,
# a missing one only costs a page fault, so a stale list is slower, never wrong.
#
# Needs valgrind. Builds the release binary (the README's command), runs both commands under
# callgrind in a throwaway HOME, keeps the names of the binary's own functions they ran, in
# the order callgrind lists them, and removes the built binary so that the next build
# relinks with the new list (SwiftPM does not know the link reads it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "startup-order: valgrind is required" >&2; exit 2; }
BUILD=("$ROOT/scripts/build-release.sh")
(cd "$ROOT" && "${BUILD[@]}" --product ghlogin >&2)
BIN="$(cd "$ROOT" && "${BUILD[@]}" --show-bin-path)/ghlogin"
WORK=$(mktemp -d /tmp/ghlogin-order-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# valgrind 3.19 cannot read the DWARF 5 that the C targets carry: profile a copy without it
# (the symbol table, which the names come from, stays).
strip -g -o "$WORK/ghlogin" "$BIN"
install -d -m 0700 "$WORK/home" "$WORK/home/.config" "$WORK/home/.config/ghlogin"
TOKEN=gho_16C7e42F292c6912E7710c838347Ae178B4a
(umask 077 && printf '{"version": 1, "hosts": {"github.com": {"active": "octocat", "accounts": [{"login": "octocat", "user_id": 1, "token": "%s", "token_type": "bearer", "scopes": ["repo"], "created_at": 1700000000}]}}}\n' \
  "$TOKEN" >"$WORK/home/.config/ghlogin/credentials.json")
printf 'protocol=https\nhost=github.com\n\n' >"$WORK/request"
ln -s ghlogin "$WORK/docker-credential-ghlogin"
run() {  # name program request expected args...
  local name=$1 program=$2 request=$3 expected=$4; shift 4
  env -i "HOME=$WORK/home" PATH=/usr/bin:/bin valgrind --tool=callgrind --demangle=no \
    --callgrind-out-file="$WORK/$name.out" "$WORK/$program" "$@" <"$request" >"$WORK/$name.stdout" 2>"$WORK/$name.log" ||
    { cat "$WORK/$name.log" >&2; exit 2; }
  grep -q "$expected" "$WORK/$name.stdout" || { echo "startup-order: $name did not print its answer" >&2; exit 2; }
}
printf 'ghcr.io' >"$WORK/registry"
run token ghlogin "$WORK/request" "$TOKEN" token
run git ghlogin "$WORK/request" "$TOKEN" git-credential get
run docker docker-credential-ghlogin "$WORK/registry" "$TOKEN" get
run goauth ghlogin /dev/null "Authorization: Basic" goauth https://github.com/octocat/private/@v/list
nm --defined-only "$BIN" | awk '$2 ~ /^[tTwW]$/ {print $3}' >"$WORK/text-symbols"
python3 - "$WORK/text-symbols" "$WORK/token.out" "$WORK/git.out" "$WORK/docker.out" "$WORK/goauth.out" >"$ROOT/Linker/startup.order" <<'PY'
import re, sys
text = set(open(sys.argv[1]).read().split())
seen, names = set(), []
for path in sys.argv[2:]:
    for line in open(path):
        m = re.match(r"^c?fn=\(\d+\) (.*)$", line.rstrip("\n"))
        if m:
            name = re.sub(r"'\d+$", "", m.group(1))  # callgrind marks recursion levels
            if name in text and name not in seen:
                seen.add(name)
                names.append(name)
print("\n".join(names))
PY
rm -f "$BIN"
echo "startup-order: $(wc -l <"$ROOT/Linker/startup.order") functions in Linker/startup.order; rebuild to relink" >&2
