#!/bin/bash
# Crash consistency: the daemon reads ~300 patches from a maildir (fed a
# few at a time) and answers by SMTP, and is killed with SIGKILL at random
# moments and restarted, again and again.  Afterwards (run --once until
# nothing is pending) every patch has exactly one review at the SMTP
# server (counted by In-Reply-To) and every message is in the store once.
#
# A kill between the server's 250 and the commit that marks the reply
# sent makes the next start send it again with the same Message-ID: the
# test counts those ("window" duplicates) and tolerates them; two reviews
# of one patch with different Message-IDs, or a patch without a review,
# fail it.
#
#   CRASH_KILLS (30), CRASH_PATCHES (300), CRASH_SEED (random)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/smtp.sh"
it_init crash

kills=${CRASH_KILLS:-30}
npatches=${CRASH_PATCHES:-300}
seed=${CRASH_SEED:-$RANDOM}
corpus=${CORPUS:-$repo/../shared/corpus/patches}
echo "# kills=$kills patches=$npatches seed=$seed"
RANDOM=$seed

if [ ! -d "$corpus" ]; then
	echo "ok - skipped: no corpus at $corpus"
	it_done
	exit 0
fi

smtp_start out
OUT=$SMTP_DIR
mkdir -p "$IT/in/new" "$IT/in/cur" "$IT/in/tmp" "$IT/spool" "$IT/db"

# each corpus patch as a mail of its own: Message-ID, From and subject
/usr/bin/python3 - "$corpus" "$IT/spool" "$npatches" <<'PY'
import email.parser, email.policy, os, sys
corpus, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sorted(f for f in os.listdir(corpus) if f.endswith('.patch'))
i = 0
for f in names:
    if i >= n:
        break
    raw = open(os.path.join(corpus, f), 'rb').read()
    if raw.startswith(b'From '):
        raw = raw.split(b'\n', 1)[1]
    head, sep, body = raw.partition(b'\n\n')
    if not sep or b'\nSubject:' not in b'\n' + head:
        body = raw
        subj = f[:-6]
    else:
        m = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(head + b'\n\n')
        subj = (m.get('Subject') or f).replace('\n', ' ')
    subj = subj.replace('[PATCH]', '').strip()
    i += 1
    hdr = ('From: Author %d <author%d@example.com>\n'
           'To: linux-crash@vger.example.org\n'
           'List-Id: <linux-crash.vger.example.org>\n'
           'Subject: [PATCH] %s\n'
           'Date: Tue, 10 Nov 2026 12:00:00 +0000\n'
           'Message-ID: <crash-%04d@example.com>\n'
           'MIME-Version: 1.0\n'
           'Content-Type: text/plain; charset=utf-8\n'
           'Content-Transfer-Encoding: 8bit\n\n') % (i, i, subj[:200], i)
    open(os.path.join(out, '%04d' % i), 'wb').write(hdr.encode() + body)
pass
PY
npatches=$(find "$IT/spool" -type f | wc -l)

cat >"$IT/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "crash"]
	type = maildir
	path = $IT/in
	list = linux-crash@vger.example.org
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

# feeds the next $1 spool mails into the maildir (names in order, as the
# maildir checkpoint wants them)
fed=0
feed() {
	local k f
	for k in $(seq "$1"); do
		[ "$fed" -lt "$npatches" ] || return 0
		fed=$((fed + 1))
		f=$(printf '%04d' "$fed")
		cp "$IT/spool/$f" "$IT/in/tmp/$f"
		mv "$IT/in/tmp/$f" "$IT/in/new/1800000000.$f.crash"
	done
}

per_kill=$(((npatches + kills - 1) / kills))
killed=0
t0=$(date +%s)
for i in $(seq "$kills"); do
	feed "$per_kill"
	"$rb" run --config "$IT/rb.conf" >>"$IT/daemon.out" 2>>"$IT/daemon.err" &
	pid=$!
	# 0.05 .. 1.5 s
	ms=$((50 + RANDOM % 1451))
	sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	if kill -KILL "$pid" 2>/dev/null; then
		killed=$((killed + 1))
	fi
	wait "$pid" 2>/dev/null
done
feed "$npatches"
echo "# $killed kills in $(($(date +%s) - t0)) s"
check "the daemon was killed $kills times" "[ $killed -eq $kills ]"

pending() {
	/usr/bin/python3 - "$IT/db/reviewbot.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
q = lambda s: db.execute(s).fetchone()[0]
print(q("SELECT count(*) FROM messages WHERE state = 0")
      + q("SELECT count(*) FROM series WHERE state = 0")
      + q("SELECT count(*) FROM replies WHERE state = 0"))
PY
}

# to the end: run --once until nothing is pending
for i in $(seq 10); do
	"$rb" run --once --config "$IT/rb.conf" >>"$IT/daemon.out" 2>>"$IT/once.err"
	[ "$(pending)" = 0 ] && break
	sleep 1
done
check "nothing is pending after run --once" "[ \"\$(pending)\" = 0 ] || { tail -5 '$IT/once.err'; false; }"

/usr/bin/python3 - "$OUT/mbox" "$IT/db/reviewbot.db" "$npatches" >"$IT/verdict" <<'PY'
import email, os, sqlite3, sys
box, dbf, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
by_irt = {}
for d in ('new', 'cur'):
    for f in os.listdir(os.path.join(box, d)):
        m = email.message_from_binary_file(open(os.path.join(box, d, f), 'rb'))
        by_irt.setdefault((m.get('In-Reply-To') or '').strip(), []).append(
            (m.get('Message-ID') or '').strip())
window = real = missing = 0
for i in range(1, n + 1):
    ids = by_irt.get('<crash-%04d@example.com>' % i, [])
    if not ids:
        missing += 1
    elif len(set(ids)) > 1:
        real += 1
    elif len(ids) > 1:
        window += len(ids) - 1
db = sqlite3.connect('file:%s?mode=ro' % dbf, uri=True)
q = lambda s: db.execute(s).fetchone()[0]
stored = q("SELECT count(DISTINCT message_id) FROM messages WHERE message_id LIKE 'crash-%'")
rows = q("SELECT count(*) FROM messages WHERE message_id LIKE 'crash-%'")
patches = q("SELECT count(*) FROM messages WHERE message_id LIKE 'crash-%' AND state = 1")
replies = q("SELECT count(*) FROM replies WHERE state = 1")
print('missing=%d real_duplicates=%d window_duplicates=%d stored=%d rows=%d patches=%d sent=%d'
      % (missing, real, window, stored, rows, patches, replies))
PY
sed 's/^/# /' "$IT/verdict"
v() { sed -n "s/.*\b$1=\([0-9]*\).*/\1/p" "$IT/verdict"; }
check "every patch has a review at the SMTP server (lost = 0)" "[ '$(v missing)' = 0 ]"
check "no patch has two different reviews" "[ '$(v real_duplicates)' = 0 ]"
check "every message is in the store once" "[ '$(v stored)' = $npatches ] && [ '$(v rows)' = $npatches ]"
check "every message was processed as a patch" "[ '$(v patches)' = $npatches ]"
check "one reply sent per patch in the store" "[ '$(v sent)' = $npatches ]"
echo "# crash: kills=$killed lost=$(v missing) duplicates=$(v real_duplicates) window_resends=$(v window_duplicates)"

it_done
