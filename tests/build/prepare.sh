#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One-time preparation of the compile-test kernel tree, cached under build/.
#
# Usage: tests/build/prepare.sh [BUILDDIR]   (default: build)
# Makes BUILDDIR/ksrc (Debian's linux-source-6.1 extracted, pristine) and lets
# reviewbot's own preparation (O= folder, config, modules_prepare, git
# baseline outside the tree) happen on the first review. Idempotent: a stamp
# file marks a complete extraction.
set -eu
B=${1:-build}
TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
mkdir -p "$B"
if [ -f "$B/ksrc/.reviewbot-extracted" ]; then
	exit 0
fi
if [ ! -f "$TARBALL" ]; then
	echo "prepare: $TARBALL missing (apt-get install linux-source-6.1)" >&2
	exit 1
fi
rm -rf "$B/ksrc" "$B/ksrc.tmp"
mkdir -p "$B/ksrc.tmp"
tar -C "$B/ksrc.tmp" --strip-components=1 -xJf "$TARBALL"
mv "$B/ksrc.tmp" "$B/ksrc"
# The stamp lives inside the tree but is not a kernel file; it is excluded
# from reviewbot's git baseline via info/exclude.
touch "$B/ksrc/.reviewbot-extracted"
