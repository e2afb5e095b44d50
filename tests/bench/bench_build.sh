#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: the compile stage's cost on this machine.
#  - one-time: extracting linux-source-6.1 (cached in build/ksrc; measured
#    only when not there yet) and reviewbot's preparation (git baseline
#    outside the tree, allmodconfig without CONFIG_WERROR, modules_prepare)
#    into a fresh work folder;
#  - per series: apply + build (the touched objects with W=1, on the
#    pristine and the patched tree) and reset, for the clean, error and
#    warning series of tests/build, as reviewbot logs them.
#
# Usage: tests/bench/bench_build.sh   (REVIEWBOT=path, BUILD_DIR=build)
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
bdir=${BUILD_DIR:-$repo/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# the sandbox's user (nobody, when we are root) reaches the work folder
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

t0=$(date +%s.%N)
bash "$repo/tests/build/prepare.sh" "$bdir"
t1=$(date +%s.%N)

mkdir -p "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp" "$tmp/db"
for p in 0001-clean 0002-error 0003-warning; do
	cp "$repo/tests/build/$p.patch" "$tmp/list/new/$p"
done
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "lkml"]
	type = maildir
	path = $tmp/list
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
[build]
	tree = $bdir/ksrc
	work = $tmp/work
	jobs = 2
EOF
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err"
t2=$(date +%s.%N)

echo "compile stage (linux 6.1 allmodconfig, $(nproc) cores):"
printf '  one-time: extract %.1fs (0 when cached), prepare %.1fs, work folder %s\n' \
	"$(echo "$t1 - $t0" | bc)" \
	"$(grep -o 'prepare=[0-9.]*s' "$tmp/err" | head -1 | tr -dc '0-9.')" \
	"$(du -sh "$tmp/work" | cut -f1)"
grep -o 'cost="[^"]*"' "$tmp/err" | sed 's/cost="wait=[0-9.]*s prepare=[0-9.]*s /  per series: /; s/"$//'
printf '  run --once for 3 series, preparation included: %.1fs\n' "$(echo "$t2 - $t1" | bc)"

# what the sandbox adds: each command of a series runs in one (the cost
# log's sandboxes=N); one sandbox's start and end, measured here with the
# compile stage's folders, against a plain fork and exec
cc -std=c11 -D_GNU_SOURCE -O2 -I"$repo" -o "$tmp/sandbox_cost" "$repo/tests/bench/sandbox_cost.c" \
	"$repo/bot/sandbox.c" "$repo/checker/sbuf.c"
cost=$("$tmp/sandbox_cost" 40 "$bdir/ksrc" "$tmp/work/src" "$tmp/work/obj")
sb_ms=${cost#sandbox_ms=}; sb_ms=${sb_ms%% *}
echo "  one sandbox (bwrap, start to end): ${sb_ms} ms median of 40; a plain fork and exec: ${cost##*plain_ms=} ms"
grep -o 'build=[0-9.]*s sandboxes=[0-9]*' "$tmp/err" | while read -r b n; do
	b=${b#build=}; b=${b%s}; n=${n#sandboxes=}
	printf '  a series: %s sandboxes = %.2f s of %.1f s apply and build (%.1f%%)\n' \
		"$n" "$(echo "$n * $sb_ms / 1000" | bc -l)" "$b" "$(echo "100 * $n * $sb_ms / 1000 / $b" | bc -l)"
done
