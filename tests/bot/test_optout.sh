#!/bin/bash
# Opting out by mail, no loops, rate limits, and the admin commands: the
# bot on a local maildir, dry run, replies written to an outbox maildir.
# No server needed.  What silences someone (optout, mute) or undoes it
# (optin) takes effect only once the address sends back the token the
# bot mails it (issue 33: a forged From: opted anyone out, unseen).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
[ -z "${KEEP:-}" ] || echo "# kept: $tmp"
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

BOT=reviewbot@example.org
LIST=linux-leds@vger.kernel.org
db=$tmp/db/reviewbot.db
mkdir -p "$tmp/db" "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $tmp/list
	list = $LIST
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
	max_replies_per_hour = 1000
	author_replies_per_hour = 5
	list_replies_per_hour = 1000
	confirmations_per_hour = 3
	max_confirmations_per_hour = 1000
EOF

n_mail=0
# mail NAME: stdin becomes a new mail of the source maildir
mail() {
	n_mail=$((n_mail + 1))
	cat >"$tmp/list/new/$(printf '%04d' $n_mail).$1"
}

# patch MSGID FROM SUBJECT [IN-REPLY-TO]: a one-patch mail missing its
# Signed-off-by (so its review has something to say), the list's copy
patch() {
	local irt=""
	[ -n "${4:-}" ] && irt="In-Reply-To: <$4>
References: <$4>"
	mail "$1" <<EOF
List-Id: <linux-leds.vger.kernel.org>
From: ${2%%@*} <$2>
To: $LIST
Subject: [PATCH] $3
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$1>
$irt

Make the driver better.

---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -1,3 +1,4 @@
 int a;
 int b;
+int c_${1%%@*};
 int d;
EOF
}

# command MSGID FROM BODY [extra headers]: a mail to the bot
command() {
	mail "$1" <<EOF
From: ${2%%@*} <$2>
To: $BOT
Subject: ${4:-reviews}
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$1>
${5:-}

$3
EOF
}

run() { "$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; }
outbox() { ls "$tmp/outbox/new" 2>/dev/null | wc -l; }
sql() {
	/usr/bin/python3 - "$db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
c.commit()
PY
}
# mailinfo IRT FIELD: a header (or "body") of the outbox mail answering IRT
mailinfo() {
	/usr/bin/python3 - "$tmp/outbox" "$1" "$2" <<'PY'
import email, email.policy, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
for k in box.keys():
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
    if m['In-Reply-To'] == '<%s>' % sys.argv[2]:
        try:
            print(m.get_content() if sys.argv[3] == 'body' else (m[sys.argv[3]] or ''))
        except BrokenPipeError:
            pass
        break
PY
}

# token IRT: the token of the outbox mail answering IRT
token_of() { mailinfo "$1" body | sed -n 's/^    confirm \([0-9a-f]*\)$/\1/p'; }
# confirm MSGID FROM IRT: FROM sends back the token of the request
# answering IRT, as a reply to it
confirm() {
	local t mid
	t=$(token_of "$3")
	mid=$(mailinfo "$3" Message-ID); mid=${mid#<}; mid=${mid%>}
	command "$1" "$2" "confirm $t" "Re: [reviewbot] please confirm" "In-Reply-To: <$mid>"
}

# ---- optout ------------------------------------------------------------
command "c1@alice" alice@example.com "optout" "Buy cheap watches at example.net"
run; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"
check "optout: one request for confirmation, nothing done yet" \
	"[ \$(outbox) -eq 1 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='alice@example.com'\")\" = 0 ] &&
	 [ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id='c1@alice'\")\" = '4|optout: pending confirmation' ] &&
	 grep -q 'event=command-pending msgid=c1@alice command=optout from=alice@example.com' '$tmp/err'"
check "the request goes to the sender alone, auto-replied, threaded, a Subject of the bot's own" \
	"[ \"\$(mailinfo c1@alice To)\" = 'alice <alice@example.com>' ] &&
	 [ -z \"\$(mailinfo c1@alice Cc)\" ] &&
	 [ \"\$(mailinfo c1@alice Auto-Submitted)\" = auto-replied ] &&
	 [ \"\$(mailinfo c1@alice Subject)\" = 'Re: [reviewbot] please confirm: optout' ] &&
	 ! grep -rq 'watches' '$tmp/outbox/new' &&
	 mailinfo c1@alice body | grep -q 'command \"optout\" for alice@example.com' &&
	 mailinfo c1@alice body | tr '\\n' ' ' | grep -q 'Nothing is done until alice@example.com confirms it' &&
	 [ \$(token_of c1@alice | wc -c) -eq 33 ]"
"$rb" status --config "$tmp/rb.conf" >"$tmp/status" 2>&1
check "status: the pending command" "grep -q '^commands: 1 pending confirmation, 0 refused' '$tmp/status' || { cat '$tmp/status'; false; }"
confirm "c1c@alice" alice@example.com "c1@alice"
run
check "the token sent back: the optout is recorded (silent), answered with an undo token" \
	"[ \$(outbox) -eq 2 ] &&
	 [ \"\$(sql \"SELECT mode FROM optouts WHERE addr='alice@example.com'\")\" = 0 ] &&
	 [ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id='c1c@alice'\")\" = '4|optout confirmed' ] &&
	 mailinfo c1c@alice body | tr '\\n' ' ' | grep -q 'no review of your patches will be mailed from now on' &&
	 [ \$(token_of c1c@alice | wc -c) -eq 33 ]"
"$rb" status --config "$tmp/rb.conf" >"$tmp/status" 2>&1
check "status: nothing pending any more" "grep -q '^commands: 0 pending confirmation, 0 refused' '$tmp/status' || { cat '$tmp/status'; false; }"
patch "p1@alice" alice@example.com "leds: x: one"
run
check "the opted-out author's next patch gets no review mail" "[ \$(outbox) -eq 2 ]"
check "... its review is recorded as suppressed, the patch checked and kept" \
	"[ \"\$(sql \"SELECT r.state, r.reason FROM replies r JOIN series s ON s.id = r.series_id WHERE s.author_addr = 'alice@example.com'\")\" = '3|the author opted out of reviews' ] &&
	 [ \"\$(sql \"SELECT count(*) FROM findings f JOIN series s ON s.id = f.series_id WHERE s.author_addr = 'alice@example.com'\")\" -gt 0 ]"

# ---- optout private, written the way people write -------------------------
mail "c1@bob" <<EOF
From: Bob <Bob@Example.com>
To: $LIST, $BOT
Subject: Re: [PATCH] leds: something
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <c1@bob>
Content-Type: text/plain; charset=utf-8

<div dir="ltr"><br></div>
<div>Optout   Private.</div>
<div>On Mon, 2 Nov 2026 at 10:00, reviewbot &lt;$BOT&gt;
wrote:</div>
&gt; some review
EOF
run
check "optout private (HTML, capitals, full stop): one request" \
	"[ \$(outbox) -eq 3 ] && mailinfo c1@bob body | grep -q '\"optout private\"'"
confirm "c1c@bob" bob@example.com "c1@bob"
patch "p1@bob" bob@example.com "leds: x: two"
run
check "optout private, confirmed: the next review goes to the author, no Cc" \
	"[ \$(outbox) -eq 5 ] && mailinfo p1@bob To | grep -q bob@example.com && [ -z \"\$(mailinfo p1@bob Cc)\" ]"

# ---- mute ----------------------------------------------------------------
# a thread not posted yet cannot be muted: the root is the store's, not
# what the command's References say
command "c1@eve" eve@example.com "mute" "Re: [PATCH] leds: x: three" "In-Reply-To: <p1@carol>
References: <p1@carol>"
n0=$(outbox)
run
check "mute of a thread not posted yet: refused, no answer, nothing muted" \
	"[ \$(outbox) -eq $n0 ] && [ \"\$(sql 'SELECT count(*) FROM mutes')\" = 0 ] &&
	 [ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id='c1@eve'\")\" = '4|mute refused: no such thread' ]"
patch "p1@carol" carol@example.com "leds: x: three"
# dave is on the patch's Cc
sed -i "s/^To: $LIST\$/To: $LIST\nCc: Dave <dave@example.com>/" "$tmp/list/new/"*p1@carol
run
rid=$(mailinfo p1@carol Message-ID)
check "a review of carol's patch, Cc the list (so the early mute did nothing)" \
	"[ -n '$rid' ] && mailinfo p1@carol Cc | grep -q '$LIST'"
rid=${rid#<}; rid=${rid%>}
# mallory takes no part in the thread
command "c1@mal" mallory@example.net "mute" "Re: [PATCH] leds: x: three" "In-Reply-To: <$rid>
References: <p1@carol> <$rid>"
n0=$(outbox)
run
check "mute by someone not in the thread: refused, no answer, nothing muted" \
	"[ \$(outbox) -eq $n0 ] && [ \"\$(sql 'SELECT count(*) FROM mutes')\" = 0 ] &&
	 [ \"\$(sql \"SELECT reason FROM messages WHERE message_id='c1@mal'\")\" = 'mute refused: the sender takes no part in the thread' ] &&
	 grep -q 'event=command-refused.*c1@mal\|event=command msgid=c1@mal.*refused=' '$tmp/err'"
command "c1@dave" dave@example.com "On Mon, Nov 2, 2026 at 10:00 AM reviewbot wrote:
> review text
mute

-- 
Dave" "Re: [PATCH] leds: x: three" "In-Reply-To: <$rid>
References: <p1@carol> <$rid>"
sed -i "s/^To: .*/To: $LIST/" "$tmp/list/new/"*c1@dave
n0=$(outbox)
run
check "mute as a reply to a review by someone on its Cc (not To the bot, quoted text first): a request, nothing muted yet" \
	"[ \$(outbox) -eq $((n0 + 1)) ] && [ \"\$(sql 'SELECT count(*) FROM mutes')\" = 0 ] &&
	 [ \"\$(sql \"SELECT reason FROM messages WHERE message_id='c1@dave'\")\" = 'mute: pending confirmation' ]"
confirm "c1c@dave" dave@example.com "c1@dave"
run
check "... confirmed by dave: muted" \
	"[ \$(outbox) -eq $((n0 + 2)) ] && [ \"\$(sql \"SELECT root, addr FROM mutes\")\" = 'p1@carol|dave@example.com' ]"
n0=$(outbox)
patch "p2@carol" carol@example.com "leds: x: three, again" "p1@carol"
run
check "mute: nothing more in that thread" \
	"[ \$(outbox) -eq $n0 ] && [ \"\$(sql \"SELECT r.state, r.reason FROM replies r JOIN messages m ON m.series_id = r.series_id WHERE m.message_id = 'p2@carol'\")\" = '3|the thread is muted' ]"

# the author mutes her own thread, answering her patch
patch "p3@carol" carol@example.com "leds: x: six"
command "c2@carol" carol@example.com "mute" "Re: [PATCH] leds: x: six" "In-Reply-To: <p3@carol>
References: <p3@carol>"
n0=$(outbox)
run
confirm "c2c@carol" carol@example.com "c2@carol"
run
check "mute by the patch's author, answering the patch: confirmed (her review went out before the mute was confirmed)" \
	"[ \$(outbox) -eq $((n0 + 3)) ] && [ \"\$(sql \"SELECT addr FROM mutes WHERE root = 'p3@carol'\")\" = carol@example.com ] &&
	 mailinfo c2@carol body | grep -q '\"mute\"' && mailinfo c2c@carol body | grep -q '\"mute confirmed\"'"

# ---- optin: a token, a forged confirmation, the real one --------------------
command "c2@alice" alice@example.com "optin"
n0=$(outbox)
run
token=$(mailinfo c2@alice body | sed -n 's/^    confirm \([0-9a-f]*\)$/\1/p')
check "optin: a request carrying a token" "[ \$(outbox) -eq $((n0 + 1)) ] && [ \${#token} -eq 32 ]"
check "optin alone changes nothing" "[ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='alice@example.com'\")\" = 1 ]"
command "c1@mallory" mallory@example.net "confirm $token"
command "c2@mallory" mallory@example.net "optin $token" "Re: reviews" "In-Reply-To: <c2@alice>"
run
check "a forged optin (another From, alice's token): no answer, nothing changes" \
	"[ \$(outbox) -eq $((n0 + 1)) ] && [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='alice@example.com'\")\" = 1 ] &&
	 [ \"\$(sql \"SELECT reason FROM messages WHERE message_id='c1@mallory'\")\" = 'token not valid for this address' ]"
cmid=$(mailinfo c2@alice Message-ID); cmid=${cmid#<}; cmid=${cmid%>}
# her mail program answers first, quoting the confirmation: quoted text
# is never the sender's own, so it does nothing
mail "c3q@alice" <<EOF
From: Alice <alice@example.com>
To: $BOT
Subject: Re: reviews
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <c3q@alice>
In-Reply-To: <$cmid>

I am out of the office until Monday.

On Mon, 2 Nov 2026, reviewbot wrote:
> reviewbot received the command "optin" for alice@example.com.
>
>     confirm $token
EOF
run
check "a reply that only quotes the confirm line: no answer, still opted out" \
	"[ \$(outbox) -eq $((n0 + 1)) ] && [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='alice@example.com'\")\" = 1 ]"
mail "c3@alice" <<EOF
From: Alice <alice@example.com>
To: $BOT
Subject: Re: reviews
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <c3@alice>
In-Reply-To: <$cmid>

Yes please.

    confirm $token

On Mon, 2 Nov 2026, reviewbot wrote:
> reviewbot received the command "optin" for alice@example.com.
>
>     confirm $token
EOF
run
check "the token written back by its owner re-enables reviews (and is answered)" \
	"[ \$(outbox) -eq $((n0 + 2)) ] && [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='alice@example.com'\")\" = 0 ] &&
	 mailinfo c3@alice body | grep -q 'optin confirmed' &&
	 [ \"\$(mailinfo c3@alice Subject)\" = 'Re: [reviewbot] optin confirmed' ] &&
	 mailinfo c3@alice body | tr '\\n' ' ' | grep -q 'you will get reviews again' &&
	 ! mailinfo c3@alice body | grep -q 'will be mailed from now on'"
command "c4@alice" alice@example.com "confirm $token"
run
check "a token works once" "[ \$(outbox) -eq $((n0 + 2)) ]"
patch "p2@alice" alice@example.com "leds: x: four"
run
check "alice's next patch is reviewed again" "[ \$(outbox) -eq $((n0 + 3)) ] && mailinfo p2@alice To | grep -q alice@"

# ---- mail a program sent is never a command ---------------------------------
n0=$(outbox)
i=0
while IFS= read -r h; do
	i=$((i + 1))
	command "c$i@auto" "auto$i@example.com" "optout" "Re: reviews" "$h"
done <<EOF
Precedence: bulk
Precedence: junk
Precedence: list
Return-Path: <>
X-Autoreply: yes
X-Auto-Response-Suppress: All
Auto-Submitted: auto-notified
EOF
command "c8@auto" MAILER-DAEMON@mx.example.com "optout"
command "c9@auto" postmaster@example.com "optout"
# a person's command that came through the list (which adds its
# Precedence and List-Id) is one
command "c1@kate" kate@example.com "optout" "Re: reviews" "Precedence: bulk
List-Id: <linux-leds.vger.kernel.org>"
run
check "auto-generated command mail (9 kinds): no answer, nothing changed, reason kept" \
	"[ \$(outbox) -eq $((n0 + 1)) ] &&
	 [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr LIKE 'auto%' OR addr LIKE 'mailer-daemon%' OR addr LIKE 'postmaster%'\")\" = 0 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM messages WHERE message_id LIKE 'c_@auto' AND state = 5 AND (reason LIKE 'auto-generated mail (%): not a command' OR reason = 'auto-submitted mail')\")\" = 9 ]"
check "... but a person's command through the list is one (a request for its token)" \
	"[ \"\$(sql \"SELECT reason FROM messages WHERE message_id = 'c1@kate'\")\" = 'optout: pending confirmation' ] && mailinfo c1@kate body | grep -q optout"
# kate's vacation program answers the confirmation, quoting its token
ktok=$(mailinfo c1@kate body | sed -n 's/^    confirm \([0-9a-f]*\)$/\1/p')
kmid=$(mailinfo c1@kate Message-ID); kmid=${kmid#<}; kmid=${kmid%>}
command "c2@kate" kate@example.com "I am away.

> reviewbot received the command \"optout\" for kate@example.com.
>     confirm $ktok" "Re: reviews" "In-Reply-To: <$kmid>
X-Autoreply: yes"
command "c3@kate" kate@example.com "Auto: I am away.

>     confirm $ktok" "Auto: reviews" "In-Reply-To: <$kmid>"
run
check "an auto-responder quoting a request confirms nothing, gets no answer" \
	"[ \${#ktok} -eq 32 ] && [ \$(outbox) -eq $((n0 + 1)) ] &&
	 [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr = 'kate@example.com'\")\" = 0 ] &&
	 [ \"\$(sql \"SELECT used FROM optin_tokens WHERE token = '$ktok'\")\" = 0 ]"
# patches posted on a list carry such headers: they are reviewed
mail "p1@liam" <<EOF
From: Liam <liam@example.com>
To: $LIST
Cc: $BOT
Subject: [PATCH] leds: x: from the list
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <p1@liam>
Return-Path: <>
Precedence: bulk
List-Id: <linux-leds.vger.kernel.org>
X-Auto-Response-Suppress: All

optout

---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -1,3 +1,4 @@
 int a;
 int b;
+int c_liam;
 int d;
EOF
run
check "a patch with such headers (to the bot too) is reviewed, not a command" \
	"[ \$(outbox) -eq $((n0 + 2)) ] && mailinfo p1@liam To | grep -q liam@ &&
	 [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr = 'liam@example.com'\")\" = 0 ]"

# ---- Reviewbot: skip -----------------------------------------------------
mail "cover@erin" <<EOF
List-Id: <linux-leds.vger.kernel.org>
From: Erin <erin@example.com>
To: $LIST
Subject: [PATCH 0/1] leds: x: a series
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <cover@erin>

Work in progress, for the humans only.

Reviewbot: skip
EOF
patch "p1@erin" erin@example.com "leds: x: five" "cover@erin"
sed -i 's/^Subject: \[PATCH\] /Subject: [PATCH 1\/1] /' "$tmp/list/new/"*p1@erin
n0=$(outbox)
run
check "a cover letter with 'Reviewbot: skip': no review, series skipped" \
	"[ \$(outbox) -eq $n0 ] && [ \"\$(sql \"SELECT state FROM series WHERE author_addr='erin@example.com'\")\" = 2 ] &&
	 grep -q 'event=series-skipped.*Reviewbot: skip' '$tmp/err'"

# ---- no loops --------------------------------------------------------------
command "c1@vac" vac@example.com "optout" "Out of office" "Auto-Submitted: auto-replied"
command "c1@otherbot" otherbot@example.com "optout" "reviews" "X-Reviewbot: 0.1.0"
command "c1@self" $BOT "optout"
patch "p1@self" $BOT "leds: x: from the bot itself"
run
check "auto-submitted, bot-header and own-address mail: never answered" \
	"[ \$(outbox) -eq $n0 ] && [ \"\$(sql \"SELECT count(*) FROM messages WHERE message_id IN ('c1@vac','c1@otherbot','c1@self','p1@self') AND state = 5\")\" = 4 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr IN ('vac@example.com','otherbot@example.com','$BOT')\")\" = 0 ]"

# ---- requests are rate-limited ----------------------------------------------
for i in 1 2 3 4; do command "m$i@gus" gus@example.com "optout"; done
run
check "requests_per_day = 3: the 4th request is recorded, suppressed" \
	"[ \$(outbox) -eq $((n0 + 3)) ] && [ \"\$(sql \"SELECT count(*) FROM replies WHERE kind='request' AND to_addr='gus@example.com' AND state=3 AND reason = 'requests_per_day reached for this address'\")\" = 1 ]"

# ---- a flood from one author ------------------------------------------------
for i in $(seq 1 20); do patch "f$i@frank" frank@example.com "leds: x: flood $i"; done
n0=$(outbox)
run
cp "$tmp/err" "$tmp/err.1"
check "20 patches, author_replies_per_hour = 5: 5 sent, 15 pending" \
	"[ \$(outbox) -eq $((n0 + 5)) ] &&
	 [ \"\$(sql \"SELECT state, count(*) FROM replies WHERE to_addr='frank@example.com' GROUP BY state ORDER BY state\" | tr '\n' ' ')\" = '0|15 1|5 ' ] &&
	 [ \"\$(sql \"SELECT max(attempts) FROM replies WHERE state = 0\")\" = 0 ]"
run
check "... and they stay pending on the next cycle of the same hour" "[ \$(outbox) -eq $((n0 + 5)) ]"
check "... held by the cap: logged once each at info level, no attempt counted" \
	"[ \$(grep -c 'level=info event=held .*cap=author_replies_per_hour' '$tmp/err.1') -eq 15 ] &&
	 [ \$(grep -c 'event=held' '$tmp/err') -eq 0 ]"
"$rb" status --config "$tmp/rb.conf" >"$tmp/status" 2>&1
check "status: 15 held by cap, until an hour after the first was sent, none due" \
	"grep -Eq '^replies: [0-9]+ \\(pending 15, due 0, held by cap 15 \\(until [0-9]{2}:[0-9]{2} UTC\\),' '$tmp/status' || { cat '$tmp/status'; false; }"
# what frank's reviews are now, and the last run's log, when a check fails
frank_replies() {
	echo "# now $(date +%s); outbox $(outbox); frank's reviews (id|state|sent_at|next_attempt|rcpt|reason):"
	sql "SELECT id, state, sent_at, next_attempt, rcpt, reason FROM replies WHERE to_addr='frank@example.com' AND kind='review' ORDER BY id" | sed 's/^/#   /'
	grep -E 'event=(sent|held|suppressed|made-private)' "$tmp/err" | sed 's/^/#   /'
}
# an hour later: what the caps counted is over an hour old, the held
# replies due.  3601 s: a cap counts what was sent at now - 3600 or later,
# and the runs are fast: a reply sent in the same second as the next run
# and moved back by 3600 alone would still be counted (the test failed
# that way, now and then).
later() {
	sql "UPDATE replies SET sent_at = sent_at - 3601, created = created - 3601 WHERE state = 1" >/dev/null
	sql "UPDATE replies SET next_attempt = 0 WHERE state = 0" >/dev/null
}
# frank mutes the thread of his 6th patch, held, and opts out to private
# reviews; the answers are not held by his review cap (5 reviews sent)
command "mute@frank" frank@example.com "mute" "Re: [PATCH] leds: x: flood 6" "In-Reply-To: <f6@frank>
References: <f6@frank>"
command "priv@frank" frank@example.com "optout private"
n0=$(outbox)
run
confirm "mutec@frank" frank@example.com "mute@frank"
confirm "privc@frank" frank@example.com "priv@frank"
run
check "requests and answers of frank's commands go while his reviews are held by his cap" \
	"[ \$(outbox) -eq $((n0 + 4)) ] && [ -n \"\$(mailinfo mute@frank To)\" ] && [ -n \"\$(mailinfo priv@frank To)\" ] &&
	 [ -n \"\$(mailinfo mutec@frank To)\" ] && [ -n \"\$(mailinfo privc@frank To)\" ]"
later
n0=$(outbox)
run
check "an hour later: the held review of the muted thread is suppressed at delivery" \
	"[ \"\$(sql \"SELECT state, reason FROM replies WHERE to_addr='frank@example.com' AND kind='review' AND series_id = (SELECT p.series_id FROM patches p JOIN messages m ON m.id = p.msg_id WHERE m.message_id='f6@frank')\")\" = '3|the thread is muted' ] &&
	 grep -q 'event=suppressed .*reason=\"the thread is muted\" when=delivery' '$tmp/err'"
check "... the next 5 go to frank alone, without the list (opted out to private since they were queued; the 9 still held are made private too)" \
	"[ \$(outbox) -eq $((n0 + 5)) ] && [ -z \"\$(mailinfo f7@frank Cc)\" ] && mailinfo f7@frank To | grep -q frank@ &&
	 [ \"\$(sql \"SELECT count(*) FROM replies WHERE to_addr='frank@example.com' AND kind='review' AND state=1 AND rcpt='frank@example.com' AND list IS NULL\")\" = 5 ] &&
	 [ \$(grep -c 'event=made-private' '$tmp/err') -eq 14 ] || { frank_replies; false; }"
command "out@frank" frank@example.com "optout"
run
confirm "outc@frank" frank@example.com "out@frank"
run
later
n0=$(outbox)
run
check "frank opts out: his 9 reviews still held are recorded as suppressed, none sent" \
	"[ \$(outbox) -eq $n0 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM replies WHERE to_addr='frank@example.com' AND kind='review' AND state=3 AND reason='the author opted out of reviews'\")\" = 9 ] &&
	 [ \"\$(sql \"SELECT count(*) FROM replies WHERE state = 0\")\" = 0 ] || { frank_replies; false; }"

# ---- admin commands -----------------------------------------------------------
"$rb" optout --config "$tmp/rb.conf" Gina@Example.com --mode private >"$tmp/out" 2>&1; st=$?
check "admin optout --mode private" \
	"[ $st -eq 0 ] && [ \"\$(sql \"SELECT mode FROM optouts WHERE addr='gina@example.com'\")\" = 1 ]"
"$rb" optin --database "$db" gina@example.com >"$tmp/out" 2>&1; st=$?
check "admin optin (no token needed)" \
	"[ $st -eq 0 ] && [ \"\$(sql \"SELECT count(*) FROM optouts WHERE addr='gina@example.com'\")\" = 0 ]"
"$rb" optout --config "$tmp/rb.conf" 'not an address' >"$tmp/out" 2>&1; st=$?
check "admin optout refuses a non-address" "[ $st -eq 2 ] && grep -q 'not a mail address' '$tmp/out'"
"$rb" optout --config "$tmp/rb.conf" frank@example.com --forget >"$tmp/out" 2>&1; st=$?
check "admin optout --forget prints what it deleted" \
	"[ $st -eq 0 ] && grep -q 'forgot frank@example.com: 26 messages, 20 series, 20 patches, [0-9]* findings, 20 reviews, 26 replies' '$tmp/out' || { cat '$tmp/out'; false; }"
check "... and nothing of frank is left but the opt-out" \
	"[ \"\$(sql \"SELECT (SELECT count(*) FROM messages WHERE from_addr='frank@example.com') + (SELECT count(*) FROM series WHERE author_addr='frank@example.com') + (SELECT count(*) FROM replies WHERE to_addr='frank@example.com')\")\" = 0 ] &&
	 [ \"\$(sql \"SELECT mode FROM optouts WHERE addr='frank@example.com'\")\" = 0 ] &&
	 [ \"\$(sql 'PRAGMA foreign_key_check' | wc -l)\" = 0 ]"
"$rb" query --config "$tmp/rb.conf" --author frank --patches --json >"$tmp/q" 2>/dev/null
check "... query finds nothing of frank" "[ ! -s '$tmp/q' ]"
run; st=$?
check "the bot runs on after a forget" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"

echo "optout: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
