#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: the QEMU load stage's cost per module on this machine — the
# one-time preparation (Debian's kernel image and headers extracted into
# build/boot), then build against the headers and TCG boot + load + unload,
# BENCH_BOOT_RUNS times (default 3) for a clean module.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
runs=${BENCH_BOOT_RUNS:-3}
if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "bench boot: qemu-system-x86_64 missing, skipped"
	exit 0
fi
t0=$(date +%s.%N)
bash tests/boot/prepare.sh build || exit 1
prep=$(echo "$(date +%s.%N) - $t0" | bc)
W=$(mktemp -d /tmp/rb-bench-boot.XXXXXX)
chmod 755 "$W"	# the sandbox's user (nobody, when we are root) reaches its work folder
trap 'rm -rf "$W"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -o "$W/boot_run" tests/boot/boot_run.c bot/stage/boot.c bot/stage/boot_tree.c bot/stage/ctext.c bot/stage/sandbox.c bot/stage/cgroup.c checker/diff.c checker/sbuf.c || exit 1
bsum=0; qsum=0
for i in $(seq "$runs"); do
	line=$("$W/boot_run" "$(readlink -f build/boot/vmlinuz)" "$(readlink -f build/boot/headers)" \
		"$W/work" rbclean tests/boot/mod_clean/rbclean.c | head -n 1)
	case "$line" in
	verdict=ok*) ;;
	*) echo "bench boot: run $i: $line"; exit 1 ;;
	esac
	b=$(echo "$line" | sed -n 's/.*build_s=\([0-9.]*\).*/\1/p')
	q=$(echo "$line" | sed -n 's/.*boot_s=\([0-9.]*\).*/\1/p')
	bsum=$(echo "$bsum + $b" | bc)
	qsum=$(echo "$qsum + $q" | bc)
done
printf 'boot stage: prepare %.1f s (cached after the first run); per module: build %.1f s, boot+load+unload %.1f s (mean of %d, TCG)\n' \
	"$prep" "$(echo "scale=2; $bsum / $runs" | bc)" "$(echo "scale=2; $qsum / $runs" | bc)" "$runs"
