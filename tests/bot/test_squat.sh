#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A Message-ID is not an identity (issue 33 item 2): a mail carrying a
# victim's Message-ID that reaches the bot before the list's copy (here
# into the mailbox the list source reads, without the list's List-Id)
# must not make the real patch "already known", nor get the list a
# "found nothing to report" review threaded under the real patch.  The
# real patch (an unchecked __copy_to_user, a security finding) and the
# squatter's copy of it (checked, clean), in both orders, in one run or
# two, answered before the list's copy came or not; and re-deliveries of
# one mail (the same bytes, the same mail with what the way adds), which
# stay one message.  The bot runs over a maildir (dry run, replies into
# an outbox maildir), and `reviewbot serve` shows the message's page.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib.sh"
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
serve_pid=
cleanup() {
	[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

BOT=reviewbot@example.org
LEDS=linux-leds@vger.kernel.org
LID='Linux LEDs <linux-leds.vger.kernel.org>'
VIC='Vic Tim <vic@example.com>'

# case NAME [POLICY-LINES]: a fresh bot in $tmp/NAME, its maildir the
# list source's mailbox
case_start() {
	c=$tmp/$1
	mkdir -p "$c/leds/new" "$c/leds/cur" "$c/leds/tmp" "$c/db"
	cat >"$c/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $c/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $c/leds
	list = $LEDS
[delivery]
	type = maildir
	path = $c/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	author_replies_per_hour = 0
${2:-}
EOF
	n_mail=0
}

# mail FILE-SUFFIX: stdin into the maildir, in arrival order
mail() {
	n_mail=$((n_mail + 1))
	cat >"$c/leds/new/$(printf '%04d' $n_mail).$1"
}

# real [EXTRA-HEADERS]: the victim's patch as the list delivers it
real() {
	mail real <<EOF
${1:-Received: from vger.kernel.org by mx.example.org; Mon, 2 Nov 2026 10:00:05 +0000
List-Id: $LID
X-Mailing-List: $LEDS
}From: $VIC
To: $LEDS
Subject: [PATCH] leds: x: copy the state out
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <v1@vic>

Copy the state to user space.

Signed-off-by: $VIC
---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -10,6 +10,12 @@ static int x_probe(struct x *x)
 	return 0;
 }
 
+static long x_state(struct x *x, void __user *ubuf)
+{
+	__copy_to_user(ubuf, &x->state, sizeof(x->state));
+	return 0;
+}
+
 static int x_remove(struct x *x)
 {
 	return 0;
EOF
}

# squat: the same Message-ID, mailed to the mailbox directly, the
# subject and sender the same, the patch checked and clean
squat() {
	mail squat <<EOF
From: $VIC
To: $LEDS
Subject: [PATCH] leds: x: copy the state out
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <v1@vic>

Copy the state to user space.

Signed-off-by: $VIC
---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -10,6 +10,14 @@ static int x_probe(struct x *x)
 	return 0;
 }
 
+static long x_state(struct x *x, void __user *ubuf)
+{
+	if (copy_to_user(ubuf, &x->state, sizeof(x->state)))
+		return -EFAULT;
+	return 0;
+}
+
 static int x_remove(struct x *x)
 {
 	return 0;
EOF
}

run() {
	"$rb" run --once --config "$c/rb.conf" >"$c/run.out" 2>&1
}
sql() {
	python3 - "$c/db/reviewbot.db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}
# reviews: one line per review mail in the outbox answering <v1@vic>:
# "Cc|Message-ID|security line|found-nothing"
reviews() {
	python3 - "$c/outbox" <<'PY'
import email, email.policy, mailbox, os, sys
if not os.path.isdir(sys.argv[1]):
    sys.exit(0)
box = mailbox.Maildir(sys.argv[1], create=False)
for k in sorted(box.keys()):
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
    if m['In-Reply-To'] != '<v1@vic>':
        continue
    body = m.get_content()
    sec = [' '.join(l.split()[:2]) for l in body.splitlines() if l.strip().startswith('security:')]
    print('%s|%s|%s|%s' % (m['Cc'] or '', m['Message-ID'], sec[0] if sec else '',
                           'USER_COPY_UNCHECKED' in body))
PY
}

# ---- the squatter's copy first, the list's later -------------------------------
case_start first
squat
run; st=$?
check "squatter's copy first: the run ends well, no review yet (it names the list it did not come through: [policy] list_wait)" \
	"[ $st -eq 0 ] && [ -z \"\$(reviews)\" ] || { cat '$c/run.out'; reviews; false; }"
real
run; st=$?
check "the list's copy next: it takes the place of the other" \
	"[ $st -eq 0 ] && grep -q 'event=message-replaced msgid=v1@vic source=leds via=1' '$c/run.out' ||
	 { cat '$c/run.out'; false; }"
check "the real patch is checked: its security finding stored" \
	"[ \"\$(sql \"SELECT count(*) FROM findings f JOIN patches p ON p.id = f.patch_id
	   JOIN messages m ON m.id = p.msg_id WHERE m.message_id = 'v1@vic' AND f.type = 'USER_COPY_UNCHECKED'\")\" = 1 ]"
r=$(reviews)
check "one review, to the list, of the real patch (security: concern, the finding)" \
	"[ \$(echo '$r' | grep -c .) -eq 1 ] && echo '$r' | grep -q '^$LEDS|.*|security: concern|True$' ||
	 { echo '$r'; false; }"
check "the squatter's copy is kept aside, with why" \
	"[ \"\$(sql \"SELECT c.via, c.reason FROM message_copies c JOIN messages m ON m.id = c.msg_id
	   WHERE m.message_id = 'v1@vic'\")\" = '0|replaced by the copy from leds, which came through its list' ]"
check "the message is the list's copy: it came through the list" \
	"[ \"\$(sql \"SELECT state, via, via_lists FROM messages WHERE message_id = 'v1@vic'\")\" = '1|1|$LEDS' ]"
# the page shows the real patch
"$rb" serve --config "$c/rb.conf" --listen 127.0.0.1:0 >"$c/serve.log" 2>&1 &
serve_pid=$!
port=$(serve_port "$c/serve.log")
st=$(curl -s -o "$c/page" -w '%{http_code}' "http://127.0.0.1:$port/m/v1@vic/")
check "/m/v1@vic/ shows the real patch's finding" \
	"[ '$st' = 200 ] && grep -q 'USER_COPY_UNCHECKED' '$c/page' || { cat '$c/serve.log'; false; }"
st=$(curl -s -o "$c/api" -w '%{http_code}' "http://127.0.0.1:$port/api/v1/findings?series=v1@vic")
check "... and the API its one finding" \
	"[ '$st' = 200 ] && python3 -c \"import json; d = json.load(open('$c/api')); assert [f['type'] for f in d['findings']] == ['USER_COPY_UNCHECKED'], d\""
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null
serve_pid=

# ---- the squatter's copy answered before the list's came ------------------------
case_start answered "	list_wait = 0"
squat
run
r=$(reviews)
check "list_wait = 0: the squatter's copy is reviewed at once, privately (it did not come through the list)" \
	"[ \$(echo '$r' | grep -c .) -eq 1 ] && echo '$r' | grep -q '^|.*|security: no|False$' || { echo '$r'; false; }"
first_id=$(echo "$r" | cut -d'|' -f2)
real
run
r=$(reviews)
check "the list's copy then gets its own review, to the list, of the real patch, under another Message-ID" \
	"[ \$(echo '$r' | grep -c .) -eq 2 ] && [ \$(echo '$r' | grep -c '^$LEDS|') -eq 1 ] &&
	 echo '$r' | grep '^$LEDS|' | grep -q '|security: concern|True$' &&
	 ! echo '$r' | grep '^$LEDS|' | grep -qF '$first_id' || { echo '$r'; false; }"

# ---- the list's copy first, the squatter's later ----------------------------------
case_start list_first
real
run
squat
run; st=$?
r=$(reviews)
check "list's copy first: one review, to the list, of the real patch; the later copy changes nothing" \
	"[ $st -eq 0 ] && [ \$(echo '$r' | grep -c .) -eq 1 ] && echo '$r' | grep -q '^$LEDS|.*|security: concern|True$' ||
	 { echo '$r'; cat '$c/run.out'; false; }"
check "... it is kept aside, never processed" \
	"grep -q 'event=message-copy-kept msgid=v1@vic source=leds via=0' '$c/run.out' &&
	 [ \"\$(sql \"SELECT reason FROM message_copies\")\" = 'the copy that came through its list is the message' ] &&
	 [ \"\$(sql \"SELECT count(*) FROM patches\")\" = 1 ]"

# ---- both in one run (one batch) ---------------------------------------------------
case_start one_run
squat
real
run
r=$(reviews)
check "both in one run, squatter's first: one review, to the list, of the real patch" \
	"[ \$(echo '$r' | grep -c .) -eq 1 ] && echo '$r' | grep -q '^$LEDS|.*|security: concern|True$' ||
	 { echo '$r'; cat '$c/run.out'; false; }"
check "... one patch, the list's" \
	"[ \"\$(sql \"SELECT count(*) FROM patches\")\" = 1 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM findings WHERE type = 'USER_COPY_UNCHECKED'\")\" = 1 ]"

# ---- re-deliveries are one message --------------------------------------------------
case_start again
real
run
real
# what the way adds: trace, delivery, the list's fields, CRLF line ends
real "Return-Path: <vic@example.com>
Delivered-To: $BOT
Received: from mx2.example.org by bot.example.org; Mon, 2 Nov 2026 10:01:00 +0000
Received: from vger.kernel.org by mx2.example.org; Mon, 2 Nov 2026 10:00:05 +0000
List-Id: $LID
List-Unsubscribe: <mailto:linux-leds+unsubscribe@vger.kernel.org>
Precedence: bulk
"
sed -i 's/$/\r/' "$c/leds/new/$(printf '%04d' $n_mail).real"
run; st=$?
r=$(reviews)
check "the same mail again, and with what the way adds: one message, one review, no copy kept" \
	"[ $st -eq 0 ] && [ \"\$(sql 'SELECT count(*) FROM messages')\" = 1 ] &&
	 [ \"\$(sql 'SELECT count(*) FROM message_copies')\" = 0 ] && [ \$(echo '$r' | grep -c .) -eq 1 ] ||
	 { echo '$r'; cat '$c/run.out'; false; }"

# the author Cc's the bot: its copy comes first, straight, then the list's
case_start cc_bot
mail cc <<EOF
From: $VIC
To: $LEDS
Cc: $BOT
Subject: [PATCH] leds: y: a thing
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <v1@vic>

Do it.

---
diff --git a/drivers/leds/leds-y.c b/drivers/leds/leds-y.c
--- a/drivers/leds/leds-y.c
+++ b/drivers/leds/leds-y.c
@@ -1,2 +1,3 @@
 int a;
+int b; 
 int c;
EOF
run
check "a copy Cc'd to the bot: it waits for the list's" "[ -z \"\$(reviews)\" ]"
{
	printf 'Received: from vger.kernel.org by mx.example.org; Mon, 2 Nov 2026 10:00:09 +0000\n'
	printf 'List-Id: %s\nX-Mailing-List: %s\n' "$LID" "$LEDS"
	cat "$c/leds/new/0001.cc"
} | mail list
run
r=$(reviews)
check "... which is the same mail: one message, now through the list, one review, to the list" \
	"[ \"\$(sql 'SELECT count(*) FROM messages')\" = 1 ] && [ \"\$(sql 'SELECT count(*) FROM message_copies')\" = 0 ] &&
	 [ \"\$(sql 'SELECT via, via_lists FROM messages')\" = '1|$LEDS' ] &&
	 [ \$(echo '$r' | grep -c .) -eq 1 ] && echo '$r' | grep -q '^$LEDS|' || { echo '$r'; cat '$c/run.out'; false; }"

echo "squat: $pass passed, $fail failed"
[ $fail -eq 0 ]
