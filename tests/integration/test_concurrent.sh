#!/bin/bash
# Two processes on one database never send a reply twice: the daemon
# (`run`) and two `run --once` side by side on one database and one
# maildir, delivering by SMTP to one server.  Each reply is claimed in
# the database before it is handed to delivery; at the server there is
# exactly one mail per reply.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/smtp.sh"
it_init concurrent

N=${CONCURRENT_PATCHES:-60}
smtp_start out
OUT=$SMTP_DIR
mkdir -p "$IT/db"
/usr/bin/python3 - "$IT/in" "$N" <<'PY'
import os, sys
box, n = sys.argv[1], int(sys.argv[2])
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
for i in range(n):
    with open(os.path.join(box, 'new', '%d.%04d.k%d:2,' % (1800000000 + i, i, i)), 'w') as f:
        f.write('From: Dev %d <dev%d@example.com>\nTo: linux-conc@vger.example.org\n'
                'List-Id: <linux-conc.vger.example.org>\n'
                'Subject: [PATCH] misc: k%d: add a helper\n'
                'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <k%d@example.com>\n\n'
                'Add a helper.\n\nSigned-off-by: Dev %d <dev%d@example.com>\n---\n'
                '--- a/drivers/misc/k%d.c\n+++ b/drivers/misc/k%d.c\n'
                '@@ -1,1 +1,2 @@\n int a;\n+int k%d_x ;\n' % ((i,) * 9))
PY
cat >"$IT/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "conc"]
	type = maildir
	path = $IT/in
	list = linux-conc@vger.example.org
	poll_interval = 1
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

# mails at the server: "MAILS DISTINCT-MESSAGE-IDS"
at_server() {
	/usr/bin/python3 - "$OUT/mbox" <<'PY'
import email, os, sys
ids = []
for d in ('new', 'cur'):
    p = os.path.join(sys.argv[1], d)
    for f in os.listdir(p) if os.path.isdir(p) else []:
        ids.append(email.message_from_binary_file(open(os.path.join(p, f), 'rb'))['Message-ID'])
print(len(ids), len(set(ids)))
PY
}
replies() {
	/usr/bin/python3 - "$IT/db/reviewbot.db" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True, timeout=30)
print(db.execute(sys.argv[2]).fetchone()[0])
PY
}

"$rb" run -n --config "$IT/rb.conf" >/dev/null 2>&1
"$rb" status --config "$IT/rb.conf" >/dev/null 2>&1
"$rb" run --config "$IT/rb.conf" >"$IT/daemon.out" 2>"$IT/daemon.err" &
daemon=$!
IT_PIDS+=("$daemon")
"$rb" run --once --config "$IT/rb.conf" >"$IT/once1.out" 2>"$IT/once1.err" &
once1=$!
"$rb" run --once --config "$IT/rb.conf" >"$IT/once2.out" 2>"$IT/once2.err" &
once2=$!
st=0
wait $once1 || st=$?
wait $once2 || st=$?
for _ in $(seq 300); do
	[ "$(replies 'SELECT count(*) FROM replies WHERE state = 1')" = "$N" ] && break
	sleep 0.1
done
kill -TERM "$daemon"
wait "$daemon"
r=$(at_server)
echo "# run and two run --once side by side: $r (mails, distinct Message-IDs) for $(replies 'SELECT count(*) FROM replies') replies"
check "both run --once end well" "[ $st -eq 0 ] || cat '$IT/once1.err' '$IT/once2.err'"
check "one reply per patch, each sent once: $N mails at the server" \
	"[ \"$r\" = '$N $N' ] && [ \"\$(replies 'SELECT count(*) FROM replies WHERE state = 1')\" = $N ]"
check "no claim left" "[ \"\$(replies 'SELECT count(*) FROM replies WHERE claim IS NOT NULL')\" = 0 ]"
it_done
