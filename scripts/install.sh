#!/bin/sh
# Install (or uninstall) ghlogin: the release binary, its man page and its shell completions.
#
#   scripts/install.sh                 install under PREFIX (default /usr/local)
#   scripts/install.sh uninstall       remove exactly the files install puts there
#
# Variables: PREFIX (default /usr/local); DESTDIR, prepended to every path (for packaging:
# DESTDIR=/tmp/stage PREFIX=/usr); BINARY, the binary to install (default: the release build,
# .build/release/ghlogin, made by the README's build command).
#
# Files:
#   $DESTDIR$PREFIX/bin/ghlogin                                   (0755)
#   $DESTDIR$PREFIX/bin/docker-credential-ghlogin                 (a link to ghlogin: the
#                                                                  container registries' helper)
#   $DESTDIR$PREFIX/share/man/man1/ghlogin.1                      (0644, doc/ghlogin.1)
#   $DESTDIR$PREFIX/share/bash-completion/completions/ghlogin     (0644, for bash-completion)
#   $DESTDIR$PREFIX/share/zsh/site-functions/_ghlogin             (0644, on zsh's default $fpath)
#   $DESTDIR$PREFIX/share/fish/vendor_completions.d/ghlogin.fish  (0644, fish's vendor directory)
# The completion scripts are written by the binary being installed (`ghlogin completion SHELL`).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINARY=${BINARY:-$root/.build/release/ghlogin}
action=${1:-install}

base=$DESTDIR$PREFIX
bin=$base/bin/ghlogin
docker_helper=$base/bin/docker-credential-ghlogin
man=$base/share/man/man1/ghlogin.1
bash_completion=$base/share/bash-completion/completions/ghlogin
zsh_completion=$base/share/zsh/site-functions/_ghlogin
fish_completion=$base/share/fish/vendor_completions.d/ghlogin.fish

case $action in
install)
  if [ ! -x "$BINARY" ]; then
    echo "install.sh: $BINARY is missing; build it first:" >&2
    echo "  scripts/build-release.sh" >&2
    exit 2
  fi
  for dir in "$(dirname "$bin")" "$(dirname "$man")" "$(dirname "$bash_completion")" \
    "$(dirname "$zsh_completion")" "$(dirname "$fish_completion")"; do
    mkdir -p "$dir"
  done
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Write everything first, so a failing binary installs nothing.
  "$BINARY" completion bash > "$tmp/bash"
  "$BINARY" completion zsh > "$tmp/zsh"
  "$BINARY" completion fish > "$tmp/fish"
  install -m 0755 "$BINARY" "$bin"
  ln -sfn ghlogin "$docker_helper"
  install -m 0644 "$root/doc/ghlogin.1" "$man"
  install -m 0644 "$tmp/bash" "$bash_completion"
  install -m 0644 "$tmp/zsh" "$zsh_completion"
  install -m 0644 "$tmp/fish" "$fish_completion"
  for file in "$bin" "$docker_helper" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do
    echo "installed $file"
  done
  ;;
uninstall)
  if [ -L "$docker_helper" ]; then
    echo "install.sh: run 'ghlogin setup-docker --unset' before uninstalling: a credHelpers entry naming" >&2
    echo "  the removed docker-credential-ghlogin breaks even pulls of public images" >&2
  fi
  for file in "$bin" "$docker_helper" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do
    if [ -e "$file" ] || [ -L "$file" ]; then
      rm -f "$file"
      echo "removed $file"
    fi
  done
  ;;
*)
  echo "usage: scripts/install.sh [install|uninstall]   (PREFIX, DESTDIR and BINARY from the environment)" >&2
  exit 2
  ;;
esac
