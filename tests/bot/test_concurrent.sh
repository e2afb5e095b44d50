#!/bin/bash
# Several processes on one database never send a reply twice: a reply is
# claimed in the database (a statement of its own, committed) before it
# is handed to delivery, and only one process's claim holds.  Three
# `run --once` at once on 60 one-patch mails, delivering through a
# sendmail program that takes its time (so that the processes overlap):
# exactly one mail per reply.  Then a claim left by a process that died
# between its claim and its send is taken over by the next run.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

N=60
mkdir -p "$tmp/db" "$tmp/sent"
/usr/bin/python3 - "$tmp/list" "$N" <<'PY'
import os, sys
box, n = sys.argv[1], int(sys.argv[2])
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
for i in range(n):
    with open(os.path.join(box, 'new', '%d.%04d.c%d:2,' % (1800000000 + i, i, i)), 'w') as f:
        f.write('From: Dev %d <dev%d@example.com>\nTo: linux-leds@vger.kernel.org\n'
                'List-Id: <linux-leds.vger.kernel.org>\n'
                'Subject: [PATCH] leds: c%d: add a helper\n'
                'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <c%d@example.com>\n\n'
                'Add a helper.\n\nSigned-off-by: Dev %d <dev%d@example.com>\n---\n'
                '--- a/drivers/leds/c%d.c\n+++ b/drivers/leds/c%d.c\n'
                '@@ -1,1 +1,2 @@\n int a;\n+int c%d_x ;\n' % ((i,) * 9))
PY
# sendmail: one file per mail handed over, after a little while
cat >"$tmp/sendmail" <<EOF
#!/bin/sh
f=\$(mktemp "$tmp/sent/m.XXXXXX") || exit 75
cat >"\$f"
sleep 0.05
EOF
chmod 755 "$tmp/sendmail"
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "leds"]
	type = maildir
	path = $tmp/list
	list = linux-leds@vger.kernel.org
[delivery]
	type = sendmail
	path = $tmp/sendmail
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	review_clean = true	# style-only patches: mailed all the same
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF

sql() {
	/usr/bin/python3 - "$tmp/db/reviewbot.db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
c.commit()
PY
}
# mails handed to sendmail per Message-ID: "MAILS DISTINCT"
sent() {
	/usr/bin/python3 - "$tmp/sent" <<'PY'
import email, os, sys
ids = []
for f in os.listdir(sys.argv[1]):
    ids.append(email.message_from_binary_file(open(os.path.join(sys.argv[1], f), 'rb'))['Message-ID'])
print(len(ids), len(set(ids)))
PY
}

# the database first (so that the three do not race to create it)
"$rb" run -n --config "$tmp/rb.conf" >/dev/null 2>&1
"$rb" status --config "$tmp/rb.conf" >/dev/null 2>&1
for i in 1 2 3; do
	"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out.$i" 2>"$tmp/err.$i" &
	pids[$i]=$!
done
st=0
for i in 1 2 3; do wait ${pids[$i]} || st=$?; done
r=$(sent)
echo "# three run --once at once: $r (mails, distinct Message-IDs) for $(sql 'SELECT count(*) FROM replies') replies"
check "three run --once at once: they all end well" "[ $st -eq 0 ] || cat '$tmp'/err.*"
check "... one review per patch, each mailed once ($N mails)" \
	"[ \"$r\" = '$N $N' ] && [ \"\$(sql 'SELECT count(*) FROM replies WHERE state = 1')\" = $N ]"
check "... every patch processed once (no 'part came before')" \
	"[ \"\$(sql 'SELECT state, count(*) FROM messages GROUP BY state')\" = '1|$N' ] &&
	 [ \"\$(sql 'SELECT count(*) FROM series')\" = $N ]"
check "... no claim left" "[ \"\$(sql 'SELECT count(*) FROM replies WHERE claim IS NOT NULL')\" = 0 ]"

# a process that claimed a reply and died before sending it: its claim
# is taken over once it is gone (here: a name of a past boot)
host=$(hostname)
sql "UPDATE replies SET state = 0, sent_at = 0, claim = '${host:0:63} 00000000-0000-0000-0000-000000000000 1 1', claimed_at = strftime('%s', 'now') WHERE id = 1" >/dev/null
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err.4"
r=$(sent)
check "a claim whose process is gone is taken over: the reply goes again, same Message-ID" \
	"[ \"$r\" = '$((N + 1)) $N' ] && [ \"\$(sql 'SELECT state, claim FROM replies WHERE id = 1')\" = '1|' ]"
# one a live process holds is left to it (here: this shell)
pname=$(/usr/bin/python3 - $$ <<'PY'
import os, socket, sys
pid = int(sys.argv[1])
start = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()[19]
boot = open('/proc/sys/kernel/random/boot_id').read().strip()
print('%s %s %d %s' % (socket.gethostname()[:63], boot, pid, start))
PY
)
sql "UPDATE replies SET state = 0, sent_at = 0, claim = '$pname', claimed_at = strftime('%s', 'now') WHERE id = 2" >/dev/null
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err.5"
check "a claim whose process lives is left to it" \
	"[ \"\$(sent)\" = '$((N + 1)) $N' ] && [ \"\$(sql 'SELECT state FROM replies WHERE id = 2')\" = 0 ]"

echo "concurrent: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
