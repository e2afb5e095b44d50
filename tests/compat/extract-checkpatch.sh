#!/bin/bash
# Extract the reference checker from Debian's linux-source-6.1 tarball.
#
# Usage: tests/compat/extract-checkpatch.sh [OUTDIR]      (default: REPO/build/kernel)
# Writes OUTDIR/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch}.
# Does nothing when all three exist and are newer than the tarball.
# Env: LINUX_SOURCE_TARBALL (default /usr/src/linux-source-6.1.tar.xz).
# Exit status: 0 ok, 1 failure.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
outdir=${1:-$repo/build/kernel}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
files="checkpatch.pl spelling.txt const_structs.checkpatch"

if [ ! -f "$tarball" ]; then
	bash "$repo/deploy/install-deps.sh"
	if [ ! -f "$tarball" ]; then
		echo "extract-checkpatch: $tarball not found (is linux-source-6.1 installed?)" >&2
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
echo "extract-checkpatch: extracted $files into $outdir/scripts" >&2
