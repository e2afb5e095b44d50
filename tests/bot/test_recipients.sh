#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Who a review goes to: the author and exactly the lists the patch was
# sent to (its To and Cc, its List-Id), never a list it did not reach;
# a patch mailed to the bot alone is answered privately.  Two sources
# (two lists), an outbox maildir, no server.
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
patch leds tolist "To: $LEDS
Cc: Pavel <pavel@example.net>"
patch leds private "To: $BOT"
patch leds other "To: $NET"
patch leds unknown "To: linux-staging@lists.linux.dev"
patch leds both "To: Ann's Maintainer <maint@example.net>
Cc: $LEDS, NetDev <$NET>"
patch leds bcc "To: maint@example.net
List-Id: Linux LEDs <linux-leds.vger.kernel.org>"
patch leds forged "To: maint@example.net
List-Id: <linux-leds.vger.kernel.org.evil.example>"
patch all everyone "To: Maint <maint@example.net>, $BOT
Cc: $LEDS, Bob <bob@example.com>, ANN@example.com"

"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
check "run --once exits 0, 8 reviews" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/outbox/new' | wc -l) -eq 8 ] || { cat '$tmp/err'; false; }"

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
check "a patch to another list the bot reads, found in this source: Cc that list only" \
	"[ \"\$(rcpt other)\" = 'ann@example.com|$NET|ann@example.com,$NET|$NET' ]"
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
[ $fail -eq 0 ] || for i in tolist private other unknown both bcc forged everyone; do echo "# $i: $(rcpt $i)"; done

echo "recipients: $pass passed, $fail failed"
[ $fail -eq 0 ]
