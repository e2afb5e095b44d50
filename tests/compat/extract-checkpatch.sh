#!/bin/bash
# Extract a reference checker from Debian's linux-source-VERSION tarball.
#
# Usage: tests/compat/extract-checkpatch.sh [VERSION [OUTDIR]]
#   VERSION  a checkpatch.pl version reviewbot follows: 6.1 (default), 6.12
#   OUTDIR   default REPO/build/kernel-VERSION
# Writes OUTDIR/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch}.
# Does nothing when all three exist and are newer than the tarball.  The
# files are the kernel's: they stay under build/ and are never committed.
# Env: LINUX_SOURCE_TARBALL (default /usr/src/linux-source-VERSION.tar.xz).
# Exit status: 0 ok, 1 failure, 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
version=${1:-6.1}
case "$version" in
[0-9]*.[0-9]*) ;;
*) echo "extract-checkpatch: not a kernel version: $version" >&2; exit 2 ;;
esac
outdir=${2:-$repo/build/kernel-$version}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-$version.tar.xz}
files="checkpatch.pl spelling.txt const_structs.checkpatch"

if [ ! -f "$tarball" ]; then
	bash "$repo/deploy/install-deps.sh" >&2
	if [ ! -f "$tarball" ]; then
		echo "extract-checkpatch: $tarball not found (is linux-source-$version installed?)" >&2
		exit 1
	fi
fi

fresh=1
for f in $files; do
	if [ ! -f "$outdir/scripts/$f" ] || [ ! "$outdir/scripts/$f" -nt "$tarball" ]; then
		fresh=0
	fi
done
if [ "$fresh" = 1 ]; then
	exit 0
fi

mkdir -p "$outdir/scripts"
tmp=$(mktemp -d "$outdir/.extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# -m: stamp extraction time so the freshness test above works;
# --occurrence: stop reading once all three members were found.
# '*' must not match '/', so only TOPDIR/scripts/NAME is taken.
tar -xJmf "$tarball" -C "$tmp" --strip-components=1 --occurrence=1 \
	--wildcards --no-wildcards-match-slash \
	'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch'

for f in $files; do
	mv -f "$tmp/scripts/$f" "$outdir/scripts/$f"
done
echo "extract-checkpatch: extracted $files of linux-source-$version into $outdir/scripts" >&2
