#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: the compile stage's cost on this machine (issue 34 item 7).
#  - a tree's first fetch (the test trees of tests/build/mktrees.sh, over
#    a git daemon on 127.0.0.1) and preparation (check out, allmodconfig
#    without CONFIG_WERROR, modules_prepare) into a fresh work folder;
#  - per series, as reviewbot logs it: apply (check out the base, git am
#    -3), the touched object and its module at W=1, sparse, gcc
#    -fanalyzer and coccinelle on the patched tree and (where they said
#    something) on the base, the whole stage; with the base's results not
#    cached and cached; the stage's peak memory (its cgroup's, page cache
#    counted) and what its object folder grew by;
#  - what one sandbox costs against a plain fork and exec.
# The machine's load is printed before and after: the figures are only as
# quiet as it was.
#
# Usage: tests/bench/bench_build.sh   (REVIEWBOT=path, BUILD_DIR=build)
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
bdir=${BUILD_DIR:-$repo/build}
tmp=$(mktemp -d)
daemon_pid=
trap '[ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# the sandbox's user (nobody, when we are root) reaches the work folder
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "compile stage (linux 6.1 allmodconfig, $(nproc) cores; load before: $(load)):"
t0=$(date +%s.%N)
bash "$repo/tests/build/mktrees.sh" "$bdir" >/dev/null
t1=$(date +%s.%N)
up=$bdir/trees/upstream.git
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git daemon --reuseaddr --listen=127.0.0.1 --port="$port" --base-path="$bdir/trees" \
	--export-all "$bdir/trees" >/dev/null 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do
	git ls-remote "git://127.0.0.1:$port/upstream.git" >/dev/null 2>&1 && break
	sleep 0.2
done

mkmail() {	# mkmail FILE MSGID DIFF
	{
		printf 'From: Dana Dev <dana@example.org>\nTo: linux-hwmon@vger.kernel.org\n'
		printf 'Subject: [PATCH] misc: dummy-irq: a change\nDate: Thu, 3 Dec 2026 10:00:00 +0000\n'
		printf 'Message-ID: <%s@example.org>\n\nA change.\n\n' "$2"
		printf 'Signed-off-by: Dana Dev <dana@example.org>\n---\n'
		cat "$3"
		printf -- '-- \n2.39.5\n'
	} >"$1"
}
mkdir -p "$tmp/d/a/drivers/misc" "$tmp/d/b/drivers/misc"
git --git-dir="$up" show hwmon-next:drivers/misc/dummy-irq.c >"$tmp/d/a/drivers/misc/dummy-irq.c"
# a series that adds code to the driver (a new function per tool's kind)
/usr/bin/python3 - "$tmp/d/a/drivers/misc/dummy-irq.c" "$tmp/d/b/drivers/misc/dummy-irq.c" <<'PY'
import sys
src = open(sys.argv[1]).read()
new = '''
static int rb_new_unused(int x)
{
	return x + 1;
}

int rb_new_user(int __user *up);
int rb_new_user(int __user *up)
{
	return up[1];
}
'''
at = src.index('};\n', src.index('struct rb_base_s {')) + 3
open(sys.argv[2], 'w').write(src[:at] + new + src[at:])
PY
{
	echo "diff --git a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c"
	(cd "$tmp/d" && diff -u --label a/drivers/misc/dummy-irq.c --label b/drivers/misc/dummy-irq.c \
		a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c) || true
} >"$tmp/add.diff"
# and one that only changes a comment (clean)
sed -i 's|^static int irq = -1;$|static int irq = -1;\t/* none */|' "$tmp/d/a/drivers/misc/dummy-irq.c"
{
	echo "diff --git a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c"
	git --git-dir="$up" show hwmon-next:drivers/misc/dummy-irq.c >"$tmp/d/b/drivers/misc/dummy-irq.c"
	(cd "$tmp/d" && diff -u --label a/drivers/misc/dummy-irq.c --label b/drivers/misc/dummy-irq.c \
		b/drivers/misc/dummy-irq.c a/drivers/misc/dummy-irq.c) || true
} >"$tmp/clean.diff"

conf() {	# conf N
	mkdir -p "$tmp/list$1/new" "$tmp/list$1/cur" "$tmp/list$1/tmp" "$tmp/db"
	cat >"$tmp/rb$1.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "hwmon"]
	type = maildir
	path = $tmp/list$1
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
[build]
	work = $tmp/work
	jobs = 2
	timeout = 1800
[tree "hwmon-next"]
	url = git://127.0.0.1:$port/upstream.git
	branch = hwmon-next
	lists = linux-hwmon@vger.kernel.org
EOF
}
# 1: the first series pays for the first fetch and the preparation;
# 2: the same series again: the base's results cached;
# 3: a clean change (after the others: the base's objects there)
conf 1
mkmail "$tmp/list1/new/1" bench-first-1 "$tmp/add.diff"
"$rb" run --once --verbose --config "$tmp/rb1.conf" >/dev/null 2>"$tmp/err1"
conf 2
mkmail "$tmp/list2/new/1" bench-cached-1 "$tmp/add.diff"
"$rb" run --once --verbose --config "$tmp/rb2.conf" >/dev/null 2>"$tmp/err2"
conf 3
mkmail "$tmp/list3/new/1" bench-clean-1 "$tmp/clean.diff"
"$rb" run --once --verbose --config "$tmp/rb3.conf" >/dev/null 2>"$tmp/err3"
t2=$(date +%s.%N)

cost() { grep -o 'cost="[^"]*"' "$1" | head -1 | tr -d '"' | sed 's/^cost=//'; }
field() { echo "$1" | tr ' ' '\n' | grep "^$2=" | head -1 | cut -d= -f2; }
c1=$(cost "$tmp/err1")
took() { grep "event=build-command" "$1" | grep -- "$2" | head -1 | sed 's/.*took=\([0-9.]*s\).*/\1/'; }
printf '  test trees made: %.1fs (0 when cached in build/trees)\n' "$(echo "$t1 - $t0" | bc)"
echo "  first fetch of the tree (clone over git://, 248 MB): $(grep -o 'event=tree-fetched[^ ]* tree=hwmon-next.*took=[0-9.]*s' "$tmp/err1" | head -1 | sed 's/.*took=//')"
echo "  first check-out of the work tree: $(took "$tmp/err1" 'checkout -q -f --detach')"
echo "  preparation of the object folder (allmodconfig, modules_prepare): $(took "$tmp/err1" 'modules_prepare')"
echo "  work folder after the first series: $(du -sh "$tmp/work" | cut -f1) (repository $(du -sh "$tmp/work/repo.git" | cut -f1), worker $(du -sh "$tmp/work/w0" | cut -f1))"
for n in 1 2 3; do
	c=$(cost "$tmp/err$n")
	case $n in
	1) what="a one-driver series, first on the tree (fetch and preparation included)" ;;
	2) what="the same series again (base results cached)" ;;
	3) what="a clean one-driver change on the same base" ;;
	esac
	echo "  $what:"
	echo "    sync $(field "$c" sync), prepare $(field "$c" prepare), apply $(field "$c" apply);" \
	     "after+base: gcc $(field "$c" gcc), sparse $(field "$c" sparse), analyzer $(field "$c" analyzer)," \
	     "coccinelle $(field "$c" coccinelle); stage total $(field "$c" total);" \
	     "base results cached $(field "$c" cached); sandboxes $(field "$c" sandboxes);" \
	     "peak memory $(field "$c" peak) (cgroup, page cache counted); object folder grew $(field "$c" disk)"
done
printf '  run --once for the 3 series, first fetch and preparation included: %.1fs\n' "$(echo "$t2 - $t1" | bc)"
echo "  load after: $(load)"

# what the sandbox adds: each command of a series runs in one (the cost
# log's sandboxes=N); one sandbox's start and end, measured here with the
# compile stage's folders, against a plain fork and exec
cc -std=c11 -D_GNU_SOURCE -O2 -I"$repo" -o "$tmp/sandbox_cost" "$repo/tests/bench/sandbox_cost.c" \
	"$repo/bot/stage/sandbox.c" "$repo/bot/stage/cgroup.c" "$repo/checker/sbuf.c"
cost=$("$tmp/sandbox_cost" 40 "$up" "$tmp/work/w0/src" "$tmp/work/w0/obj.base")
sb_ms=${cost#sandbox_ms=}; sb_ms=${sb_ms%% *}
echo "  one sandbox (bwrap, start to end): ${sb_ms} ms median of 40; a plain fork and exec: ${cost##*plain_ms=} ms"
