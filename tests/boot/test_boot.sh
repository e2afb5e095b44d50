#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The QEMU load stage (bot/stage/boot.c) on Debian's kernel image and headers:
# a module that loads and unloads cleanly, one that oopses in its init
# (NULL dereference), one whose init fails, and the refusal without QEMU.
# Proves nothing is loaded on the host: fake insmod/modprobe/rmmod first in
# PATH record any call, and strace (when present) watches every process
# for init_module/finit_module/delete_module.
#
# Usage: tests/boot/test_boot.sh   (from the repository root; run by
# `make boot-tests`).  One-time preparation (tests/boot/prepare.sh) is
# cached in build/boot.
set -u
cd "$(dirname "$0")/../.."
B=build/boot
fail=0
ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; fail=1; }

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "boot-tests: qemu-system-x86_64 missing (deploy/install-deps.sh)" >&2
	exit 1
fi
t0=$(date +%s)
bash tests/boot/prepare.sh build || { echo "boot-tests: preparation failed" >&2; exit 1; }
echo "# prepare: $(( $(date +%s) - t0 )) s"

W=$(mktemp -d /tmp/rb-boot.XXXXXX)
chmod 755 "$W"	# the sandbox's user (nobody, when we are root) reaches its work folder
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin"
CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wformat=2 -Wno-format-nonliteral -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith -Wvla -Werror -g"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cc $CFLAGS $SAN -o "$W/boot_run" tests/boot/boot_run.c bot/stage/boot.c bot/stage/boot_tree.c bot/stage/ctext.c bot/stage/sandbox.c bot/stage/cgroup.c checker/diff.c checker/sbuf.c || exit 1

# Host tools a careless stage would call record their calls (host_guard.sh).
. tests/boot/host_guard.sh
host_guard "$W"

# run NAME SRC [strace]: the stage on one module, output in $W/NAME.out;
# LeakSanitizer cannot run under ptrace, so leaks are checked on the runs
# without strace
run() {
	local s=$(date +%s.%N) leaks=1 st=()
	if [ $# -gt 2 ] && [ ${#STRACE[@]} -gt 0 ]; then
		st=("${STRACE[@]}")
		leaks=0
	fi
	PATH="$W/bin:$PATH" ASAN_OPTIONS=detect_leaks=$leaks "${st[@]}" "$W/boot_run" \
		"$(readlink -f $B/vmlinuz)" "$(readlink -f $B/headers)" "$W/work" "$1" "$2" 120 \
		> "$W/$1.out" 2>&1
	local rc=$?
	# BOOT_KEEP=DIR: the boot's console and /init's port, as fixtures
	# for tests/unit/test_boot.c (tests/boot/console/)
	if [ -n "${BOOT_KEEP:-}" ]; then
		cp "$W/work/console.log" "$BOOT_KEEP/$1.console" 2>/dev/null
		cp "$W/work/qemu/marks" "$BOOT_KEEP/$1.marks" 2>/dev/null
	fi
	printf '# %s: %.1f s (%s)\n' "$1" "$(echo "$(date +%s.%N) - $s" | bc)" \
		"$(head -n 1 "$W/$1.out")"
	if [ -s "$W/strace" ] && grep -Eq 'init_module|delete_module' "$W/strace"; then
		bad "$1: init_module/delete_module called on the host"
		cat "$W/strace"
	fi
	return $rc
}

run rbclean tests/boot/mod_clean/rbclean.c strace || bad "rbclean: stage failed"
if grep -q '^verdict=ok ' "$W/rbclean.out" &&
   grep -q '^note: loads and unloads cleanly in QEMU (no hardware present)$' "$W/rbclean.out"; then
	ok "a clean module loads and unloads cleanly"
else
	bad "a clean module loads and unloads cleanly"; cat "$W/rbclean.out"
fi

run rboops tests/boot/mod_oops/rboops.c || bad "rboops: stage failed"
if grep -q '^verdict=concern type=MODULE_LOAD_OOPS ' "$W/rboops.out" &&
   grep -q 'BUG: kernel NULL pointer dereference' "$W/rboops.out" &&
   grep -q 'RIP: 0010:rboops_init' "$W/rboops.out"; then
	ok "a module that oopses in init is MODULE_LOAD_OOPS with the oops lines"
else
	bad "a module that oopses in init is MODULE_LOAD_OOPS with the oops lines"; cat "$W/rboops.out"
fi

run rbfail tests/boot/mod_fail/rbfail.c || bad "rbfail: stage failed"
if grep -q '^verdict=concern type=MODULE_LOAD_FAILED ' "$W/rbfail.out" &&
   grep -q 'No such device' "$W/rbfail.out"; then
	ok "a module whose init fails is MODULE_LOAD_FAILED with insmod's words"
else
	bad "a module whose init fails is MODULE_LOAD_FAILED with insmod's words"; cat "$W/rbfail.out"
fi

# A module that prints the markers /init once printed (every form it could
# guess) and then BUG()s at unload: the verdict is read from /init's own
# port with a nonce, and a BUG on the console is a concern whatever it
# follows (issue 19 item 3).
run rbfake tests/boot/mod_fake/rbfake.c || bad "rbfake: stage failed"
if grep -q '^verdict=concern type=MODULE_LOAD_OOPS ' "$W/rbfake.out" &&
   grep -q 'kernel BUG at' "$W/rbfake.out"; then
	ok "a module that fakes the markers and then BUG()s is MODULE_LOAD_OOPS, not clean"
else
	bad "a module that fakes the markers and then BUG()s is MODULE_LOAD_OOPS, not clean"
	cat "$W/rbfake.out"
fi

# A module that pulls a file of the host into itself past the text check
# (.incbin split across literals, #include of a macro): the build runs in
# the sandbox, where the file is not there (issue 19 item 2).
secret="RBSECRET-$$-$RANDOM"
printf '%s\n' "$secret" > "$W/secret"
printf 'static const char rbleak_text[] = "%s";\n' "$secret" > "$W/secret.h"
chmod 644 "$W/secret" "$W/secret.h"
sed "s|@SECRET@|$W/secret|g" tests/boot/mod_leak/rbleak.c > "$W/rbleak.c"
run rbleak "$W/rbleak.c" || bad "rbleak: stage failed"
if grep -q '^verdict=not-checked ' "$W/rbleak.out" &&
   grep -q 'does not build alone' "$W/rbleak.out" &&
   ! grep -rqs "$secret" "$W/rbleak.out" "$W/work"; then
	ok "a module that includes a host file does not build in the sandbox; nothing of the file is read"
else
	bad "a module that includes a host file does not build in the sandbox; nothing of the file is read"
	cat "$W/rbleak.out"
fi

# Without QEMU the stage refuses, before building anything.
PATH="$W/bin" "$W/boot_run" "$(readlink -f $B/vmlinuz)" "$(readlink -f $B/headers)" \
	"$W/work2" rbclean tests/boot/mod_clean/rbclean.c > "$W/noqemu.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^verdict=not-checked ' "$W/noqemu.out" &&
   grep -q 'no qemu-system-x86_64' "$W/noqemu.out" && [ ! -e "$W/work2" ]; then
	ok "no qemu-system-x86_64: refused, nothing built"
else
	bad "no qemu-system-x86_64: refused, nothing built"; cat "$W/noqemu.out"
fi

# End to end: `reviewbot run --once` with a [boot] section on two one-patch
# series, each adding a module (needs the program: REVIEWBOT, or ./reviewbot).
rb=${REVIEWBOT:-$PWD/reviewbot}
if [ -x "$rb" ]; then
	mkdir -p "$W/list/cur" "$W/list/new" "$W/list/tmp" "$W/db"
	mkpatch() {  # mkpatch N FILE-IN-TREE SOURCE SUBJECT
		local n=$(wc -l < "$3")
		{
			printf 'From: Ann Author <ann@example.com>\n'
			printf 'To: linux-kernel@vger.kernel.org\n'
			printf 'Subject: [PATCH] %s\n' "$4"
			printf 'Date: Thu, 03 Dec 2026 10:0%s:00 +0000\n' "$1"
			printf 'Message-ID: <boot-%s@example.com>\n\n' "$1"
			printf 'Add a small driver.\n\nSigned-off-by: Ann Author <ann@example.com>\n---\n'
			printf 'diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n' "$2" "$2"
			printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%s @@\n' "$2" "$n"
			sed 's/^/+/' "$3"
			printf -- '-- \n2.39.5\n'
		} > "$W/list/new/$1.mail"
	}
	mkpatch 1 drivers/misc/rbclean.c tests/boot/mod_clean/rbclean.c "misc: add rbclean"
	mkpatch 2 drivers/misc/rboops.c tests/boot/mod_oops/rboops.c "misc: add rboops"
	cat > "$W/rb.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $W/db/reviewbot.db
	templates = $PWD/templates
	dry_run = true
[source "lkml"]
	type = maildir
	path = $W/list
	list = linux-kernel@vger.kernel.org
[delivery]
	type = maildir
	path = $W/outbox
[boot]
	kernel = $(readlink -f $B/vmlinuz)
	headers = $(readlink -f $B/headers)
	timeout = 120
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	list_wait = 0	# mailed in, not the list's copies: answered at once
CONF
	s=$(date +%s)
	PATH="$W/bin:$PATH" "$rb" run --once --config "$W/rb.conf" > "$W/e2e.out" 2>&1
	rc=$?
	echo "# e2e: $(( $(date +%s) - s )) s"
	clean=$(grep -l 'In-Reply-To: <boot-1@example.com>' "$W"/outbox/new/* 2>/dev/null)
	oops=$(grep -l 'In-Reply-To: <boot-2@example.com>' "$W"/outbox/new/* 2>/dev/null)
	if [ $rc -eq 0 ] && [ -n "$clean" ] &&
	   tr -s ' \n' '  ' < "$clean" |
	   grep -q 'seems to work: ok (loads and unloads cleanly in QEMU (no hardware present))'; then
		ok "e2e: the clean driver's checklist says it loads and unloads cleanly"
	else
		bad "e2e: the clean driver's checklist says it loads and unloads cleanly"
		cat "$W/e2e.out" $clean
	fi
	if [ $rc -eq 0 ] && [ -n "$oops" ] && grep -q 'MODULE_LOAD_OOPS' "$oops" &&
	   grep -q 'BUG: kernel NULL pointer dereference' "$oops" &&
	   grep -q 'seems to work: *concern' "$oops"; then
		ok "e2e: the review of a module that oopses at load says so with the oops"
	else
		bad "e2e: the review of a module that oopses at load says so with the oops"
		cat "$W/e2e.out" $oops
	fi
	[ -n "$oops" ] && sed -n '/^Merge readiness/,/^-- $/p' "$oops" | sed 's/^/# /'
	# without QEMU in PATH: refused, the checklist says why
	mkdir -p "$W/db2"
	rm -f "$W"/list/cur/* "$W"/list/new/*
	mkpatch 3 drivers/misc/rbclean.c tests/boot/mod_clean/rbclean.c "misc: add rbclean again"
	sed -e "s|$W/db/|$W/db2/|; s|$W/outbox|$W/outbox2|" "$W/rb.conf" > "$W/rb2.conf"
	PATH="$W/bin" "$rb" run --once --config "$W/rb2.conf" > "$W/e2e2.out" 2>&1
	rc=$?
	m=$(grep -l 'In-Reply-To: <boot-3@example.com>' "$W"/outbox2/new/* 2>/dev/null)
	if [ $rc -eq 0 ] && [ -n "$m" ] && tr -s ' \n' '  ' < "$m" |
	   grep -q 'seems to work: not checked (no qemu-system-x86_64: the load test runs only in QEMU)'; then
		ok "e2e: without qemu-system-x86_64 the stage is refused and the checklist says why"
	else
		bad "e2e: without qemu-system-x86_64 the stage is refused and the checklist says why"
		cat "$W/e2e2.out" $m
	fi

	# run -n: a [boot] section that cannot run is a configuration error
	if PATH="$W/bin" "$rb" run -n --config "$W/rb2.conf" > "$W/n.out" 2>&1; then
		bad "run -n fails when qemu-system-x86_64 is missing"; cat "$W/n.out"
	elif grep -q 'no qemu-system-x86_64' "$W/n.out"; then
		ok "run -n fails when qemu-system-x86_64 is missing, and says why"
	else
		bad "run -n fails when qemu-system-x86_64 is missing, and says why"; cat "$W/n.out"
	fi
	if PATH="$W/bin:$PATH" "$rb" run -n --config "$W/rb2.conf" > "$W/n.out" 2>&1 &&
	   grep -qx 'configuration OK' "$W/n.out"; then
		ok "run -n accepts a [boot] section that can run"
	else
		bad "run -n accepts a [boot] section that can run"; cat "$W/n.out"
	fi

	# [policy] stage_wait = 0: the review goes at once, "pending"; the
	# load test's result follows in a reply to the review
	mkdir -p "$W/db3"
	rm -f "$W"/list/cur/* "$W"/list/new/*
	mkpatch 4 drivers/misc/rboops.c tests/boot/mod_oops/rboops.c "misc: add rboops again"
	sed -e "s|$W/db/|$W/db3/|; s|$W/outbox|$W/outbox3|" "$W/rb.conf" > "$W/rb3.conf"
	printf '[policy]\n\tstage_wait = 0\n' >> "$W/rb3.conf"
	PATH="$W/bin:$PATH" "$rb" run --once --config "$W/rb3.conf" > "$W/e2e3.out" 2>&1
	rc=$?
	rev=$(grep -l 'In-Reply-To: <boot-4@example.com>' "$W"/outbox3/new/* 2>/dev/null)
	rid=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' $rev 2>/dev/null | head -n 1)
	fol=
	[ -n "$rid" ] && fol=$(grep -l "In-Reply-To: <$rid>" "$W"/outbox3/new/* 2>/dev/null)
	if [ $rc -eq 0 ] && [ -n "$rev" ] &&
	   grep -q 'seems to work: *pending (the results will follow in a reply)' "$rev" &&
	   ! grep -q MODULE_LOAD_OOPS "$rev"; then
		ok "stage_wait 0: the review goes before the load test, saying pending"
	else
		bad "stage_wait 0: the review goes before the load test, saying pending"
		cat "$W/e2e3.out" $rev
	fi
	if [ -n "$fol" ] && grep -q MODULE_LOAD_OOPS "$fol" &&
	   grep -q 'BUG: kernel NULL pointer dereference' "$fol" &&
	   grep -q 'seems to work: *concern' "$fol" &&
	   grep -q "^References: .*<boot-4@example.com>" "$fol" &&
	   grep -q '^Subject: Re: \[PATCH\] misc: add rboops again' "$fol"; then
		ok "stage_wait 0: a follow-up threaded under the review carries the oops"
	else
		bad "stage_wait 0: a follow-up threaded under the review carries the oops"
		cat "$W/e2e3.out" $fol
	fi
	# the result is kept with the series version: another run tests nothing again
	n0=$(ls "$W"/outbox3/new | wc -l)
	PATH="$W/bin:$PATH" "$rb" run --once --config "$W/rb3.conf" > "$W/e2e3b.out" 2>&1
	if [ $? -eq 0 ] && [ "$(ls "$W"/outbox3/new | wc -l)" -eq "$n0" ] && [ "$n0" -eq 2 ] &&
	   ! grep -q 'event=stage-start' "$W/e2e3b.out"; then
		ok "a second run sends nothing and runs no stage again ($n0 mails)"
	else
		bad "a second run sends nothing and runs no stage again ($n0 mails)"
		cat "$W/e2e3b.out"
	fi

	# the queue survives a crash: the daemon stopped (SIGTERM) while QEMU
	# runs ends at once, then killed (SIGKILL) while QEMU runs, then
	# started again, runs the stage again and reviews once
	mkdir -p "$W/db4"
	rm -f "$W"/list/cur/* "$W"/list/new/*
	mkpatch 5 drivers/misc/rbclean.c tests/boot/mod_clean/rbclean.c "misc: add rbclean once more"
	sed -e "s|$W/db/|$W/db4/|; s|$W/outbox|$W/outbox4|" "$W/rb.conf" > "$W/rb4.conf"
	PATH="$W/bin:$PATH" "$rb" run --config "$W/rb4.conf" > "$W/e2e4t.out" 2>&1 &
	dpid=$!
	for _ in $(seq 1 600); do
		pgrep -f "qemu-system-x86_64.*$W" >/dev/null && break
		sleep 0.1
	done
	t1=$(date +%s.%N)
	kill -TERM $dpid
	wait $dpid
	rc=$?
	secs=$(echo "$(date +%s.%N) - $t1" | bc)
	if [ $rc -eq 0 ] && grep -q 'event=stage-interrupted' "$W/e2e4t.out" &&
	   [ "$(echo "$secs < 5" | bc)" = 1 ] && ! pgrep -f "qemu-system-x86_64.*$W" >/dev/null &&
	   [ "$(ls "$W"/outbox4/new 2>/dev/null | wc -l)" -eq 0 ]; then
		ok "SIGTERM during the load test: QEMU killed, exit 0 in $(printf %.1f "$secs") s, nothing sent"
	else
		bad "SIGTERM during the load test: QEMU killed, exit 0 in $(printf %.1f "$secs") s, nothing sent"
		cat "$W/e2e4t.out"
	fi
	PATH="$W/bin:$PATH" setsid "$rb" run --config "$W/rb4.conf" > "$W/e2e4.out" 2>&1 &
	dpid=$!
	for _ in $(seq 1 600); do
		grep -q 'event=stage-start' "$W/e2e4.out" && pgrep -f "qemu-system-x86_64.*$W" >/dev/null && break
		sleep 0.1
	done
	sleep 2
	kill -KILL -- -$dpid 2>/dev/null
	wait $dpid 2>/dev/null
	# QEMU runs in a process group of its own: the orphan goes too
	pkill -KILL -f "qemu-system-x86_64.*$W" 2>/dev/null
	n1=$(ls "$W"/outbox4/new 2>/dev/null | wc -l)
	PATH="$W/bin:$PATH" "$rb" run --once --config "$W/rb4.conf" > "$W/e2e4b.out" 2>&1
	rc=$?
	m=$(grep -l 'In-Reply-To: <boot-5@example.com>' "$W"/outbox4/new/* 2>/dev/null)
	if grep -q 'event=stage-start' "$W/e2e4.out" && [ "$n1" -eq 0 ] && [ $rc -eq 0 ] &&
	   [ "$(echo "$m" | grep -c .)" -eq 1 ] && grep -q 'event=stage-start' "$W/e2e4b.out" &&
	   tr -s ' \n' '  ' < "$m" | grep -q 'seems to work: ok (loads and unloads cleanly'; then
		ok "killed during the load test: after a restart the stage runs again, one review"
	else
		bad "killed during the load test: after a restart the stage runs again, one review"
		cat "$W/e2e4.out" "$W/e2e4b.out" $m
	fi
else
	echo "# $rb missing: end-to-end run skipped"
fi

host_guard_report "$W" "clean module run"
echo "# boot-tests: $(( $(date +%s) - t0 )) s in all"
exit $fail
