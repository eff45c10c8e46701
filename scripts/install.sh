#!/bin/sh
# Install (or uninstall) ghlogin: the release binary, its man page and its shell completions.
#
#   scripts/install.sh                 install under PREFIX (default /usr/local)
#   scripts/install.sh uninstall       remove exactly the files install puts there
#
# Variables: PREFIX (default /usr/local, an absolute path); DESTDIR, prepended to every path (for
# packaging: DESTDIR=/tmp/stage PREFIX=/usr); BINARY, the binary to install (default: the release
# build, .build/release/ghlogin, made by the README's build command).
#
# What is installed is the list in `items` below, the one list install and uninstall read.
# The completion scripts are written by the binary being installed (`ghlogin completion SHELL`).
#
# Safety (SECURITY-REQUIREMENTS R107):
# - Every directory install creates is 0755, whatever the caller's umask; existing ones are
#   left as they are.
# - Below DESTDIR (or below PREFIX when DESTDIR is empty), no directory on the way to an
#   installed file may be a symbolic link or anything but a directory: install and uninstall
#   check every item first and refuse (exit 1, naming the path) before writing or removing
#   anything, so nothing is ever written or removed through a planted link.
# - uninstall removes only what install writes: a regular file where a file is installed, a
#   symbolic link with the same target where a link is. Anything else there is refused.
set -eu
umask 022

root=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINARY=${BINARY:-$root/.build/release/ghlogin}
action=${1:-install}

# What install writes and uninstall removes, one item a line: KIND MODE SOURCE PATH, PATH
# relative to $DESTDIR$PREFIX.
#   file MODE SOURCE PATH    SOURCE installed with MODE: `binary` ($BINARY), `man-page`
#                            (doc/ghlogin.1), or a shell (`bash`, `zsh`, `fish`: the binary's
#                            completion script for it)
#   link -    TARGET PATH    a symbolic link whose value is TARGET (relative to PATH's directory)
items='
file 0755 binary   bin/ghlogin
link -    ghlogin  bin/docker-credential-ghlogin
file 0644 man-page share/man/man1/ghlogin.1
file 0644 bash     share/bash-completion/completions/ghlogin
file 0644 zsh      share/zsh/site-functions/_ghlogin
file 0644 fish     share/fish/vendor_completions.d/ghlogin.fish
'

usage() {
  echo "usage: scripts/install.sh [install|uninstall]   (PREFIX, DESTDIR and BINARY from the environment)" >&2
  exit 2
}

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

case $PREFIX in
/*) ;;
*) echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 2 ;;
esac
case $PREFIX/ in
*/./* | */../*) echo "install.sh: PREFIX must not contain . or .. ('$PREFIX')" >&2; exit 2 ;;
esac

base=$DESTDIR$PREFIX
# The directory whose inside install.sh checks: DESTDIR when set, else PREFIX; `below` is the
# part of $base under it.
if [ -n "$DESTDIR" ]; then
  top=$DESTDIR
  below=$PREFIX
else
  top=$PREFIX
  below=
fi

# check_way PATH VERB: every directory under $top on the way to $base/PATH is a real directory
# (not a symbolic link, not a file); VERB ("install" or "remove") is for the message. Stops at
# the first level that does not exist (install creates it; there is nothing to remove below).
check_way() {
  way=$top
  parts=$below/$(dirname "$1")
  saved_ifs=$IFS
  IFS=/
  set -f
  for part in $parts; do
    [ -n "$part" ] || continue
    way=$way/$part
    if [ -L "$way" ]; then
      IFS=$saved_ifs
      set +f
      if [ "$2" = install ]; then
        fail "refusing to install through $way: it is a symbolic link (to $(link_value "$way")); nothing was installed. Make it a directory, or choose another DESTDIR or PREFIX"
      fi
      fail "refusing to remove anything through $way: it is a symbolic link (to $(link_value "$way")); nothing was removed. Remove the link, or the files behind it by hand"
    fi
    if [ ! -e "$way" ]; then
      break
    fi
    if [ ! -d "$way" ]; then
      IFS=$saved_ifs
      set +f
      fail "refusing to $2 $base/$1: $way is not a directory; nothing was $(past "$2")"
    fi
  done
  IFS=$saved_ifs
  set +f
}

# link_value LINK: where LINK points, control characters removed (for messages).
link_value() { readlink "$1" | tr -d '[:cntrl:]'; }

past() { if [ "$1" = install ]; then echo installed; else echo removed; fi; }

# make_dirs DIR: creates each missing level of DIR with mode 0755 (not the umask's).
make_dirs() {
  if [ -d "$1" ]; then return; fi
  parent=$(dirname "$1")
  if [ "$parent" != "$1" ]; then make_dirs "$parent"; fi
  mkdir -m 0755 "$1"
  chmod 0755 "$1"
}

# each FUNCTION: calls FUNCTION KIND MODE SOURCE PATH for every item, in order.
each() {
  while read -r kind mode source path; do
    [ -n "$kind" ] || continue
    "$1" "$kind" "$mode" "$source" "$path"
  done <<EOF
$items
EOF
}

# Install checks: the way, and nothing but a file (or a link, replaced) where a file goes,
# nothing but a link where a link goes.
check_install() {
  check_way "$4" install
  target=$base/$4
  if [ "$1" = file ]; then
    if [ ! -L "$target" ] && [ -e "$target" ] && [ ! -f "$target" ]; then
      fail "refusing to install $target: something other than a regular file is there; nothing was installed"
    fi
  elif [ ! -L "$target" ] && [ -e "$target" ]; then
    fail "refusing to install the link $target: something other than a symbolic link is there; nothing was installed"
  fi
}

install_item() {
  target=$base/$4
  make_dirs "$(dirname "$target")"
  if [ -L "$target" ]; then rm -f "$target"; fi
  if [ "$1" = link ]; then
    ln -s "$3" "$target"
  else
    case $3 in
    binary) from=$BINARY ;;
    man-page) from=$root/doc/ghlogin.1 ;;
    *) from=$tmp/$3 ;;
    esac
    install -m "$2" "$from" "$target"
  fi
}

write_completion() {
  case $3 in
  bash | zsh | fish) "$BINARY" completion "$3" > "$tmp/$3" ;;
  esac
}

report_installed() { echo "installed $base/$4"; }

# Uninstall checks: the way, and only what install writes is there (or nothing).
check_remove() {
  check_way "$4" remove
  target=$base/$4
  if [ "$1" = file ]; then
    if [ -L "$target" ] || { [ -e "$target" ] && [ ! -f "$target" ]; }; then
      fail "refusing to remove $target: it is not the regular file install writes; nothing was removed"
    fi
  elif [ -L "$target" ]; then
    if [ "$(readlink "$target")" != "$3" ]; then
      fail "refusing to remove $target: it is a symbolic link to $(link_value "$target"), not to $3; nothing was removed"
    fi
  elif [ -e "$target" ]; then
    fail "refusing to remove $target: it is not the symbolic link install writes; nothing was removed"
  fi
}

remove_item() {
  target=$base/$4
  if [ -L "$target" ] || [ -e "$target" ]; then
    rm -f "$target"
    echo "removed $target"
  fi
}

case $action in
install)
  if [ ! -x "$BINARY" ]; then
    echo "install.sh: $BINARY is missing; build it first:" >&2
    echo "  scripts/build-release.sh" >&2
    exit 2
  fi
  each check_install
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Write everything first, so a failing binary installs nothing.
  each write_completion
  each install_item
  each report_installed
  ;;
uninstall)
  each check_remove
  if [ -L "$base/bin/docker-credential-ghlogin" ]; then
    echo "install.sh: run 'ghlogin setup-docker --unset' before uninstalling: a credHelpers entry naming" >&2
    echo "  the removed docker-credential-ghlogin breaks even pulls of public images" >&2
  fi
  each remove_item
  ;;
*)
  usage
  ;;
esac
