#!/bin/bash
# False-positive feedback by mail: an answer to a review recorded and
# acknowledged once, a duplicate not answered again, a type or number the
# review lacks refused with why, spoofed and program mail treated as the
# other commands are, the answers' hourly cap, the maintainers' word
# demoting a type on their list only, and query --feedback and status.
# The bot on local maildirs, dry run, replies written to an outbox.
# Issue 33: a maintainer's word counts only when its DKIM signature
# verifies (the test's mails are signed by dkimpy, tests/data/dkim/,
# and verified by libopendkim with a key table instead of DNS), only on
# a review mailed to the list, a command dated outside the window is
# refused, the review's Message-ID cannot be worked out from the patch's,
# and only a verified or confirmed sender is answered.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

BOT=reviewbot@example.org
LEDS=linux-leds@vger.kernel.org
NET=netdev@vger.kernel.org
db=$tmp/db/reviewbot.db
for d in leds net; do mkdir -p "$tmp/$d/new" "$tmp/$d/cur" "$tmp/$d/tmp"; done
mkdir -p "$tmp/db"
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $db
	templates = $repo/templates
	dry_run = true
	dkim_keys = $tmp/dkim-keys
[source "leds"]
	type = maildir
	path = $tmp/leds
	list = $LEDS
	maintainers = pavel@example.org, Lee@Example.org
[source "net"]
	type = maildir
	path = $tmp/net
	list = $NET
	maintainers = davem@example.org
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	max_age = 315360000	# ten years: the mail carries fixed dates (2026)
	series_wait = 600
	max_replies_per_hour = 1000
	author_replies_per_hour = 1000
	list_replies_per_hour = 1000
	confirmations_per_hour = 3
	max_confirmations_per_hour = 1000
	demote_after = 2
EOF

# the test key signs for example.org and example.com
cp "$repo/tests/data/dkim/keys" "$tmp/dkim-keys"
sed 's/^test\._domainkey\.example\.org /test._domainkey.example.com /' "$repo/tests/data/dkim/keys" >>"$tmp/dkim-keys"
sign() { /usr/bin/python3 "$repo/tests/data/dkim/sign.py" "$1"; }

n_mail=0
# mail DIR NAME: stdin becomes a new mail of that source's maildir
mail() {
	n_mail=$((n_mail + 1))
	cat >"$tmp/$1/new/$(printf '%04d' $n_mail).$2"
}

# patch DIR LIST MSGID FROM SUBJECT: a patch with an unchecked
# copy_from_user() (security), trailing white space (a style ERROR) and
# a long line (a nit), as LIST delivers it
patch() {
	mail "$1" "$3" <<EOF
List-Id: <${2/@/.}>
From: ${4%%@*} <$4>
To: $2
Subject: [PATCH] $5
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$3>

Read the request from user space.

Signed-off-by: ${4%%@*} <$4>
---
diff --git a/drivers/x/x-${3%%@*}.c b/drivers/x/x-${3%%@*}.c
index 1111111..2222222 100644
--- a/drivers/x/x-${3%%@*}.c
+++ b/drivers/x/x-${3%%@*}.c
@@ -1,3 +1,9 @@
 int a;
 int b;
+static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
+{
+	copy_from_user(&req, (void __user *)arg, sizeof(req));
+	cmd = cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd + cmd;
+	return 0; 
+}
 int d;
EOF
}

# answer MSGID FROM IRT BODY [extra headers]: a reply to mail IRT, To the
# bot and the list, signed with DKIM by its From: domain unless
# UNSIGNED=1 (a forger has no key of the domain); DATE= sets its Date:
answer() {
	local text
	text="From: ${2%%@*} <$2>
To: $BOT, $LEDS
Subject: Re: [PATCH] leds: x
Date: ${DATE:-Mon, 02 Nov 2026 11:00:00 +0000}
Message-ID: <$1>
In-Reply-To: <$3>
References: <$3>
${5:-}

$4"
	if [ -n "${UNSIGNED:-}" ]; then
		printf '%s\n' "$text" | mail leds "$1"
	else
		printf '%s\n' "$text" | sign "${2#*@}" | mail leds "$1"
	fi
}

run() { "$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; }
outbox() { ls "$tmp/outbox/new" 2>/dev/null | wc -l; }
sql() {
	/usr/bin/python3 - "$db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
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
# review MSGID: the Message-ID (without <>) of the review of patch MSGID
review() { local r; r=$(mailinfo "$1" Message-ID); r=${r#<}; echo "${r%>}"; }
state() { sql "SELECT state || '|' || reason FROM messages WHERE message_id = '$1'"; }
fb() { sql "SELECT count(*) FROM feedback $1"; }

# ---- a review numbers its findings -------------------------------------------
patch leds $LEDS p1@jane jane@example.com "leds: x: one"
run; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"
r1=$(review p1@jane)
check "the review numbers its listed findings, says how to dispute one" \
	"mailinfo p1@jane body | grep -q '^  #1 drivers/x/x-p1.c:5: WARNING: copy_from_user' &&
	 mailinfo p1@jane body | grep -q '^  #2 drivers/x/x-p1.c:7: ERROR: trailing whitespace' &&
	 mailinfo p1@jane body | grep -q '^  LONG_LINE  1  at drivers/x/x-p1.c:6' &&
	 mailinfo p1@jane body | grep -q 'false-positive TYPE\" or \"false-positive #N\"'"
check "... and the store keeps what it covers: 2 numbered, the nit as 0" \
	"[ \"\$(sql \"SELECT f.type || '=' || rf.num FROM reply_findings rf JOIN findings f ON f.id = rf.finding_id JOIN replies r ON r.id = rf.reply_id WHERE r.message_id = '$r1' ORDER BY rf.num\" | tr '\n' ' ')\" = 'LONG_LINE=0 USER_COPY_UNCHECKED=1 TRAILING_WHITESPACE=2 ' ]"

# ---- recorded and acknowledged once ----------------------------------------
n0=$(outbox)
answer f1@anne anne@example.com "$r1" "On Mon, reviewbot wrote:
> #1 drivers/x/x-p1.c:5: WARNING: copy_from_user() returns ...
false-positive #1: the caller checks the size; it's fine

Anne"
run
check "false-positive #1 by anyone: recorded with its reason, answered once to the sender" \
	"[ \$(outbox) -eq $((n0 + 1)) ] &&
	 [ \"\$(sql \"SELECT f.type, fb.addr, fb.maintainer, fb.reason FROM feedback fb JOIN findings f ON f.id = fb.finding_id\")\" = \"USER_COPY_UNCHECKED|anne@example.com|0|the caller checks the size; it's fine\" ] &&
	 [ \"\$(state f1@anne)\" = '4|false-positive' ] &&
	 [ \"\$(mailinfo f1@anne To)\" = 'anne <anne@example.com>' ] && [ -z \"\$(mailinfo f1@anne Cc)\" ] &&
	 [ \"\$(mailinfo f1@anne Auto-Submitted)\" = auto-replied ] &&
	 mailinfo f1@anne body | grep -q 'received \"false-positive #1\" from anne@example.com' &&
	 mailinfo f1@anne body | tr '\n' ' ' | grep -q 'Recorded: finding #1 of the review (USER_COPY_UNCHECKED) is disputed by  *anne@example.com, with the reason given'"
answer f2@anne anne@example.com "$r1" "False-Positive user_copy_unchecked."
run
check "the same dispute again (by type this time): recorded as a duplicate, not answered" \
	"[ \$(outbox) -eq $((n0 + 1)) ] && [ \$(fb '') -eq 1 ] &&
	 [ \"\$(state f2@anne)\" = '4|false-positive: duplicate' ]"

# ---- refused, with why ------------------------------------------------------
answer f1@bob bob@example.com "$r1" "false-positive SPACING"
answer f2@bob bob@example.com "$r1" "false-positive #7"
answer f3@bob bob@example.com "$r1" "false-positive"
sign example.com <<EOF | mail leds f4@dora
From: dora <dora@example.com>
To: $BOT
Subject: about your reviews
Date: Mon, 02 Nov 2026 11:00:00 +0000
Message-ID: <f4@dora>

false-positive LONG_LINE
EOF
# bob's 4th command in the hour, a good one
answer f5@bob bob@example.com "$r1" "false-positive trailing_whitespace"
n0=$(outbox)
run
check "a type the review lacks: nothing recorded, an answer naming its types" \
	"[ \$(fb \"WHERE addr = 'bob@example.com' AND finding_id IN (SELECT id FROM findings WHERE type <> 'TRAILING_WHITESPACE')\") -eq 0 ] &&
	 [ \"\$(state f1@bob)\" = '4|false-positive refused: no such type in the review' ] &&
	 mailinfo f1@bob body | tr '\n' ' ' | grep -q 'no finding of type SPACING. Its types are LONG_LINE, TRAILING_WHITESPACE and  *USER_COPY_UNCHECKED'"
check "a number the review does not show, no target, no review answered: refused with why" \
	"mailinfo f2@bob body | tr '\n' ' ' | grep -q 'shows no finding #7; it numbers its findings #1 to #2' &&
	 mailinfo f3@bob body | grep -q 'say which finding' &&
	 mailinfo f4@dora body | grep -q 'answers no review' &&
	 [ \"\$(state f4@dora)\" = '4|false-positive refused: it answers no review' ]"
check "bob's 4th command in the hour: carried out, its answer recorded, not sent (confirmations_per_hour = 3)" \
	"[ \$(outbox) -eq $((n0 + 4)) ] && [ -z \"\$(mailinfo f5@bob To)\" ] &&
	 [ \$(fb \"WHERE addr = 'bob@example.com'\") -eq 1 ] &&
	 [ \"\$(sql \"SELECT state, count(*) FROM replies WHERE kind = 'confirm' AND to_addr = 'bob@example.com' GROUP BY state ORDER BY state\" | tr '\n' ' ')\" = '1|3 3|1 ' ] &&
	 [ \"\$(sql \"SELECT reason FROM replies WHERE kind = 'confirm' AND to_addr = 'bob@example.com' AND state = 3\")\" = 'confirmations_per_hour reached for this address' ]"

# ---- spoofing, programs ---------------------------------------------------------
# the review's Message-ID is no fixed hash of the patch's (FNV-1a of
# "p1@jane", a NUL and "v1.0", as the bot made it before issue 33):
# nobody can answer a review before it is mailed
fnv=$(/usr/bin/python3 -c '
h = 0xcbf29ce484222325
for b in b"p1@jane\0v1.0":
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("reviewbot-%016x@example.org" % h)')
check "the review's Message-ID cannot be worked out from the patch's" \
	"[ -n '$r1' ] && [ '$r1' != '$fnv' ] && [[ '$r1' =~ ^reviewbot-[0-9a-f]{16}@example.org\$ ]]"
# mallory writes as pavel, a maintainer of the list, without pavel's
# DKIM signature: an ordinary sender's dispute in pavel's name, not a
# maintainer's, and not answered (the bot mails no one on From: alone)
n0=$(outbox)
UNSIGNED=1 answer f1@mal pavel@example.org "$r1" "false-positive USER_COPY_UNCHECKED" "Reply-To: mallory@example.net
Sender: mallory@example.net"
# a program's mail is never a command
answer f2@mal mallory@example.net "$r1" "false-positive #2" "Auto-Submitted: auto-replied"
run
check "a forged maintainer's From: (no valid DKIM signature): no maintainer's word, no answer" \
	"[ \"\$(sql \"SELECT addr, maintainer FROM feedback WHERE msg_id = (SELECT id FROM messages WHERE message_id = 'f1@mal')\")\" = 'pavel@example.org|0' ] &&
	 [ \$(outbox) -eq $n0 ] &&
	 grep -q 'event=command msgid=f1@mal .*sender=\"neither verified nor confirmed\".*as_maintainer_refused=\"not verified (DKIM)\"' '$tmp/err'"
check "auto-generated feedback: nothing recorded, no answer" \
	"[ \$(outbox) -eq $n0 ] && [ \$(fb \"WHERE addr = 'mallory@example.net'\") -eq 0 ] &&
	 [ \"\$(sql \"SELECT state FROM messages WHERE message_id = 'f2@mal'\")\" = 5 ]"
# pavel himself, signed: his word, though mallory wrote in his name first
answer f1@pavel pavel@example.org "$r1" "false-positive USER_COPY_UNCHECKED"
run
check "the maintainer's own signed dispute counts (the forged one before it made no duplicate of it); answered to him alone" \
	"[ \"\$(sql \"SELECT addr, maintainer FROM feedback WHERE msg_id = (SELECT id FROM messages WHERE message_id = 'f1@pavel')\")\" = 'pavel@example.org|1' ] &&
	 [ \$(outbox) -eq $((n0 + 1)) ] &&
	 [ \"\$(mailinfo f1@pavel To)\" = 'pavel <pavel@example.org>' ] && [ -z \"\$(mailinfo f1@pavel Cc)\" ] &&
	 [ \"\$(mailinfo f1@pavel Subject)\" = 'Re: [reviewbot] false-positive USER_COPY_UNCHECKED' ] &&
	 mailinfo f1@pavel body | tr '\n' ' ' | grep -q 'If you did not send this, tell the  *bot.s operator'"
check "... a maintainer is told how far the type is from demotion (1 of 2)" \
	"mailinfo f1@pavel body | tr '\n' ' ' | grep -q 'As a maintainer of  *$LEDS, your word counts: its  *maintainers disputed USER_COPY_UNCHECKED in 1 of the 2 reviews'"

# ---- the attack of issue 33: patches mailed to the bot alone, disputes -----
# three patches to the bot alone (into the list's mailbox): their reviews
# go to the author only; disputes of them, backdated or in the future,
# forged or signed, never count as the maintainers'
for i in 1 2 3; do
	mail leds "q$i@jane" <<EOF
From: jane <jane@example.com>
To: $BOT
Subject: [PATCH] leds: x: private $i
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <q$i@jane>

Read the request from user space.

Signed-off-by: jane <jane@example.com>
---
diff --git a/drivers/x/x-q$i.c b/drivers/x/x-q$i.c
index 1111111..2222222 100644
--- a/drivers/x/x-q$i.c
+++ b/drivers/x/x-q$i.c
@@ -1,2 +1,4 @@
 int a;
+static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
+{ copy_from_user(&req, (void __user *)arg, sizeof(req)); return 0; }
 int d;
EOF
done
run
check "patches mailed to the bot alone: reviewed to the author only" \
	"[ -n \"\$(review q1@jane)\" ] && [ -z \"\$(mailinfo q1@jane Cc)\" ] &&
	 [ -z \"\$(sql \"SELECT list FROM replies WHERE message_id = '\$(review q1@jane)'\")\" ]"
n0=$(outbox)
DATE="Mon, 01 Jan 2001 10:00:00 +0000" answer d1@pavel pavel@example.org "$(review q1@jane)" "false-positive USER_COPY_UNCHECKED"
DATE="Mon, 01 Jan 2001 10:00:00 +0000" UNSIGNED=1 answer d2@mal pavel@example.org "$(review q2@jane)" "false-positive USER_COPY_UNCHECKED"
DATE="Fri, 01 Jan 2099 10:00:00 +0000" UNSIGNED=1 answer d3@mal pavel@example.org "$(review q3@jane)" "false-positive USER_COPY_UNCHECKED"
run
check "disputes dated before max_age or in the future: refused, nothing recorded, logged" \
	"[ \$(fb \"WHERE msg_id IN (SELECT id FROM messages WHERE message_id IN ('d1@pavel', 'd2@mal', 'd3@mal'))\") -eq 0 ] &&
	 [ \"\$(state d1@pavel)\" = '4|false-positive refused: its Date: is older than [policy] max_age' ] &&
	 [ \"\$(state d3@mal)\" = '4|false-positive refused: its Date: is in the future ([policy] max_clock_skew)' ] &&
	 [ \$(grep -c 'event=command-refused' '$tmp/err') -eq 3 ]"
check "... answered with why to the verified maintainer only, never to a forged From:" \
	"[ \$(outbox) -eq $((n0 + 1)) ] && mailinfo d1@pavel body | tr '\n' ' ' | grep -q 'Nothing was done: its Date: is older than' &&
	 [ -z \"\$(mailinfo d2@mal To)\" ] && [ -z \"\$(mailinfo d3@mal To)\" ]"
for i in 1 2 3; do answer "e$i@pavel" pavel@example.org "$(review q$i@jane)" "false-positive USER_COPY_UNCHECKED"; done
run
check "the maintainer's signed disputes of reviews not mailed to the list: recorded, not as the maintainer's" \
	"[ \"\$(sql \"SELECT count(*), sum(maintainer) FROM feedback WHERE msg_id IN (SELECT id FROM messages WHERE message_id LIKE 'e_@pavel')\")\" = '3|0' ] &&
	 [ \$(grep -c 'as_maintainer_refused=\"the review was not mailed to the list\"' '$tmp/err') -eq 3 ]"
"$rb" status --config "$tmp/rb.conf" >"$tmp/s" 2>&1
# refused: these 3, and the 4 false-positive answers refused above
check "status counts the refused commands" "grep -q '^commands: 0 pending confirmation, 7 refused$' '$tmp/s' || { cat '$tmp/s'; false; }"

# ---- the maintainers' word demotes a type on their list only ---------------------
# one maintainer review so far: the next review on the list still has it
patch leds $LEDS p2@jane jane@example.com "leds: x: two"
run
r2=$(review p2@jane)
check "after the maintainers' word in 1 review (demote_after = 2): still a security concern" \
	"mailinfo p2@jane body | grep -q '^  security:              concern (1 finding below)' &&
	 mailinfo p2@jane body | grep -q '^  #1 drivers/x/x-p2.c:5: WARNING: copy_from_user'"
# non-maintainers' word does not count
answer f3@anne anne@example.com "$r2" "false-positive USER_COPY_UNCHECKED"
answer f4@carl carl@example.com "$r2" "false-positive USER_COPY_UNCHECKED"
patch leds $LEDS p3@jane jane@example.com "leds: x: three"
run
check "others' word in a 2nd review does not demote it" \
	"mailinfo p3@jane body | grep -q '^  security:              concern (1 finding below)'"
# lee (a maintainer, any case in the configuration) in the 2nd review
answer f1@lee lee@example.org "$r2" "false-positive #1 checked by the caller"
run
check "the 2nd maintainers' review: lee is told the type is now counted with the nits" \
	"mailinfo f1@lee body | tr '\n' ' ' | grep -q 'USER_COPY_UNCHECKED is now counted with the nits in the reviews of  *$LEDS: its maintainers disputed it in 2 reviews'"
patch leds $LEDS p4@jane jane@example.com "leds: x: four"
patch net $NET p5@jane jane@example.com "net: x: five"
run
# what is left is style: the review is stored, not mailed (issue 32)
stored() { sql "SELECT body FROM replies WHERE body LIKE '%In-Reply-To: <$1>%'"; }
check "demoted on the list: no concern, counted with the nits, said in the footer; style alone: not mailed" \
	"[ -z \"\$(mailinfo p4@jane body)\" ] &&
	 [ \"\$(sql \"SELECT state || '|' || reason FROM replies WHERE body LIKE '%In-Reply-To: <p4@jane>%'\")\" = '3|nothing in Security, User-space interface, Correctness or Process ([source] review_clean is off)' ] &&
	 stored p4@jane | grep -q '^  security:              no finding in the patch text (not built)' &&
	 ! stored p4@jane | grep -q '(USER_COPY_UNCHECKED)' &&
	 stored p4@jane | grep -q '^  USER_COPY_UNCHECKED  1  at drivers/x/x-p4.c:5' &&
	 stored p4@jane | grep -q '^  #1 drivers/x/x-p4.c:7: ERROR: trailing whitespace' &&
	 stored p4@jane | tr '\n' ' ' | grep -q 'Counted with the nits on this list, as its maintainers answered \"false-positive\" to them: USER_COPY_UNCHECKED\\.'"
check "another list is unaffected" \
	"mailinfo p5@jane body | grep -q '^  security:              concern (1 finding below)' &&
	 mailinfo p5@jane body | grep -q '(USER_COPY_UNCHECKED)' &&
	 ! mailinfo p5@jane body | grep -q 'Counted with the nits on this list'"

# ---- query --feedback and status ----------------------------------------------
"$rb" query --config "$tmp/rb.conf" --feedback >"$tmp/q" 2>&1; st=$?
check "query --feedback: per type findings, disputed, by maintainers, demoted lists" \
	"[ $st -eq 0 ] && grep -q '^TYPE  *FINDINGS  DISPUTED  BY MAINTAINERS  DEMOTED ON$' '$tmp/q' &&
	 grep -q '^USER_COPY_UNCHECKED  *8  *5  *2  $LEDS$' '$tmp/q' &&
	 grep -q '^TRAILING_WHITESPACE  *5  *1  *0  -$' '$tmp/q' &&
	 grep -q '^LONG_LINE  *5  *0  *0  -$' '$tmp/q' || { cat '$tmp/q'; false; }"
"$rb" query --config "$tmp/rb.conf" --feedback --list $NET --json >"$tmp/q" 2>&1; st=$?
check "query --feedback --list --json: the other list's figures" \
	"[ $st -eq 0 ] && grep -q '^{\"type\":\"USER_COPY_UNCHECKED\",\"findings\":1,\"disputed\":0,\"by_maintainers\":0,\"reviews_by_maintainers\":0,\"demoted\":\[\]}$' '$tmp/q' || { cat '$tmp/q'; false; }"
"$rb" query --config "$tmp/rb.conf" --feedback --type user_copy_unchecked --json >"$tmp/q" 2>&1
check "query --feedback --type (any case) --json" \
	"[ \$(wc -l <'$tmp/q') -eq 1 ] && grep -q '\"disputed\":5,\"by_maintainers\":2,\"reviews_by_maintainers\":2,\"demoted\":\[\"$LEDS\"\]' '$tmp/q' || { cat '$tmp/q'; false; }"
"$rb" query --config "$tmp/rb.conf" --feedback --patches >"$tmp/q" 2>&1; st=$?
check "query --feedback --patches: refused" "[ $st -eq 2 ]"
"$rb" query --database "$db" --feedback >"$tmp/q" 2>&1; st=$?
check "query --feedback --database alone: the same counts, no list demoted (no configuration names maintainers)" \
	"[ $st -eq 0 ] && grep -q '^USER_COPY_UNCHECKED  *8  *5  *[0-9]*  -$' '$tmp/q' &&
	 grep -q '^LONG_LINE  *5  *0  *0  -$' '$tmp/q' || { cat '$tmp/q'; false; }"
"$rb" status --config "$tmp/rb.conf" >"$tmp/s" 2>&1; st=$?
check "status: the disputes and a line per disputed type" \
	"[ $st -eq 0 ] && grep -q '^false-positive disputes: 9 (2 types disputed)$' '$tmp/s' &&
	 grep -A2 '^false-positive' '$tmp/s' | sed -n 2p | grep -q '^  USER_COPY_UNCHECKED: 5 of 8 findings disputed, 2 by maintainers; demoted on $LEDS$' &&
	 grep -q '^  TRAILING_WHITESPACE: 1 of 5 findings disputed, 0 by maintainers$' '$tmp/s' || { cat '$tmp/s'; false; }"
"$rb" status --config "$tmp/rb.conf" --json >"$tmp/s" 2>&1
check "status --json: the same figures" \
	"python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[\"feedback\"]; assert d[\"disputes\"] == 9, d; t=d[\"types\"][0]; assert (t[\"type\"], t[\"findings\"], t[\"disputed\"], t[\"by_maintainers\"], t[\"demoted_on\"]) == (\"USER_COPY_UNCHECKED\", 8, 5, 2, \"$LEDS\"), t' '$tmp/s'"

# ---- the store stays whole ------------------------------------------------------
check "no dangling rows" "[ \"\$(sql 'PRAGMA foreign_key_check' | wc -l)\" = 0 ]"
"$rb" optout --config "$tmp/rb.conf" pavel@example.org --forget >"$tmp/out" 2>&1
"$rb" query --config "$tmp/rb.conf" --feedback --type USER_COPY_UNCHECKED --json >"$tmp/q" 2>&1
check "forgetting a maintainer takes their disputes, and the demotion with them" \
	"[ \$(fb \"WHERE addr = 'pavel@example.org'\") -eq 0 ] && grep -q '\"demoted\":\[\]' '$tmp/q' || { cat '$tmp/q'; false; }"

echo "feedback: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
