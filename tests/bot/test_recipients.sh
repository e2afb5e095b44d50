#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Who a review goes to: the author and exactly the lists the patch came
# through (its List-Id, in a maildir source: each list's copy carries
# it), never a list it did not reach, nor one a copy mailed to the bot
# directly names in its To (issue 33 item 2); a patch mailed to the bot
# alone is answered privately.  Two sources (two lists), an outbox
# maildir, no server.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

BOT=reviewbot@example.org
LEDS=linux-leds@vger.kernel.org
NET=netdev@vger.kernel.org
for d in leds net all; do mkdir -p "$tmp/$d/new" "$tmp/$d/cur" "$tmp/$d/tmp"; done
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $tmp/leds
	list = $LEDS
[source "net"]
	type = maildir
	path = $tmp/net
	list = $NET
[source "all"]
	type = maildir
	path = $tmp/all
	list = $LEDS
	reply = all
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	author_replies_per_hour = 0
EOF
mkdir -p "$tmp/db"

# patch BOX MSGID HEADERS: a one-patch mail from ann into maildir BOX
patch() {
	cat >"$tmp/$1/new/$2" <<EOF
From: Ann <ann@example.com>
$3
Subject: [PATCH] leds: x: $2
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$2@example.com>

Make it better.

---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -1,2 +1,3 @@
 int a;
+int $2;
 int c;
EOF
}
LEDS_ID="List-Id: Linux LEDs <linux-leds.vger.kernel.org>"
NET_ID="List-Id: <netdev.vger.kernel.org>"
patch leds tolist "To: $LEDS
Cc: Pavel <pavel@example.net>
$LEDS_ID"
patch leds private "To: $BOT"
patch leds other "To: $NET
$NET_ID"
patch leds unknown "To: linux-staging@lists.linux.dev"
# a patch to two lists comes through each: the same mail twice
patch leds both "To: Ann's Maintainer <maint@example.net>
Cc: $LEDS, NetDev <$NET>
$LEDS_ID"
sed "s/^$LEDS_ID\$/$NET_ID/" "$tmp/leds/new/both" >"$tmp/net/new/both"
patch leds bcc "To: maint@example.net
$LEDS_ID"
patch leds forged "To: maint@example.net
List-Id: <linux-leds.vger.kernel.org.evil.example>"
patch all everyone "To: Maint <maint@example.net>, $BOT
Cc: $LEDS, Bob <bob@example.com>, ANN@example.com
$LEDS_ID"
# naming the list, but mailed to the bot directly: not the list's copy
patch leds direct "To: $LEDS"
patch net direct2 "To: $NET
Cc: $LEDS
$NET_ID"

"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
check "run --once exits 0, 7 reviews" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/outbox/new' | wc -l) -eq 7 ] || { cat '$tmp/err'; false; }"

# rcpt IRT: "To|Cc|envelope|list" of the review answering IRT
rcpt() {
	/usr/bin/python3 - "$tmp/outbox" "$tmp/db/reviewbot.db" "<$1@example.com>" <<'PY'
import email, email.policy, mailbox, sqlite3, sys
from email.utils import getaddresses
box = mailbox.Maildir(sys.argv[1], create=False)
db = sqlite3.connect(sys.argv[2])
for k in box.keys():
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.compat32)
    if m['In-Reply-To'] != sys.argv[3]:
        continue
    to = ','.join(a for _, a in getaddresses(m.get_all('To', [])))
    cc = ','.join(a for _, a in getaddresses(m.get_all('Cc', [])))
    env, lst = db.execute('SELECT rcpt, list FROM replies WHERE message_id = ?',
                          (m['Message-ID'].strip('<>'),)).fetchone()
    print('%s|%s|%s|%s' % (to, cc, env, lst or ''))
PY
}
check "a patch to the list: Cc the list (not the patch's other Cc), counted for its cap" \
	"[ \"\$(rcpt tolist)\" = 'ann@example.com|$LEDS|ann@example.com,$LEDS|$LEDS' ]"
check "a patch mailed to the bot alone: answered privately, no list" \
	"[ \"\$(rcpt private)\" = 'ann@example.com||ann@example.com|' ]"
check "a patch to another list the bot reads, found in this list's mailbox: not that list's copy (it waits for it)" \
	"[ -z \"\$(rcpt other)\" ]"
check "a patch to a list the bot does not read: no list of the bot's is Cc'd" \
	"[ \"\$(rcpt unknown)\" = 'ann@example.com||ann@example.com|' ]"
check "a patch to two lists: both, not the maintainer (reply = list)" \
	"[ \"\$(rcpt both)\" = 'ann@example.com|$LEDS,$NET|ann@example.com,$LEDS,$NET|$LEDS' ]"
check "a patch that reached the list without naming it (List-Id): Cc the list" \
	"[ \"\$(rcpt bcc)\" = 'ann@example.com|$LEDS|ann@example.com,$LEDS|$LEDS' ]"
check "a List-Id that only starts like the list's: not the list" \
	"[ \"\$(rcpt forged)\" = 'ann@example.com||ann@example.com|' ]"
check "reply = all: every To and Cc but the bot and the author, the list first" \
	"[ \"\$(rcpt everyone)\" = 'ann@example.com|$LEDS,maint@example.net,bob@example.com|ann@example.com,$LEDS,maint@example.net,bob@example.com|$LEDS' ]"
check "a patch naming the list but mailed directly: no review yet, it waits for the list's copy ([policy] list_wait)" \
	"[ -z \"\$(rcpt direct)\" ]"
check "one naming a second list it did not come through: it waits too" \
	"[ -z \"\$(rcpt direct2)\" ]"
# the wait over ([policy] list_wait = 0): answered privately, and only
# to the list the other came through
sed -i 's/^\tauthor_replies_per_hour = 0$/&\n\tlist_wait = 0/' "$tmp/rb.conf"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"
check "... then answered privately: a copy mailed directly never answers the list it names" \
	"[ \"\$(rcpt direct)\" = 'ann@example.com||ann@example.com|' ]"
check "... and one that came through one list of two: that list only" \
	"[ \"\$(rcpt direct2)\" = 'ann@example.com|$NET|ann@example.com,$NET|$NET' ]"
check "... and the other list's copy in this list's mailbox: no list at all" \
	"[ \"\$(rcpt other)\" = 'ann@example.com||ann@example.com|' ]"
[ $fail -eq 0 ] || for i in tolist private other unknown both bcc forged everyone direct direct2; do echo "# $i: $(rcpt $i)"; done

echo "recipients: $pass passed, $fail failed"
[ $fail -eq 0 ]
