#!/bin/bash
# Faults with the daemon running: the database locked by another process
# past the busy timeout, SIGHUP (new templates; a broken configuration is
# refused and the old one kept), SIGTERM in the middle of a batch, the
# database's file size limit reached (RLIMIT_FSIZE, as on a full disk),
# and the IMAP session killed and the server restarted.  Each time the
# daemon logs why it waits and, once the fault is gone, every patch has
# exactly one review at the SMTP server (one Message-ID per patch).
#
# SMTP down, 4xx and 5xx replies are tests/integration/test_smtp.sh's.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
. "$repo/tests/integration/smtp.sh"
it_init faults

smtp_start out
OUT=$SMTP_DIR
mkdir -p "$IT/in/new" "$IT/in/cur" "$IT/in/tmp" "$IT/db" "$IT/db2" "$IT/mail"
cp -r "$repo/templates" "$IT/tpl"

# mkpatch ID: a one-patch mail with Message-ID <ID@example.com> in $IT/mail/ID
mkpatch() {
	cat >"$IT/mail/$1" <<EOF
List-Id: <linux-faults.vger.example.org>
From: Dev $1 <dev-$1@example.com>
To: linux-faults@vger.example.org
Subject: [PATCH] misc: add the $1 helper
Date: Tue, 10 Nov 2026 12:00:00 +0000
Message-ID: <$1@example.com>

Add a helper for $1.

Signed-off-by: Dev $1 <dev-$1@example.com>
---
 drivers/misc/$1.c | 6 ++++++
 1 file changed, 6 insertions(+)

--- /dev/null
+++ b/drivers/misc/$1.c
@@ -0,0 +1,6 @@
+// SPDX-License-Identifier: GPL-2.0
+#include <linux/kernel.h>
+int $1_helper(int x)
+{
+	return x * 2;
+}
EOF
}

# drop ID [DIR]: the patch ID into the maildir DIR (default $IT/in)
seq_no=0
drop() {
	local dir=${2:-$IT/in}
	seq_no=$((seq_no + 1))
	mkpatch "$1"
	cp "$IT/mail/$1" "$dir/tmp/$1"
	mv "$dir/tmp/$1" "$dir/new/$(printf '1800000000.%05d' $seq_no).$1"
}

# reviews ID: reviews at the SMTP server in reply to <ID@example.com>,
# as "COUNT DISTINCT-MESSAGE-IDS"
reviews() {
	/usr/bin/python3 - "$OUT/mbox" "<$1@example.com>" <<'PY'
import email, os, sys
box, irt = sys.argv[1:]
ids = []
for d in ('new', 'cur'):
    for f in os.listdir(os.path.join(box, d)):
        m = email.message_from_binary_file(open(os.path.join(box, d, f), 'rb'))
        if (m.get('In-Reply-To') or '').strip() == irt:
            ids.append(m.get('Message-ID'))
print(len(ids), len(set(ids)))
PY
}

# wait_review ID SECS: until ID has a review
wait_review() {
	local i
	for i in $(seq $(($2 * 5))); do
		[ "$(reviews "$1" | cut -d' ' -f1)" -ge 1 ] && return 0
		sleep 0.2
	done
	return 1
}

# once_each ID...: each has exactly one review (resends of the same
# Message-ID counted in $resends)
resends=0
once_each() {
	local id r n d
	for id in "$@"; do
		r=$(reviews "$id")
		n=${r% *}
		d=${r#* }
		[ "$d" = 1 ] || { echo "# $id: $r reviews" >&2; return 1; }
		resends=$((resends + n - 1))
	done
}

# wait_log FILE RE SECS
wait_log() {
	local i
	for i in $(seq $(($3 * 5))); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

write_conf() {  # write_conf FILE DATABASE SOURCE-SECTION
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $2
	templates = $IT/tpl
	dry_run = false
$3
[delivery]
	type = smtp
	url = smtp://127.0.0.1:$SMTP_PORT
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF
}

MAILDIR_SRC="[source \"faults\"]
	type = maildir
	path = $IT/in
	list = linux-faults@vger.example.org
	poll_interval = 1"
write_conf "$IT/rb.conf" "$IT/db/reviewbot.db" "$MAILDIR_SRC"

start_daemon() {  # start_daemon CONF ERRFILE: sets $daemon
	"$rb" run --config "$1" >>"$IT/daemon.out" 2>>"$2" &
	daemon=$!
	IT_PIDS+=("$daemon")
}

# ---- the database locked by another process ---------------------------
start_daemon "$IT/rb.conf" "$IT/daemon.err"
drop lock0
check "the daemon reviews a patch" "wait_review lock0 20"
/usr/bin/python3 - "$IT/db/reviewbot.db" "$IT/locked" <<'PY' &
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
db.execute('BEGIN EXCLUSIVE')
open(sys.argv[2], 'w').close()
time.sleep(9)		# past the daemon's 5 s busy timeout
db.execute('ROLLBACK')
PY
locker=$!
for _ in $(seq 50); do [ -e "$IT/locked" ] && break; sleep 0.1; done
drop lock1
drop lock2
drop lock3
check "locked database: the daemon logs why it waits" \
	"wait_log '$IT/daemon.err' 'database is locked' 15"
check "locked database: no review while locked" "[ \"\$(reviews lock1)\" = '0 0' ]"
wait "$locker"
check "lock gone: the patches are reviewed" \
	"wait_review lock1 30 && wait_review lock2 10 && wait_review lock3 10"
check "the daemon lived through it" "kill -0 $daemon"
check "locked database: one review each" "once_each lock0 lock1 lock2 lock3"

# ---- SIGHUP: templates and configuration again -----------------------------
echo "Reloaded-marker: 42." >>"$IT/tpl/footer.txt"
kill -HUP "$daemon"
check "SIGHUP: the reload is logged" "wait_log '$IT/daemon.err' 'event=reloaded' 10"
drop hup1
check "SIGHUP: the next review is reviewed" "wait_review hup1 20"
f=$(grep -l '^In-Reply-To: <hup1@example.com>' "$OUT"/mbox/new/* | head -1)
check "SIGHUP: the changed template shows in the next review" "grep -q 'Reloaded-marker: 42.' '$f'"
cp "$IT/rb.conf" "$IT/rb.conf.good"
printf '[bot]\n\tno_such_key = 1\n' >"$IT/rb.conf"
kill -HUP "$daemon"
check "SIGHUP with a broken configuration: logged with FILE:LINE" \
	"wait_log '$IT/daemon.err' 'event=reload-failed.*rb.conf:2' 10"
drop hup2
check "SIGHUP with a broken configuration: the old one goes on" "wait_review hup2 20"
check "the daemon lived through it" "kill -0 $daemon"
cp "$IT/rb.conf.good" "$IT/rb.conf"

# ---- SIGTERM in the middle of a batch ------------------------------------------
ids=()
for i in $(seq 40); do
	ids+=("term$i")
	drop "term$i"
done
wait_log "$IT/daemon.err" 'event=review msgid=term' 20
kill -TERM "$daemon"
st=0
t0=$(date +%s%N)
wait "$daemon" || st=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# SIGTERM to exit: $ms ms"
check "SIGTERM: the daemon stops cleanly (exit 0)" "[ $st -eq 0 ]"
check "SIGTERM: it stops soon, after the message in hand (< 5 s)" "[ $ms -lt 5000 ]"
check "SIGTERM: it logs the stop" "grep -q 'event=stop' '$IT/daemon.err'"
"$rb" run --once --config "$IT/rb.conf" >>"$IT/daemon.out" 2>>"$IT/once.err"
check "SIGTERM: the next run reviews the rest, each once" "once_each ${ids[*]}"

# ---- the file size limit of the database (a full disk) ---------------------
IN2=$IT/in2
mkdir -p "$IN2/new" "$IN2/cur" "$IN2/tmp"
write_conf "$IT/rb2.conf" "$IT/db2/reviewbot.db" "[source \"full\"]
	type = maildir
	path = $IN2
	list = linux-faults@vger.example.org
	poll_interval = 1"
"$rb" run --once --config "$IT/rb2.conf" >>"$IT/daemon.out" 2>>"$IT/full.err"
size=$(stat -c %s "$IT/db2/reviewbot.db")
# in 1024-byte blocks (bash): what the database has now, and a little
limit=$((size / 1024 + 24))
(ulimit -f "$limit" && exec "$rb" run --config "$IT/rb2.conf") \
	>>"$IT/daemon.out" 2>>"$IT/full.err" &
daemon=$!
IT_PIDS+=("$daemon")
ids=()
for i in $(seq 30); do
	ids+=("full$i")
	drop "full$i" "$IN2"
done
check "file size limit: the write error is logged" \
	"wait_log '$IT/full.err' 'level=(warn|err).*error=\"[^\"]*(disk|full|I/O|large)' 20"
sleep 2
check "file size limit: the daemon lives on (SIGXFSZ ignored)" "kill -0 $daemon"
kill -TERM "$daemon"
st=0
wait "$daemon" || st=$?
check "file size limit: SIGTERM still stops it cleanly" "[ $st -eq 0 ]"
for _ in $(seq 5); do
	"$rb" run --once --config "$IT/rb2.conf" >>"$IT/daemon.out" 2>>"$IT/full.err"
done
check "limit lifted: every patch reviewed once, nothing lost" "once_each ${ids[*]}"
check "limit lifted: every message stored once" \
	"[ \$(/usr/bin/python3 -c \"import sqlite3; print(sqlite3.connect('$IT/db2/reviewbot.db').execute(\\\"SELECT count(*) FROM messages WHERE message_id LIKE 'full%' AND state = 1\\\").fetchone()[0])\") = 30 ]"

# ---- IMAP: the session killed, the server restarted --------------------------
dc_start nossl
printf '%s\n' "$DC_PASS" >"$IT/imap.pass"
chmod 600 "$IT/imap.pass"
write_conf "$IT/rb3.conf" "$IT/db/reviewbot.db" "[source \"imap\"]
	type = imap
	url = imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX
	password_file = $IT/imap.pass
	list = linux-faults@vger.example.org
	poll_interval = 2"
start_daemon "$IT/rb3.conf" "$IT/imap.err"
mkpatch imap1
dc_save "$IT/mail/imap1"
check "IMAP: a patch is reviewed" "wait_review imap1 20"
dc_doveadm kick "$DC_USER" >/dev/null 2>&1
sleep 1
mkpatch imap2
dc_save "$IT/mail/imap2"
check "IMAP session killed: the daemon reconnects and reviews" "wait_review imap2 30"
dc_stop
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$DC_IMAP_PORT") 2>/dev/null || break; sleep 0.1; done
check "IMAP server down: the failure is logged" \
	"wait_log '$IT/imap.err' 'event=source-failed source=imap' 20"
# the same state folder and port (doveadm save needs the server)
dovecot -c "$DC_CONF" >>"$DC_DIR/start.log" 2>&1
it_wait_port "$DC_IMAP_PORT"
mkpatch imap3
dc_save "$IT/mail/imap3"
check "IMAP server restarted: the daemon reconnects and reviews" "wait_review imap3 60"
check "the daemon lived through it" "kill -0 $daemon"
check "IMAP: one review each" "once_each imap1 imap2 imap3"
kill -TERM "$daemon"
wait "$daemon"

# ---- least privilege: started as root, the daemon becomes [bot] user --------
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	P=$IT/priv
	mkdir -p "$P/in/new" "$P/in/cur" "$P/in/tmp" "$P/state"
	chown nobody "$P/state"
	mkpatch priv1
	cp "$IT/mail/priv1" "$P/in/new/1800000000.1.priv1"
	chmod -R a+rX "$P/in" "$IT/tpl"
	cat >"$P/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $P/state/reviewbot.db
	templates = $IT/tpl
	user = nobody
[source "priv"]
	type = maildir
	path = $P/in
	poll_interval = 1
[delivery]
	type = maildir
	path = $P/state/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
EOF
	(umask 022 && exec "$rb" run --config "$P/rb.conf") >>"$IT/daemon.out" 2>"$P/err" &
	daemon=$!
	IT_PIDS+=("$daemon")
	for _ in $(seq 100); do
		[ -n "$(ls "$P/state/outbox/new" 2>/dev/null)" ] && break
		sleep 0.1
	done
	u=$(id -u nobody)
	check "privileges: the daemon runs as [bot] user (real, effective, saved, fs uid)" \
		"grep -qE '^Uid:\s+$u\s+$u\s+$u\s+$u\$' /proc/$daemon/status"
	check "privileges: no group of root's" \
		"! grep -E '^(Gid|Groups):' /proc/$daemon/status | grep -qw 0"
	check "privileges: no core dumps (RLIMIT_CORE 0)" \
		"grep -qE '^Max core file size +0 +0' /proc/$daemon/limits"
	check "privileges: the review was written" "[ -n \"\$(ls '$P/state/outbox/new')\" ]"
	check "privileges: the database belongs to the user, mode 0600" \
		"[ \"\$(stat -c '%U %a' '$P/state/reviewbot.db')\" = 'nobody 600' ]"
	check "privileges: the outbox belongs to the user, mode 0700" \
		"[ \"\$(stat -c '%U %a' '$P/state/outbox')\" = 'nobody 700' ]"
	check "privileges: what it creates is private whatever the umask" \
		"[ -z \"\$(find '$P/state' -mindepth 1 -perm /077 ! -type l)\" ] && [ -z \"\$(find '$P/state' ! -user nobody)\" ]"
	kill -TERM "$daemon"
	wait "$daemon"
	sed -i 's/user = nobody/user = root/' "$P/rb.conf"
	"$rb" run --once --config "$P/rb.conf" >/dev/null 2>"$P/err2"
	check "privileges: [bot] user = root is refused" "grep -q 'is root' '$P/err2'"
	sed -i 's/user = root/user = no-such-user-rb/' "$P/rb.conf"
	"$rb" run --once --config "$P/rb.conf" >/dev/null 2>"$P/err3"
	check "privileges: an unknown user is refused" "grep -q 'no such user' '$P/err3'"
else
	echo "ok - privileges: skipped (not root, or no user nobody)"
fi

echo "# faults: resends of the same Message-ID: $resends"
it_done
