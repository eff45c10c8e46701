#!/usr/bin/env zsh
# zsh_complete.zsh [-d] DIR "command line"
# Prints the completions an interactive zsh offers for "command line" (TAB at its end), one per
# line, with DIR first on $fpath (where the _ghlogin under test lives). With -d it prints the
# descriptions zsh shows beside them instead ("name   description"), as zsh cut them to 80 columns. It drives a real
# interactive zsh in a pseudo-terminal (zsh/zpty); adapted from Valodim/zsh-capture-completion
# (capture.zsh, MIT licence). Used by Tests/GHLoginCLITests/CLI/CompletionScriptsTests.swift.
zmodload zsh/zpty
SHOW=
if [[ $1 == -d ]]; then SHOW=d; shift; fi
DIR=$1; shift
zpty z zsh -f -i
local line
setopt rcquotes
() {
  zpty -w z source $1
  repeat 4; do
    zpty -r z line
    [[ $line == ok* ]] && return
  done
  echo 'error initializing.' >&2
  exit 2
} =( <<< '
PROMPT=
fpath=('$DIR' $fpath)
__show='$SHOW'
autoload compinit
compinit -u -D
bindkey ''^M'' undefined
bindkey ''^J'' undefined
bindkey ''^I'' complete-word
null-line () { echo -E - $''\0'' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle '':completion:*'' list-grouped false
zstyle '':completion:*'' insert-tab false
zstyle '':completion:*'' list-separator ''''
compadd () {
  if [[ -n $__show ]]; then
    local __dn=${@[(i)-d]}
    if (( __dn < $# )); then
      local -a __d; __d=(${(P)@[__dn+1]})
      for i in {1..$#__d}; do echo -E - $__d[$i]; done
    fi
  fi
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  [[ -n $__hits && -z $__show ]] || return
  for i in {1..$#__hits}; do echo -E - $__hits[$i]; done
}
echo ok')
zpty -w z "$*"$'\t'
integer tog=0
while zpty -r z; do :; done | while IFS= read -r line; do
  if [[ $line == *$'\0\r' ]]; then
    (( tog++ )) && return 0 || continue
  fi
  (( tog )) && echo -E - ${line%$'\r'}
done
return 2
