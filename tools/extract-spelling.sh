#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A build-time tool: copies checkpatch.pl's scripts/spelling.txt out of
# Debian's linux-source-VERSION package, for the bot's reviews
# (bot/spell_list.h).  The file is GPL-2.0 kernel text: it is made at
# build time into the build folder and installed, never committed.
#
# Usage: tools/extract-spelling.sh VERSION OUTFILE
# Env: LINUX_SOURCE_TARBALL (default /usr/src/linux-source-VERSION.tar.xz).
# Exit status: 0 ok, 1 failure (the tarball missing, or no spelling.txt).
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
version=$1
out=$2
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-$version.tar.xz}

if [ ! -f "$tarball" ] && [ "$version" = 6.1 ]; then
	# the build's other dependencies come the same way (make deps)
	bash "$repo/deploy/install-deps.sh" >&2 || true
fi
if [ ! -f "$tarball" ]; then
	echo "extract-spelling: $tarball not found: install Debian's linux-source-$version (deploy/install-deps.sh does)" >&2
	exit 1
fi

mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$(dirname "$out")/.spelling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# '*' must not match '/': only TOPDIR/scripts/spelling.txt; stop once
# found (about 10 s: the member sits late in the archive)
tar -xJf "$tarball" -C "$tmp" --strip-components=1 --occurrence=1 \
	--wildcards --no-wildcards-match-slash '*/scripts/spelling.txt'
if ! grep -q '||' "$tmp/scripts/spelling.txt"; then
	echo "extract-spelling: $tarball: scripts/spelling.txt is not checkpatch.pl's list" >&2
	exit 1
fi
chmod 644 "$tmp/scripts/spelling.txt"
# newer than the tarball, so make does not extract it again
touch "$tmp/scripts/spelling.txt"
mv -f "$tmp/scripts/spelling.txt" "$out"
