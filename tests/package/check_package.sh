#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks a built tactiled .deb as an installer would meet it: its files and control data,
# lintian, then installed by dpkg into a throwaway root: the accounts, the conffile, the
# unit's systemd-analyze security rating, the programs, the man pages rendered without a
# warning, then reinstall, remove and purge. Exit 1 naming the first thing wrong.
# usage: tests/package/check_package.sh build/release/package/tactiled_VERSION_ARCH.deb
# (any architecture: a Pi's package is checked by script/cross, through qemu-user)
set -euo pipefail
deb=$(realpath "${1:?usage: check_package.sh PACKAGE.deb}")
fail() {
  echo "check_package: $*" >&2
  exit 1
}
ok() { echo "check_package: ok: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- what it installs
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/tactiled ./usr/bin/tactilectl ./usr/bin/tactiled-publish \
    ./usr/share/man/man8/tactiled-publish.8.gz ./usr/lib/systemd/system/tactiled-publish.service \
    ./etc/tactiled/publish.conf \
    ./usr/bin/tactiled-hall ./usr/share/man/man8/tactiled-hall.8.gz \
    ./usr/lib/systemd/system/tactiled-hall.service ./etc/tactiled/hall.conf \
    ./usr/bin/tactiled-hall-setup ./usr/share/man/man8/tactiled-hall-setup.8.gz \
    ./usr/bin/tactiled-usb-gadget ./usr/share/man/man8/tactiled-usb-gadget.8.gz \
    ./usr/share/doc/tactiled/dgt.md \
    ./usr/share/tactiled/hall/mosquitto.conf \
    ./usr/share/man/man8/tactiled.8.gz ./usr/share/man/man1/tactilectl.1.gz \
    ./usr/share/man/man5/tactiled.conf.5.gz \
    ./usr/lib/systemd/system/tactiled.service \
    ./usr/lib/udev/rules.d/60-tactile-board.rules ./usr/lib/udev/rules.d/60-tactiled-gpio.rules \
    ./usr/lib/sysusers.d/tactiled.conf ./etc/tactiled/tactiled.conf \
    ./usr/share/doc/tactiled/copyright ./usr/share/doc/tactiled/changelog.gz; do
  grep -qxF "$f" <<<"$files" || fail "the package lacks $f"
done
ok "programs, man pages, unit, udev rules, sysusers file, settings, copyright, changelog"
# Every doc a man page, a unit or a doc names under /usr/share/doc/tactiled is in it.
here=$(dirname "$(realpath "$0")")
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/files"
"$here/check_doc_paths.sh" "$here/../.." "$work/files" || fail "a doc named under /usr/share/doc/tactiled is missing"

# --- control data
dpkg-deb -e "$deb" "$work/control"
[ "$(cat "$work/control/conffiles")" = "$(printf '/etc/tactiled/tactiled.conf\n/etc/tactiled/publish.conf\n/etc/tactiled/hall.conf')" ] ||
  fail "conffiles is not exactly tactiled.conf, publish.conf and hall.conf: $(cat "$work/control/conffiles")"
for script in postinst prerm postrm; do
  [ -x "$work/control/$script" ] || fail "no executable $script"
done
arch=$(dpkg-deb -f "$deb" Architecture)
# The programs must be built for the architecture the control file names (script/cross
# checks the Pi's packages here too: their programs then run through qemu-user, which
# script/cross registers with binfmt_misc, their libraries from QEMU_LD_PREFIX).
case "$arch" in
  amd64) machine="Advanced Micro Devices X86-64" ;;
  arm64) machine="AArch64" ;;
  armhf) machine="ARM" ;;
  i386) machine="Intel 80386" ;;
  *) fail "Architecture $arch: no ELF machine known for it here" ;;
esac
dpkg-deb -x "$deb" "$work/unpacked"
for program in "$work/unpacked"/usr/bin/*; do
  [ "$(head -c 4 "$program" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
  found=$(readelf -h "$program" | sed -n 's/^ *Machine: *//p')
  [ "$found" = "$machine" ] || fail "${program#"$work/unpacked"} is for $found, the package for $arch"
done
rm -rf "$work/unpacked"
if [ "$arch" != "$(dpkg --print-architecture)" ] && [ -z "${QEMU_LD_PREFIX:-}" ]; then
  fail "an $arch package on $(dpkg --print-architecture): run by script/cross $arch (QEMU_LD_PREFIX)"
fi
depends=$(dpkg-deb -f "$deb" Depends)
# dpkg-shlibdeps must have found the libraries the programs link to.
for lib in libc6 libstdc++6 libboost-program-options libssl3 libgpiod libserialport \
    libespeak-ng1 libsystemd0 libmosquitto1 libcurl4 systemd-sysusers; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
ok "conffiles, maintainer scripts, Architecture $arch (programs for $machine), Depends: $depends"

# --- lintian: no error, no warning (docs/install.md lists what it says)
if ! lintian --fail-on error,warning --no-tag-display-limit "$deb" >"$work/lintian" 2>&1; then
  cat "$work/lintian" >&2
  fail "lintian reports errors or warnings"
fi
ok "lintian: no error, no warning"

# --- installed by dpkg into a throwaway root (maintainer scripts run with DPKG_ROOT, as
# dpkg --root runs them; fakeroot for the files' owners; the libraries are this machine's)
root="$work/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/etc"
: >"$root/var/lib/dpkg/status"
for f in passwd group shadow gshadow; do
  if [ -r "/etc/$f" ]; then cp "/etc/$f" "$root/etc/$f"; else : >"$root/etc/$f"; fi
done
grep -q '^tactiled:' "$root/etc/passwd" "$root/etc/group" && fail "this machine has tactiled already"
dpkg_root() {
  fakeroot dpkg --root="$root" --force-script-chrootless --force-depends --force-not-root \
    --log=/dev/null "$@" >"$work/dpkg" 2>&1 || fail "dpkg $*: $(cat "$work/dpkg")"
}
# dpkg takes a package of another architecture where that architecture is added.
if [ "$arch" != "$(dpkg --print-architecture)" ]; then dpkg_root --add-architecture "$arch"; fi
dpkg_root -i "$deb"
grep -q '^tactiled:x:[0-9]*:[0-9]*:.*:/usr/sbin/nologin$' "$root/etc/passwd" ||
  fail "postinst made no system user tactiled"
grep -q '^tactiled:x:' "$root/etc/group" || fail "postinst made no group tactiled"
grep -q '^gpio:x:' "$root/etc/group" || fail "postinst made no group gpio"
conffiles=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Conffiles}' tactiled)
grep -q "^ /etc/tactiled/tactiled.conf [0-9a-f]\{32\}$" <<<"$conffiles" ||
  fail "dpkg did not register the conffile: $conffiles"
ok "dpkg installs it: postinst creates the user tactiled and the groups tactiled and gpio; conffile registered"

# Each unit: exposed no more than 2.0 by systemd's own rating, and running the installed
# program with its installed settings.
for pair in tactiled:tactiled.conf tactiled-publish:publish.conf tactiled-hall:hall.conf; do
  program=${pair%%:*} settings=${pair#*:}
  unit="$root/usr/lib/systemd/system/$program.service"
  if ! systemd-analyze security --offline=true --threshold=20 "$unit" >"$work/security" 2>&1; then
    cat "$work/security" >&2
    fail "$program's unit exposure rating is above 2.0"
  fi
  ok "$program: $(grep -o 'Overall exposure level.*' "$work/security")"
  grep -qxF "ExecStart=/usr/bin/$program --config /etc/tactiled/$settings" "$unit" ||
    fail "the unit does not run /usr/bin/$program with /etc/tactiled/$settings"
done

for program in tactiled tactilectl tactiled-publish tactiled-hall tactiled-hall-setup; do
  "$root/usr/bin/$program" --help >"$work/help" || fail "$program --help exits $?"
  grep -q "^NAME" "$work/help" || fail "$program --help shows no manual"
done
# The installed settings are the ones the daemon reads without complaint: with no board
# at hand (the serial port /dev/null) and no game in them, it must open its control
# socket and wait for the arbiter's new-game.
: >"$work/run"
"$root/usr/bin/tactiled" --config "$root/etc/tactiled/tactiled.conf" --speech off \
  --serial-port /dev/null --log "$work/g.jsonl" --pgn "$work/g.pgn" --auto-resume off \
  --control "$work/socket" >>"$work/run" 2>&1 &
pid=$!
for _ in $(seq 200); do
  grep -q "^tactiled: control socket" "$work/run" || ! kill -0 "$pid" 2>/dev/null && break
  sleep 0.1
done
# The packaged tactilectl reaches it over the control socket and begins a game.
ctl() { "$root/usr/bin/tactilectl" "$@" --socket "$work/socket"; }
ctl ping >"$work/status" 2>&1 || fail "tactilectl ping on the packaged daemon: $(cat "$work/status")"
ctl new-game --white "Anna Weiss" --black "Boris Schwarz" >"$work/status" 2>&1 ||
  fail "tactilectl new-game: $(cat "$work/status")"
"$root/usr/bin/tactilectl" status --json --socket "$work/socket" >"$work/status" 2>&1 ||
  fail "tactilectl status on the packaged daemon: $(cat "$work/status") (tactiled: $(cat "$work/run"))"
grep -q '"fen"' "$work/status" && grep -q "Anna Weiss" "$work/status" || fail "tactilectl status --json has no fen: $(cat "$work/status")"
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" && status=0 || status=$?
[ "$status" = 0 ] ||
  fail "tactiled with the installed settings did not stop cleanly (status $status): $(cat "$work/run")"
ok "tactiled and tactilectl run; tactiled takes the installed settings; tactilectl ping, new-game and status reach it"

for page in man8/tactiled.8 man1/tactilectl.1 man5/tactiled.conf.5 man8/tactiled-publish.8 man8/tactiled-hall.8 \
  man8/tactiled-hall-setup.8 man8/tactiled-usb-gadget.8; do
  MANWIDTH=80 man --warnings -l "$root/usr/share/man/$page.gz" >"$work/page" 2>"$work/warnings" ||
    fail "man cannot render $page"
  [ ! -s "$work/warnings" ] || fail "$page renders with warnings: $(cat "$work/warnings")"
  grep -q "^NAME" "$work/page" || fail "$page has no NAME section"
done
ok "man pages render without warnings"

# An administrator's settings survive a reinstall and a removal; purge takes them.
echo "language = en  # changed by the administrator" >>"$root/etc/tactiled/tactiled.conf"
dpkg_root -i "$deb"
grep -q "changed by the administrator" "$root/etc/tactiled/tactiled.conf" ||
  fail "a reinstall overwrote the administrator's settings"
dpkg_root -r tactiled
[ ! -e "$root/usr/bin/tactiled" ] || fail "remove left /usr/bin/tactiled"
grep -q "changed by the administrator" "$root/etc/tactiled/tactiled.conf" ||
  fail "remove took the administrator's settings"
dpkg_root -P tactiled
[ ! -e "$root/etc/tactiled/tactiled.conf" ] || fail "purge left /etc/tactiled/tactiled.conf"
grep -q '^tactiled:' "$root/etc/passwd" || fail "purge removed the user tactiled (its logs keep its ids)"
ok "settings kept on reinstall and remove, gone on purge; the accounts stay"
echo "check_package: $(basename "$deb") passes"
