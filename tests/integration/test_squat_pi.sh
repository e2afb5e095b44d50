#!/bin/bash
# A Message-ID is not an identity (issue 33 item 2), with a real list
# archive: the bot reads its own mailbox (a maildir: mail sent to it)
# and the list's public-inbox archive over HTTP (public-inbox-netd on
# 127.0.0.1).  A copy of a victim's patch under its Message-ID reaches
# the mailbox first, even with the list's List-Id forged on it; the
# archive's copy, which only the list can put there, then takes its
# place: checked, reviewed to the list, shown.  The other order: the
# mailbox's copy is kept aside.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib.sh"
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/public_inbox.sh"
it_init squat_pi

pi_start || { bad "public-inbox-netd starts"; it_done; exit 1; }

VIC='Vic Tim <vic@example.com>'
# bot NAME: a bot in $IT/NAME reading its mailbox and the archive
bot() {
	b=$IT/$1
	mkdir -p "$b/db" "$b/box/new" "$b/box/cur" "$b/box/tmp"
	cat >"$b/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $b/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "box"]
	type = maildir
	path = $b/box
[source "lore"]
	type = public-inbox
	url = $PI_HTTP_URL
	list = $PI_ADDRESS
	poll_interval = 1
[delivery]
	type = maildir
	path = $b/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
EOF
}
run() { "$rb" run --once --config "$b/rb.conf" >"$b/run.out" 2>&1; }

# patch FILE MSGID GOOD [HEADERS]: the patch; GOOD=1 checks
# copy_to_user()'s result, 0 does not (USER_COPY_UNCHECKED)
patch() {
	local body
	if [ "$3" = 1 ]; then
		body="+	if (copy_to_user(ubuf, &x->state, sizeof(x->state)))
+		return -EFAULT;"
	else
		body="+	__copy_to_user(ubuf, &x->state, sizeof(x->state));
+"
	fi
	cat >"$1" <<EOF
${4:-}From: $VIC
To: $PI_ADDRESS
Subject: [PATCH] leds: x: copy the state out
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$2>

Copy the state to user space.

Signed-off-by: $VIC
---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -10,6 +10,13 @@ static int x_probe(struct x *x)
 	return 0;
 }
 
+static long x_state(struct x *x, void __user *ubuf)
+{
$body
+	return 0;
+}
+
 static int x_remove(struct x *x)
 {
 	return 0;
EOF
}
sql() {
	/usr/bin/python3 - "$b/db/reviewbot.db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}
# reviews MSGID: "Cc|finding" per review of MSGID in the outbox
reviews() {
	/usr/bin/python3 - "$b/outbox" "<$1>" <<'PY'
import email, email.policy, mailbox, os, sys
if not os.path.isdir(sys.argv[1]):
    sys.exit(0)
box = mailbox.Maildir(sys.argv[1], create=False)
for k in sorted(box.keys()):
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
    if m['In-Reply-To'] == sys.argv[2]:
        print('%s|%s' % (m['Cc'] or '', 'USER_COPY_UNCHECKED' in m.get_content()))
PY
}

# ---- the mailbox's copy first, the List-Id forged; the archive's later ----
bot first
patch "$b/box/new/1.squat" v1@vic 1 "List-Id: <test.example.org>
"
run; st=$?
check "a copy with the list's List-Id forged, in the bot's mailbox: not the list's copy, no review yet" \
	"[ $st -eq 0 ] && [ -z \"\$(reviews v1@vic)\" ] &&
	 [ \"\$(sql \"SELECT via, source FROM messages WHERE message_id = 'v1@vic'\")\" = '0|box' ] ||
	 { cat '$b/run.out'; false; }"
patch "$IT/real.eml" v1@vic 0
pi_deliver "$IT/real.eml"
run; st=$?
check "the archive's copy: it takes the place of the mailbox's" \
	"[ $st -eq 0 ] && grep -q 'event=message-replaced msgid=v1@vic source=lore via=2 was_from=box' '$b/run.out' ||
	 { cat '$b/run.out'; false; }"
check "the real patch is checked and reviewed, to the list: its finding in the one review" \
	"[ \"\$(reviews v1@vic)\" = '$PI_ADDRESS|True' ] || { reviews v1@vic; cat '$b/run.out'; false; }"
check "the forged copy is kept aside" \
	"[ \"\$(sql \"SELECT c.via, c.source FROM message_copies c JOIN messages m ON m.id = c.msg_id\")\" = '0|box' ]"
"$rb" serve --config "$b/rb.conf" --listen 127.0.0.1:0 >"$b/serve.log" 2>&1 &
spid=$!
IT_PIDS+=($spid)
port=$(serve_port "$b/serve.log")
st=$(curl -s -o "$b/page" -w '%{http_code}' "http://127.0.0.1:$port/m/v1@vic/")
check "its page shows the archive's copy" \
	"[ '$st' = 200 ] && grep -q USER_COPY_UNCHECKED '$b/page' || { cat '$b/serve.log'; false; }"
kill $spid

# ---- the archive's copy first ---------------------------------------------------
bot second
patch "$IT/real2.eml" v2@vic 0
pi_deliver "$IT/real2.eml"
run
patch "$b/box/new/1.squat" v2@vic 1
run; st=$?
check "the archive's copy first: one review, to the list; a later copy in the mailbox is kept aside" \
	"[ $st -eq 0 ] && [ \"\$(reviews v2@vic)\" = '$PI_ADDRESS|True' ] &&
	 grep -q 'event=message-copy-kept msgid=v2@vic source=box via=0' '$b/run.out' &&
	 [ \"\$(sql \"SELECT via, source FROM messages WHERE message_id = 'v2@vic'\")\" = '2|lore' ] ||
	 { reviews v2@vic; cat '$b/run.out'; false; }"

it_done
