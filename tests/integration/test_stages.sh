#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile and load stages end to end on real servers: the daemon
# (`reviewbot run`, not --once) reads an IMAP mailbox (dovecot, IDLE) and
# answers by SMTP (aiosmtpd), with [build] (Debian's linux-source-6.1 in
# build/ksrc, the work folder build/ksrc.reviewbot shared with
# tests/build) and [boot] (Debian's kernel image and headers in
# build/boot, shared with tests/boot) configured.  Four one-patch series:
# a clean new driver (compiles: ok, seems to work: ok), a compile error
# (COMPILE_ERROR with the compiler's words), a new module that oopses at
# load (MODULE_LOAD_OOPS with the oops), a series for another tree
# (compiles: not checked).  Then a second daemon with [policy]
# stage_wait = 0: the review goes first saying "pending", the results
# follow in a reply to it.  One review per series; SIGTERM stops each
# daemon with exit 0; fake insmod/modprobe/rmmod first in PATH prove
# nothing is loaded on the host.
#
# Usage: tests/integration/test_stages.sh   (REVIEWBOT=path, BUILD_DIR=build)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
. "$repo/tests/integration/smtp.sh"
it_init stages
bdir=${BUILD_DIR:-$repo/build}
T0=$(date +%s.%N)

# since T0, in seconds with a tenth
elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $T0" | bc)"; }

if ! command -v qemu-system-x86_64 >/dev/null; then
	bad "qemu-system-x86_64 missing (deploy/install-deps.sh)"
	it_done
	exit 1
fi
if ! bash "$repo/tests/build/prepare.sh" "$bdir" ||
   ! bash "$repo/tests/boot/prepare.sh" "$bdir"; then
	bad "the one-time preparation (tests/build/prepare.sh, tests/boot/prepare.sh) failed"
	it_done
	exit 1
fi
echo "# prepare: $(elapsed) s"
tree=$bdir/ksrc
work=$bdir/ksrc.reviewbot
# tests/build's first review prepares the work folder (allmodconfig,
# modules_prepare: many minutes on 2 cores); make check runs it first
wait_secs=240
if [ ! -f "$work/prepared" ]; then
	echo "# $work is not prepared yet: the first compile stage prepares it"
	wait_secs=3600
fi
kernel=$(readlink -f "$bdir/boot/vmlinuz")
headers=$(readlink -f "$bdir/boot/headers")

dc_start
mkdir -p "$IT/bin" "$IT/db1" "$IT/db2"
printf '%s\n' "$DC_PASS" >"$IT/imap.pass"
chmod 600 "$IT/imap.pass"
dc_doveadm mailbox create -u "$DC_USER" Later

# Host tools a careless stage would call record their calls.
. "$repo/tests/boot/host_guard.sh"
host_guard "$IT"

# mkpatch ID FILE-IN-TREE SOURCE SUBJECT: a one-patch series adding a file
mkpatch() {
	local n
	n=$(wc -l <"$3")
	{
		printf 'From: Ann Author <ann@example.com>\n'
		printf 'To: linux-kernel@vger.kernel.org\n'
		printf 'List-Id: <linux-kernel.vger.kernel.org>\n'
		printf 'Subject: [PATCH] %s\n' "$4"
		printf 'Date: Thu, 03 Dec 2026 10:00:00 +0000\n'
		printf 'Message-ID: <%s@example.com>\n\n' "$1"
		printf 'Add a small driver.\n\nSigned-off-by: Ann Author <ann@example.com>\n---\n'
		printf 'diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n' "$2" "$2"
		printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%s @@\n' "$2" "$n"
		sed 's/^/+/' "$3"
		printf -- '-- \n2.39.5\n'
	} >"$IT/$1.eml"
}
mkpatch stages-clean drivers/misc/rbclean.c "$repo/tests/boot/mod_clean/rbclean.c" \
	"misc: add rbclean"
mkpatch stages-oops drivers/misc/rboops.c "$repo/tests/boot/mod_oops/rboops.c" \
	"misc: add rboops"
mkpatch stages-later drivers/misc/rboops.c "$repo/tests/boot/mod_oops/rboops.c" \
	"misc: add rboops later"

# conf FILE N SMTP-PORT MAILBOX [POLICY LINES]
conf() {
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db$2/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "imap"]
	type = imap
	url = imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/$4
	password_file = $IT/imap.pass
	ca_file = $DC_CA
	list = linux-kernel@vger.kernel.org
	poll_interval = 3600
[delivery]
	type = smtp
	url = smtp://127.0.0.1:$3
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
	max_replies_per_hour = 0
${5:-}
[build]
	tree = $tree
	config = allmodconfig
	jobs = 2
	timeout = 900
	tools = gcc
[boot]
	kernel = $kernel
	headers = $headers
	timeout = 120
EOF
}

# start_daemon CONF LOG: the daemon in a session of its own (QEMU runs in
# a process group of its own, but in that session); sets $daemon
start_daemon() {
	PATH="$IT/bin:$PATH" setsid "$rb" run --config "$1" >"$2.out" 2>"$2.err" &
	daemon=$!
	IT_PIDS+=("$daemon")
	it_on_exit "kill_session $daemon"
}

# kill_session SID: every process left in the daemon's session (QEMU, make)
kill_session() {
	local p
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	for p in $(ps -o pid= -s "$1" 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null
	done
}

# stop_daemon: SIGTERM, then the exit status into $st
stop_daemon() {
	kill -TERM "$daemon"
	st=0
	wait "$daemon" || st=$?
}

wait_count() {  # wait_count DIR N SECS: until DIR's SMTP server holds N mails
	for _ in $(seq $(($3 * 10))); do
		[ "$(smtp_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# the mails of an SMTP server's folder, in arrival order, checked by a
# Python snippet (stdin) that sees mails = [(In-Reply-To, Message-ID,
# References, Subject, body)], line(body, 'compiles') and assert
# helpers; prints "mails ok" when it ends
check_mails() {
	/usr/bin/python3 -c '
import email, email.policy, os, re, sys
raw = os.path.join(sys.argv[1], "raw")
mails = []
for f in sorted((f for f in os.listdir(raw) if f.endswith(".eml")),
                key=lambda f: int(f.split(".")[0])):
    m = email.message_from_binary_file(open(os.path.join(raw, f), "rb"),
                                       policy=email.policy.default)
    mails.append((str(m["In-Reply-To"] or "").strip(), str(m["Message-ID"] or "").strip(),
                  " ".join(str(m["References"] or "").split()), str(m["Subject"] or ""),
                  m.get_content()))
def by(irt):
    got = [x for x in mails if x[0] == irt]
    assert len(got) == 1, (irt, len(got), [x[0] for x in mails])
    return got[0]
def line(body, key):
    # a checklist entry, its wrapped continuation lines joined
    i = body.find("\n  %s:" % key)
    assert i >= 0, (key, body)
    e = re.compile(r"\n(  [a-z][a-z -]*:|\n)").search(body, i + 1)
    return " ".join(body[i:e.start() if e else len(body)].split())
exec(sys.stdin.read())
print("mails ok")
' "$1"
}

##### 1-4: four series, the review of each waits for its stages ########

smtp_start out1
OUT1=$SMTP_DIR
conf "$IT/rb1.conf" 1 "$SMTP_PORT" INBOX
PATH="$IT/bin:$PATH" "$rb" run -n --config "$IT/rb1.conf" >"$IT/n.out" 2>&1
check "run -n accepts [build] and [boot] with an IMAP source and SMTP delivery" \
	"grep -qx 'configuration OK' '$IT/n.out' || { cat '$IT/n.out'; false; }"

touch "$IT/t-start"
sleep 1		# mtime granularity: the objects built after this
start_daemon "$IT/rb1.conf" "$IT/d1"
d1=$daemon
sleep 1
t1=$(date +%s.%N)
# the build suite's patches, as the list delivers them (its List-Id)
for f in 0002-error 0004-noapply; do
	{ printf 'List-Id: <linux-kernel.vger.kernel.org>\n'; cat "$repo/tests/build/$f.patch"; } \
		>"$IT/$f.eml"
done
for f in "$IT/stages-clean.eml" "$IT/0002-error.eml" \
	 "$IT/stages-oops.eml" "$IT/0004-noapply.eml"; do
	dc_save "$f"
done
check "four series saved into the IMAP mailbox get four reviews by SMTP" \
	"wait_count '$OUT1' 4 $wait_secs || { tail -20 '$IT/d1.err'; false; }"
printf '# four series reviewed (with their stages): %.1f s\n' \
	"$(echo "$(date +%s.%N) - $t1" | bc)"
grep -o 'event=[a-z-]*-test .*cost="[^"]*"' "$IT/d1.err" | sed 's/^/# /'

# mails_ok DIR NAME: check_mails with the snippet on stdin, its output
# in $IT/NAME.py (the checklist lines printed as "# ..."); 0 when it passed
mails_ok() {
	check_mails "$1" >"$IT/$2.py" 2>&1
	sed -n 's/^\(compiles\|seems to work\): /# &/p' "$IT/$2.py"
	grep -qx 'mails ok' "$IT/$2.py" || { cat "$IT/$2.py"; return 1; }
}
# check_py DIR NAME DESCRIPTION: one result, mails_ok's
check_py() { if mails_ok "$1" "$2"; then ok "$3"; else bad "$3"; fi; }

check_py "$OUT1" clean \
	"1, clean new driver: compiles: ok (1 object built), seems to work: ok (loads, unloads)" <<'PY'
body = by("<stages-clean@example.com>")[4]
c, w = line(body, "compiles"), line(body, "seems to work")
print(c); print(w)
assert re.match(r"compiles: ok on linux 6\.1\.\d+ \(\[build\] tree\) "
                r"\(allmodconfig, gcc [0-9.]+, W=1\)$", c), c
assert w == ("seems to work: ok (loads and unloads cleanly in QEMU "
             "(no hardware present))"), w
assert "COMPILE_" not in body and "MODULE_" not in body, body
PY

check_py "$OUT1" error \
	"2, compile error: compiles: concern, COMPILE_ERROR with the compiler's words" <<'PY'
body = by("<build-error-1@example.org>")[4]
c = line(body, "compiles")
print(c)
assert c.startswith("compiles: concern"), c
assert "COMPILE_ERROR" in body and "dummy_irq_count_add" in body, body
assert "drivers/misc/dummy-irq.c:28" in body, body
assert "implicit declaration of function" in " ".join(body.split()), body
PY

check_py "$OUT1" oops \
	"3, module that oopses: MODULE_LOAD_OOPS with the BUG line, seems to work: concern" <<'PY'
body = by("<stages-oops@example.com>")[4]
c, w = line(body, "compiles"), line(body, "seems to work")
print(c); print(w)
assert c.startswith("compiles: ok"), c
assert w.startswith("seems to work: concern"), w
assert "MODULE_LOAD_OOPS" in body, body
assert "BUG: kernel NULL pointer dereference" in body, body
PY

check_py "$OUT1" noapply \
	"4, series for another tree: compiles: not checked (does not apply; its base-commit)" <<'PY'
body = by("<build-noapply-1@example.org>")[4]
c = line(body, "compiles")
print(c)
assert re.match(r"compiles: not checked \(.*does not apply.*0123456789ab", c), c
assert "COMPILE_" not in body, body
PY

check_py "$OUT1" none-pending \
	"no review went before its stages, no follow-up was sent" <<'PY'
for irt, mid, refs, subj, body in mails:
    assert "pending" not in body, (irt, body)
assert len(mails) == 4, [x[0] for x in mails]
PY
# (each series gets a fresh copy of the prepared object folder, so the
# object itself is gone by the end of the run)
check "the compile stage really built the new file (1 object, compiled at W=1)" \
	"grep 'event=compile-test series=\"misc: add rbclean\"' '$IT/d1.err' | grep -q 'objects=1 '"
# under the worker's lock: another test may be compiling in the tree
check "the tree and the worker's tree are left without the series' new files" \
	"flock '$work/w0.lock' sh -c 'for d; do [ ! -e \"\$d/rbclean.c\" ] && [ ! -e \"\$d/rboops.c\" ] || exit 1; done' \
	 sh '$tree/drivers/misc' '$work/w0/src/drivers/misc'"
# each stage-start followed by its result before the next one starts
check "the daemon ran eight stages, one at a time" \
	"grep -oE 'event=(stage-start|compile-test|load-test)' '$IT/d1.err' | tr '\n' ' ' |
	 grep -qxE '(event=stage-start event=(compile|load)-test ){8}'"

sleep 3		# a late duplicate or follow-up would show now
check "exactly one review per series at the SMTP server (4 mails)" \
	"[ \$(smtp_count '$OUT1') -eq 4 ]"
stop_daemon
check "SIGTERM: the first daemon stops cleanly (exit 0)" \
	"[ $st -eq 0 ] || { tail -5 '$IT/d1.err'; false; }"

##### 5: stage_wait = 0: the review first, "pending"; the results follow #####

smtp_start out2
OUT2=$SMTP_DIR
conf "$IT/rb2.conf" 2 "$SMTP_PORT" Later "$(printf '\tstage_wait = 0')"
start_daemon "$IT/rb2.conf" "$IT/d2"
sleep 1
t1=$(date +%s.%N)
dc_save "$IT/stages-later.eml" Later
check "stage_wait 0: a review and a follow-up arrive by SMTP" \
	"wait_count '$OUT2' 2 120 || { tail -20 '$IT/d2.err'; false; }"
printf '# review and follow-up: %.1f s\n' "$(echo "$(date +%s.%N) - $t1" | bc)"
check_py "$OUT2" pending \
	"stage_wait 0: the review arrives first saying pending, without the oops" <<'PY'
review = by("<stages-later@example.com>")
body = review[4]
c, w = line(body, "compiles"), line(body, "seems to work")
print(c); print(w)
assert mails[0] == review, "the follow-up came first"
assert c == "compiles: pending (the results will follow in a reply)", c
assert w == "seems to work: pending (the results will follow in a reply)", w
assert "MODULE_LOAD_OOPS" not in body, body
PY
check_py "$OUT2" followup \
	"stage_wait 0: the follow-up is In-Reply-To the review's Message-ID and carries the oops" <<'PY'
review = by("<stages-later@example.com>")
fol = by(review[1])
body = fol[4]
c, w = line(body, "compiles"), line(body, "seems to work")
print(c); print(w)
assert "<stages-later@example.com>" in fol[2] and review[1] in fol[2], fol[2]
assert fol[3] == "Re: [PATCH] misc: add rboops later", fol[3]
assert c.startswith("compiles: ok"), c
assert w.startswith("seems to work: concern"), w
assert "MODULE_LOAD_OOPS" in body and "BUG: kernel NULL pointer dereference" in body, body
assert len(mails) == 2, [x[0] for x in mails]
PY
sleep 3
check "stage_wait 0: one review and one follow-up, nothing more (2 mails)" \
	"[ \$(smtp_count '$OUT2') -eq 2 ]"
stop_daemon
check "SIGTERM: the second daemon stops cleanly (exit 0)" \
	"[ $st -eq 0 ] || { tail -5 '$IT/d2.err'; false; }"

check "no insmod, modprobe or rmmod run on the host" \
	"[ ! -e '$IT/host-calls' ] || { cat '$IT/host-calls'; false; }"
check "no QEMU left running" \
	"[ -z \"\$(ps -o pid= -s $d1 2>/dev/null; ps -o pid= -s $daemon 2>/dev/null)\" ]"
echo "# stages: $(elapsed) s in all"
it_done
