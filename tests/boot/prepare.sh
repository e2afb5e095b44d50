#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One-time preparation of the QEMU load test, cached under build/.
#
# Usage: tests/boot/prepare.sh [BUILDDIR]   (default: build)
# Makes BUILDDIR/boot/root with Debian's linux-image and linux-headers for
# the current linux-image-amd64 ABI, taken from the packages WITHOUT
# installing them (apt-get download + dpkg-deb -x), and prints nothing on
# success.  Afterwards:
#   BUILDDIR/boot/vmlinuz      the kernel image
#   BUILDDIR/boot/headers      the kbuild tree (M= builds against it)
# Idempotent: a stamp file marks a complete preparation.  Nothing here is
# ever installed or loaded on the host.
set -eu
B=${1:-build}
D="$B/boot"
if [ -f "$D/.prepared" ]; then
	exit 0
fi
ABI=${BOOT_KERNEL_ABI:-}
if [ -z "$ABI" ]; then
	ABI=$(apt-cache depends linux-image-amd64 2>/dev/null |
	      sed -n 's/.*Depends: linux-image-\(.*\)-amd64$/\1/p' | head -n 1)
fi
if [ -z "$ABI" ]; then
	echo "boot prepare: cannot tell the kernel ABI (apt-cache depends linux-image-amd64)" >&2
	exit 1
fi
rm -rf "$D"
mkdir -p "$D/deb" "$D/root"
pkgs="linux-image-$ABI-amd64-unsigned linux-headers-$ABI-amd64 linux-headers-$ABI-common linux-kbuild-6.1"
(cd "$D/deb" && apt-get download -q $pkgs >/dev/null)
for f in "$D"/deb/*.deb; do
	dpkg-deb -x "$f" "$D/root"
done
rm -rf "$D/deb"
R=$(cd "$D/root" && pwd)
# The headers' symlinks are relative or absolute into /usr: make the
# absolute ones point into the extracted root.
find "$R" -type l | while read -r l; do
	t=$(readlink "$l")
	case "$t" in
	/usr/*) ln -sfn "$R$t" "$l" ;;
	esac
done
H="$R/usr/src/linux-headers-$ABI-amd64"
# The kbuild tree's Makefile includes the -common tree by absolute path.
for mk in "$H/Makefile" "$R/usr/src/linux-headers-$ABI-common/Makefile"; do
	[ -f "$mk" ] && sed -i "s|/usr/src/|$R/usr/src/|g; s|/usr/lib/linux-kbuild|$R/usr/lib/linux-kbuild|g" "$mk"
done
ln -sfn "$R/boot/vmlinuz-$ABI-amd64" "$D/vmlinuz"
ln -sfn "$H" "$D/headers"
touch "$D/.prepared"
