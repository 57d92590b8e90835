#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every path under /usr/share/doc/tactiled that the man pages, the units' Documentation=
# (@TACTILED_DOC@ is that directory) and the docs name is a file of the package: a reader
# sent there finds it. Exit 1 naming each one missing.
# usage: tests/package/check_doc_paths.sh SOURCE_DIR PACKAGE_FILES
#   PACKAGE_FILES: the package's paths, one a line, as `dpkg-deb -c | awk '{print $6}'`
#   gives them (./usr/share/doc/tactiled/daemon.md).
set -euo pipefail
src=${1:?usage: check_doc_paths.sh SOURCE_DIR PACKAGE_FILES}
list=${2:?usage: check_doc_paths.sh SOURCE_DIR PACKAGE_FILES}
doc=/usr/share/doc/tactiled

# groff writes a hyphen as \- (script\-format.md); the units' template writes the
# directory as @TACTILED_DOC@.
named=$(cat "$src"/man/* "$src"/systemd/*.in "$src"/docs/*.md "$src"/README.md |
  sed -e 's/\\-/-/g' -e "s|@TACTILED_DOC@|$doc|g" |
  grep -oE "$doc/[A-Za-z0-9._-]*[A-Za-z0-9_-]" | sort -u || true)
[ -n "$named" ] || {
  echo "check_doc_paths: no path under $doc named in $src: wrong SOURCE_DIR?" >&2
  exit 1
}
missing=0
while read -r path; do
  # A file as it is, or gzipped (the changelog): dpkg-deb lists them with a leading ./
  if ! grep -qxF -e ".$path" -e ".$path.gz" "$list"; then
    echo "check_doc_paths: named but not in the package: $path" >&2
    missing=1
  fi
done <<<"$named"
[ "$missing" = 0 ] || exit 1
echo "check_doc_paths: ok: $(wc -l <<<"$named") paths under $doc named, all in the package"
