#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside a Debian root where the tactiled package has just been installed by apt
# (script/cross arm64 installs its .deb in a clean arm64 root and runs this there, through
# qemu): the accounts its postinst made, the programs, a replay of a real game and the
# arbiter's log check. Exit 1 naming the first thing wrong.
# usage: check_installed.sh GAME-SCRIPT REFERENCE.pgn
set -eu
script=${1:?usage: check_installed.sh GAME-SCRIPT REFERENCE.pgn}
reference=${2:?usage: check_installed.sh GAME-SCRIPT REFERENCE.pgn}
fail() {
  echo "check_installed: $*" >&2
  exit 1
}
ok() { echo "check_installed: ok: $*"; }

echo "check_installed: on $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME")"

# --- the accounts (packaging/sysusers.conf, made by systemd-sysusers in the postinst)
getent passwd tactiled >/dev/null || fail "no user tactiled"
for group in tactiled gpio brlapi; do
  getent group "$group" >/dev/null || fail "no group $group"
done
[ "$(getent passwd tactiled | cut -d: -f6)" = /var/lib/tactiled ] || fail "tactiled's home is not /var/lib/tactiled"
ok "user tactiled, groups tactiled, gpio, brlapi"

# --- the programs start
version=$(tactiled --version) || fail "tactiled --version failed"
ok "tactiled --version: $version"
tactilectl --help >/dev/null || fail "tactilectl --help failed"
tactiled-publish --help >/dev/null || fail "tactiled-publish --help failed"
tactiled-hall --help >/dev/null || fail "tactiled-hall --help failed"
ok "tactilectl, tactiled-publish, tactiled-hall answer --help"
# The man pages the units' Documentation= names.
for page in man8/tactiled.8 man5/tactiled.conf.5 man1/tactilectl.1 man8/tactiled-publish.8 \
    man8/tactiled-hall.8; do
  [ -f "/usr/share/man/$page.gz" ] || fail "no man page /usr/share/man/$page.gz"
done
ok "the man pages the units name"

# --- a real game replayed on the simulated board (as script/demo does), as the tactiled user
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chown tactiled "$work"
cp "$script" "$work/game.txt"
setpriv --reuid=tactiled --regid=tactiled --clear-groups \
  tactiled --replay "$work/game.txt" --time-control 300+3 \
  --pgn "$work/game.pgn" --log "$work/game.jsonl" >"$work/replay.out" ||
  fail "the replay failed: $(tail -n 5 "$work/replay.out")"
tail -n 1 "$work/replay.out"
# The moves recorded are the real game's (its PGN without tags, numbers and comments).
moves() {
  sed '/^\[/d' "$1" | tr '\n' ' ' | sed 's/{[^}]*}//g' | tr ' ' '\n' |
    grep -v -e '^$' -e '^[0-9]*\.' -e '^[0-9]*\.\.\.' | tr '\n' ' '
}
[ "$(moves "$work/game.pgn")" = "$(moves "$reference")" ] ||
  fail "the replay's moves '$(moves "$work/game.pgn")' are not the game's '$(moves "$reference")'"
ok "replay: the game's moves and result: $(moves "$work/game.pgn")"

# --- the arbiter's log: its hash chain holds, and a changed line is found
tactilectl log verify "$work/game.jsonl" || fail "tactilectl log verify rejects the replay's log"
sed '0,/"square":"e4"/s//"square":"e3"/' "$work/game.jsonl" >"$work/tampered.jsonl"
if tactilectl log verify "$work/tampered.jsonl" >/dev/null 2>&1; then
  fail "tactilectl log verify accepts a changed log"
fi
ok "tactilectl log verify: the chain holds, a changed move is found"
