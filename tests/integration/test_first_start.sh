#!/bin/bash
# The first start is the same on every source: one archive served by
# public-inbox-netd over HTTP, IMAP and NNTP, and the same mail in a
# dovecot mailbox.  With [policy] max_age (3 days) each source, read for
# the first time, stores exactly the mail of the last 3 days (by the date
# a mail is taken to have: a patch of 2019 dated 2085 is of 2019) and
# fetches little of the rest; run -n and the log say so; `run --since`
# reads further back (a backfill), answering no one for the old mail.
# With max_age = 0 every source reads the whole archive (HTTP read one
# feed page before).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/public_inbox.sh"
. "$repo/tests/integration/dovecot.sh"
it_init first_start

pi_start || { bad "public-inbox-netd starts"; it_done; exit 1; }
dc_start nossl || { bad "dovecot starts"; it_done; exit 1; }
printf '%s\n' "$DC_PASS" >"$IT/pass"
chmod 600 "$IT/pass"

# The archive, in arrival order: 30 patches of five to four weeks ago;
# one just older than max_age (4 days); a patch of 2019 dated 2085; two
# within max_age (2 days, 2 hours); one dated 2085 that came an hour ago
# (its Received: says so).  Each carries the Received: its list added.
now=$(date +%s)
/usr/bin/python3 - "$IT/mail" "$now" "$PI_ADDRESS" <<'PY'
import email.utils, os, sys
out, now, lst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out)
day = 86400
mails = [("old-%02d" % i, now - 35 * day + i * 3600 * 12, None) for i in range(30)]
mails += [("edge-4d", now - 4 * day, None),
          ("y2019", 1559390400, 3642796800),
          ("fresh-2d", now - 2 * day, None),
          ("fresh-2h", now - 2 * 3600, None),
          ("future-1h", now - 3600, 3642796800)]
for n, (name, arrived, dated) in enumerate(mails):
    rcvd = email.utils.formatdate(arrived)
    date = email.utils.formatdate(dated if dated else arrived - 60)
    with open(os.path.join(out, "%02d.eml" % n), "w") as f:
        # the list's copies, as its archive and its subscribers get
        # them: with its List-Id (RFC 2919)
        f.write("""Received: from mail.example.com by lists.example.org; %s
From: Dev %d <dev%d@example.com>
To: %s
List-Id: <%s>
Subject: [PATCH] leds: fix %s
Date: %s
Message-ID: <%s@example.com>

Signed-off-by: Dev %d <dev%d@example.com>
---
diff --git a/drivers/leds/leds-%s.c b/drivers/leds/leds-%s.c
--- a/drivers/leds/leds-%s.c
+++ b/drivers/leds/leds-%s.c
@@ -1,2 +1,3 @@
 int a;
+int b;
 int c;
""" % (rcvd, n, n, lst, lst.replace("@", "."), name, date, name, n, n, name, name, name, name))
PY
for f in "$IT"/mail/*.eml; do
	pi_deliver "$f" || bad "deliver $f into public-inbox"
	dc_save "$f" || bad "save $f into dovecot"
done
check "the archive is in public-inbox (35 messages)" "[ \$(pi_count) -eq 35 ]"

conf() {  # conf NAME TYPE URL [max_age]
	mkdir -p "$IT/$1"
	cat >"$IT/$1.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/$1/rb.db
	templates = $repo/templates
	dry_run = true
[source "$1"]
	type = $2
	url = $3
	list = $PI_ADDRESS
	password_file = $IT/pass
	poll_interval = 3600
[delivery]
	type = maildir
	path = $IT/$1/out
[policy]
	max_age = ${4:-259200}
	series_wait = 600
EOF
}
declare -A type=([http]=public-inbox [pimap]=public-inbox [nntp]=public-inbox [dc]=imap)
declare -A url=([http]=$PI_HTTP_URL [pimap]=$PI_IMAP_URL [nntp]=$PI_NNTP_URL
	[dc]=imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX)
for s in http pimap nntp dc; do conf $s "${type[$s]}" "${url[$s]}"; done
stored() {  # stored NAME: the Message-IDs stored, sorted, on one line
	/usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(" ".join(sorted(r[0] for r in db.execute("SELECT message_id FROM messages"))))' "$IT/$1/rb.db"
}
mailed() { ls "$IT/$1/out/new" 2>/dev/null | wc -l; }
want="fresh-2d@example.com fresh-2h@example.com future-1h@example.com"

for s in http pimap nntp dc; do
	"$rb" run -n --config "$IT/$s.conf" >"$IT/$s/n.out" 2>&1
	check "$s: run -n says the first start reads back to max_age" \
		"grep -q '^source \"$s\": first start: reads mail dated from .* on (\\[policy\\] max_age = 259200 s), nothing older' '$IT/$s/n.out' || { cat '$IT/$s/n.out'; false; }"
	"$rb" run --once --config "$IT/$s.conf" >"$IT/$s/out.txt" 2>"$IT/$s/err"; st=$?
	check "$s: the first start stores the mail of the last 3 days, nothing older" \
		"[ $st -eq 0 ] && [ \"\$(stored $s)\" = '$want' ] || { echo \"stored: \$(stored $s)\"; tail -5 '$IT/$s/err'; false; }"
	check "$s: ... reviews and (dry run) mails them" "[ \$(mailed $s) -eq 3 ]"
	check "$s: ... and logs from when it read" \
		"grep -q 'level=info event=first-start source=$s since=\"' '$IT/$s/err'"
	"$rb" run -n --config "$IT/$s.conf" >"$IT/$s/n.out" 2>&1
	check "$s: run -n then says it reads on from where it stopped" \
		"grep -qx 'source \"$s\": reads on from where it stopped' '$IT/$s/n.out'"
done
echo "# first start, max_age 3 days: $(pi_http_requests 'GET /test/[^ ]*/raw') raw fetches over HTTP, $(grep -c '\] ARTICLE ' "$IT/pi-netd.log") articles over NNTP, of 35"
check "HTTP fetched the 3 and those within a margin of the floor, not the archive" \
	"[ \$(pi_http_requests 'GET /test/[^ ]*/raw') -le 5 ]"
check "NNTP fetched the 3 and the one whose Date: is in the future, not the archive" \
	"[ \$(grep -c '\\] ARTICLE ' '$IT/pi-netd.log') -eq 4 ]"

# a backfill: from 45 days ago, on every source; the old mail is stored
# and checked, mailed to no one; the 2019 patch stays out
all=$(/usr/bin/python3 -c 'import sys, re, glob
ids = sorted(re.search(r"^Message-ID: <(.*)>$", open(f).read(), re.M).group(1) for f in glob.glob(sys.argv[1] + "/*.eml"))
print(" ".join(i for i in ids if i != "y2019@example.com"))' "$IT/mail")
since=$(date -u -d "@$((now - 45 * 86400))" +%Y-%m-%d)
for s in http pimap nntp dc; do
	"$rb" run --once --since "$since" --config "$IT/$s.conf" >"$IT/$s/out.txt" 2>"$IT/$s/err"; st=$?
	check "$s: --since reads the older mail (not the 2019 one), mails none of it" \
		"[ $st -eq 0 ] && [ \"\$(stored $s)\" = '$all' ] && [ \$(mailed $s) -eq 3 ] &&
		 grep -q 'level=info event=backfill source=$s since=\"$since 00:00:00 UTC\"' '$IT/$s/err' &&
		 grep -q 'level=info event=too-old not_sent=31 ' '$IT/$s/err' || { echo \"stored: \$(stored $s)\"; tail -5 '$IT/$s/err'; false; }"
done

# max_age = 0: the whole archive on every source (HTTP read one feed
# page of 25 before, IMAP and NNTP all 35)
for s in http pimap nntp dc; do
	rm -rf "$IT/$s"
	conf $s "${type[$s]}" "${url[$s]}" 0
	"$rb" run -n --config "$IT/$s.conf" >"$IT/$s/n.out" 2>&1
	"$rb" run --once --config "$IT/$s.conf" >"$IT/$s/out.txt" 2>"$IT/$s/err"; st=$?
	check "$s: max_age = 0, a first start reads the whole archive (35)" \
		"[ $st -eq 0 ] && [ \$(stored $s | wc -w) -eq 35 ] &&
		 grep -qx 'source \"$s\": first start: reads everything the source holds (\\[policy\\] max_age = 0)' '$IT/$s/n.out' || { echo \"stored: \$(stored $s | wc -w)\"; tail -5 '$IT/$s/err'; false; }"
done

it_done
