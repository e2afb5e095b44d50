#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The QEMU load stage (bot/stage/boot.c) on a driver a series CHANGES: Debian's
# drivers/net/dummy.c read from [build] tree (build/ksrc, Debian's
# linux-source-6.1), the series' hunks applied in memory, built against
# Debian's headers and loaded in QEMU.  Two one-patch series through
# `reviewbot run --once`: one whose init dereferences NULL (the review has
# MODULE_LOAD_OOPS and "seems to work: concern"), one that only adds a
# pr_info (loads and unloads cleanly).  Setting [build] tree enables the
# compile stage too: it reuses build/ksrc.reviewbot, prepared by
# tests/build (the same tree and config).  Then a [boot] section without
# [build] tree: the checklist says the changed driver cannot be read.
# The tree is never written (its dummy.c is compared before and after);
# fake insmod/modprobe/rmmod first in PATH record any call on the host.
#
# Usage: tests/boot/test_boot_changed.sh   (from anywhere; REVIEWBOT=path;
# run by `make boot-tests`).  One-time preparations are cached in build/.
set -u
cd "$(dirname "$0")/../.."
B=build/boot
fail=0
ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; fail=1; }
rb=${REVIEWBOT:-$PWD/reviewbot}

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "boot-tests: qemu-system-x86_64 missing (deploy/install-deps.sh)" >&2
	exit 1
fi
if [ ! -x "$rb" ]; then
	echo "boot-tests: $rb missing (make)" >&2
	exit 1
fi
t0=$(date +%s)
bash tests/boot/prepare.sh build || { echo "boot-tests: preparation failed" >&2; exit 1; }
bash tests/build/prepare.sh build || { echo "boot-tests: kernel source missing" >&2; exit 1; }
echo "# prepare: $(( $(date +%s) - t0 )) s"
tree=$PWD/build/ksrc
drv=drivers/net/dummy.c
sum0=$(sha256sum "$tree/$drv")

W=$(mktemp -d /tmp/rb-boot-changed.XXXXXX)
chmod 755 "$W"	# the sandbox's user (nobody, when we are root) reaches its work folder
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin" "$W/list/cur" "$W/list/new" "$W/list/tmp" "$W/db"
# Host tools a careless stage would call record their calls (host_guard.sh).
. tests/boot/host_guard.sh
host_guard "$W"

# mkpatch N SUBJECT SED-SCRIPT: a patch to dummy.c made with diff -u
# against a copy of the tree's (never in the tree), mailed to the list
mkpatch() {
	rm -rf "$W/p"
	mkdir -p "$W/p/a/${drv%/*}" "$W/p/b/${drv%/*}"
	cp "$tree/$drv" "$W/p/a/$drv"
	sed "$3" "$tree/$drv" > "$W/p/b/$drv"
	{
		printf 'From: Ann Author <ann@example.com>\n'
		printf 'To: netdev@vger.kernel.org\n'
		printf 'Subject: [PATCH] %s\n' "$2"
		printf 'Date: Thu, 03 Dec 2026 11:0%s:00 +0000\n' "$1"
		printf 'Message-ID: <boot-changed-%s@example.com>\n\n' "$1"
		printf 'Change the dummy driver.\n\nSigned-off-by: Ann Author <ann@example.com>\n---\n'
		(cd "$W/p" && diff -u a/$drv b/$drv)
		printf -- '-- \n2.39.5\n'
	} > "$W/list/new/$1.mail"
	grep -q '^+' "$W/list/new/$1.mail" || bad "mkpatch $1: the sed script changed nothing"
}
# 1: the init dereferences the NULL a failed lookup returns
lookup='\tstruct net_device *first = dev_get_by_name(\&init_net, "dummy0");'
mkpatch 1 "net: dummy: report the first device's MTU" \
	'/^static int __init dummy_init_module(void)$/,/^}/{
		s/^\tint i, err = 0;$/&\n'"$lookup"'\n\n\tpr_info("dummy: mtu %u\\n", READ_ONCE(first->mtu));/
	}'
# 2: harmless
mkpatch 2 "net: dummy: say how many devices are made" \
	'/^static int __init dummy_init_module(void)$/,/^}/{
		s/^\tint i, err = 0;$/&\n\n\tpr_info("dummy: making %d devices\\n", numdummies);/
	}'
grep -A4 '^@@' "$W/list/new/1.mail" | sed 's/^/# patch 1: /'
# 3: a harmless change to a driver that fails its init without the
# series too (dummy-irq wants an irq= parameter): not the author's fault
cp tests/build/0001-clean.patch "$W/list/new/4.mail"

cat > "$W/rb.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $W/db/reviewbot.db
	templates = $PWD/templates
	dry_run = true
[source "lkml"]
	type = maildir
	path = $W/list
	list = netdev@vger.kernel.org
[delivery]
	type = maildir
	path = $W/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	list_wait = 0	# mailed in, not the list's copies: answered at once
	author_replies_per_hour = 0
	list_replies_per_hour = 0
	max_replies_per_hour = 0
[build]
	tree = $tree
	config = allmodconfig
	jobs = 2
	timeout = 900
[boot]
	kernel = $(readlink -f $B/vmlinuz)
	headers = $(readlink -f $B/headers)
	timeout = 180
CONF

s=$(date +%s)
# LeakSanitizer (a SANITIZE=1 build) cannot run under ptrace: leaks are
# checked on the run without strace below
PATH="$W/bin:$PATH" ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "${STRACE[@]}" \
	"$rb" run --once --config "$W/rb.conf" > "$W/e2e.out" 2>&1
rc=$?
echo "# e2e (compile and load stages, 3 series): $(( $(date +%s) - s )) s"
sed -n 's/.*event=\([a-z]*-test\) series="\([^"]*\)".*cost="\([^"]*\)".*/# \1 "\2": \3/p' \
	"$W/e2e.out" | head -n 8
oops=$(grep -l 'In-Reply-To: <boot-changed-1@example.com>' "$W"/outbox/new/* 2>/dev/null)
clean=$(grep -l 'In-Reply-To: <boot-changed-2@example.com>' "$W"/outbox/new/* 2>/dev/null)
if [ $rc -eq 0 ] && [ -n "$oops" ] && grep -q 'MODULE_LOAD_OOPS' "$oops" &&
   grep -q 'BUG: kernel NULL pointer dereference' "$oops" &&
   grep -q 'dummy_init_module' "$oops" &&
   grep -q 'seems to work: *concern' "$oops"; then
	ok "a changed driver whose init oopses: MODULE_LOAD_OOPS, seems to work: concern"
else
	bad "a changed driver whose init oopses: MODULE_LOAD_OOPS, seems to work: concern"
	cat "$W/e2e.out" $oops
fi
[ -n "$oops" ] && sed -n '/^Merge readiness/,/^-- $/p' "$oops" | sed 's/^/# /'
if [ $rc -eq 0 ] && [ -n "$clean" ] &&
   tr -s ' \n' '  ' < "$clean" |
   grep -q 'seems to work: ok (loads and unloads cleanly in QEMU (no hardware present))' &&
   ! grep -q 'MODULE_LOAD_' "$clean"; then
	ok "a harmless change to a driver: seems to work: ok (loads and unloads cleanly)"
else
	bad "a harmless change to a driver: seems to work: ok (loads and unloads cleanly)"
	cat "$W/e2e.out" $clean
fi
irq=$(grep -l 'In-Reply-To: <build-clean-1@example.org>' "$W"/outbox/new/* 2>/dev/null)
if [ $rc -eq 0 ] && [ -n "$irq" ] && ! grep -q 'MODULE_LOAD_' "$irq" &&
   tr -s ' \n' '  ' < "$irq" |
   grep -q 'seems to work: not checked (dummy_irq: failed load in QEMU without the series too'; then
	ok "a driver that fails to load without the series too: not checked, not a finding"
else
	bad "a driver that fails to load without the series too: not checked, not a finding"
	cat "$W/e2e.out" $irq
fi
if [ "$(sha256sum "$tree/$drv")" = "$sum0" ]; then
	ok "[build] tree's $drv is unchanged"
else
	bad "[build] tree's $drv is unchanged"
fi

# without [build] tree: nothing is loaded, the checklist says why
mkdir -p "$W/db2"
rm -f "$W"/list/cur/* "$W"/list/new/*
mkpatch 3 "net: dummy: say how many devices are made, again" \
	'/^static int __init dummy_init_module(void)$/,/^}/{
		s/^\tint i, err = 0;$/&\n\n\tpr_info("dummy: %d devices\\n", numdummies);/
	}'
sed -e "s|$W/db/|$W/db2/|; s|$W/outbox|$W/outbox2|" -e '/^\[build\]/,/^\[boot\]/{/^\[boot\]/!d}' \
	"$W/rb.conf" > "$W/rb2.conf"
s=$(date +%s)
PATH="$W/bin:$PATH" "$rb" run --once --config "$W/rb2.conf" > "$W/e2e2.out" 2>&1
rc=$?
echo "# e2e without [build] tree: $(( $(date +%s) - s )) s"
m=$(grep -l 'In-Reply-To: <boot-changed-3@example.com>' "$W"/outbox2/new/* 2>/dev/null)
why='\[build\] tree is not set to read the drivers it changes'
if [ $rc -eq 0 ] && [ -n "$m" ] && ! grep -q '^\[build\]' "$W/rb2.conf" &&
   tr -s ' \n' '  ' < "$m" |
   grep -q "seems to work: not checked (the series adds no module, and $why)"; then
	ok "without [build] tree: not checked, the checklist says [build] tree is not set"
else
	bad "without [build] tree: not checked, the checklist says [build] tree is not set"
	cat "$W/rb2.conf" "$W/e2e2.out" $m
fi

host_guard_report "$W" "first run"
echo "# boot-changed-tests: $(( $(date +%s) - t0 )) s in all"
exit $fail
