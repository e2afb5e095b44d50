#!/bin/bash
# The review mail end to end: what it says and whether it is mailed,
# on real list mail (the project's corpus) and on mail shaped as the
# stable maintainers' and b4's web relay's really are.
#  - a review with nothing in Security, User-space interface,
#    Correctness or Process is stored and shown, not mailed (and why),
#    unless the source asks for it; a v2 with findings after a v1 not
#    mailed still says "Since v1" (issue 32 item 4);
#  - stable backports (AUTOSEL, 6.6.y, "5.15 12/34", the upstream-commit
#    line) are stored and shown, not mailed; with review_backports on,
#    mailed, never blaming the upstream-commit line (issue 35 item 1);
#  - a patch through b4's web relay is its author's everywhere: To:,
#    query, mute, opt-out, the web page; the devnull is never mailed; the
#    corpus's five real relay mails each answered to their author
#    (issue 32 item 6);
#  - one problem, one entry: a sign-off without angle brackets and a
#    badly indented function each said once, "false-positive #N"
#    disputing every finding of the entry (issue 35 item 2);
#  - every line of every review of the corpus (patches/ and security/,
#    587 mails) fits 72 columns but quoted code (issue 35 item 7).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
corpus=${CORPUS:-$repo/../shared/corpus}
# a worktree of the project sits one folder deeper
[ -d "$corpus/patches" ] || corpus=$repo/../../shared/corpus
pass=0
fail=0
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
[ -z "${KEEP:-}" ] || echo "# kept: $tmp"
export HOME=$tmp LC_ALL=C.UTF-8
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

if [ ! -d "$corpus/patches" ]; then
	echo "review: no corpus at $corpus (set CORPUS)" >&2
	exit 1
fi
P=$corpus/patches
AUTOSEL=$P/ml-staging-0030-staging-rtl8188eu-fix-possible-null-dereference.patch
LEDS_CLEAN=$P/ml-leds-0006-leds-lm3692x-Don-t-overwrite-return-value-in-error-p.patch
LEDS_NITS=$P/ml-leds-0045-leds-rgb-leds-qcom-lpg-Include-support-for-PPG-with.patch
LEDS_OTHER=$P/ml-leds-0003-leds-lm36274-Switch-to-use-fwnode-property-count-uXX.patch
for f in "$AUTOSEL" "$LEDS_CLEAN" "$LEDS_NITS" "$LEDS_OTHER"; do
	[ -f "$f" ] || { echo "review: $f missing from the corpus" >&2; exit 1; }
done

BOT=reviewbot@example.org
LIST=linux-leds@vger.kernel.org
db=$tmp/db/reviewbot.db
mkdir -p "$tmp/db"
for b in leds open; do mkdir -p "$tmp/$b/new" "$tmp/$b/cur" "$tmp/$b/tmp"; done
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $tmp/leds
	list = $LIST
[source "open"]
	type = maildir
	path = $tmp/open
	list = stable@vger.kernel.org
	review_clean = true
	review_backports = true
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	max_age = 0	# the corpus's mail is years old
	series_wait = 0
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF

n_mail=0
# remail BOX SRC MSGID [python statements on m, the email.message]: a
# corpus mail, its Message-ID set (and what the statements change), as
# a new mail of maildir BOX
# (it is the list's copy: it carries the box's list's List-Id, RFC 2919)
remail() {
	local lid
	n_mail=$((n_mail + 1))
	case $1 in
	leds) lid=$LIST ;;
	*) lid=stable@vger.kernel.org ;;
	esac
	/usr/bin/python3 - "$2" "$3" "$tmp/$1/new/$(printf '%04d' $n_mail).$3" "${4:-}" "${lid/@/.}" <<'PY'
import email, email.policy, sys
src, msgid, out, code, lid = sys.argv[1:6]
m = email.message_from_bytes(open(src, 'rb').read(), policy=email.policy.compat32)
del m['Message-ID']
del m['Message-Id']
m['Message-ID'] = '<%s>' % msgid
del m['List-Id']
m['List-Id'] = '<%s>' % lid
def body(f):
    m.set_payload(f(m.get_payload(decode=True).decode('utf-8', 'replace')), 'utf-8')
def header(name, value):
    del m[name]
    if value is not None:
        m[name] = value
exec(code)
open(out, 'wb').write(m.as_bytes())
PY
}
run() { "$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; }
sql() {
	/usr/bin/python3 - "$db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
try:
    for r in c.execute(sys.argv[2]):
        print('|'.join('' if v is None else str(v) for v in r))
except BrokenPipeError:
    pass
c.commit()
PY
}
# reply MSGID: "state|reason" of the review of the series holding MSGID
reply() {
	sql "SELECT r.state || '|' || coalesce(r.reason, '') FROM replies r JOIN messages m
	     ON m.series_id = r.series_id WHERE m.message_id = '$1' AND r.kind = 'review'"
}
# body MSGID: the review's text (stored, mailed or not)
body() {
	sql "SELECT r.body FROM replies r JOIN messages m ON m.series_id = r.series_id
	     WHERE m.message_id = '$1' AND r.kind = 'review'"
}
# mailed IRT FIELD: a header (or "body") of the outbox mail answering IRT
mailed() {
	/usr/bin/python3 - "$tmp/outbox" "$1" "$2" <<'PY'
import email, email.policy, mailbox, os, sys
if not os.path.isdir(sys.argv[1]):
    sys.exit(0)
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
flat() { tr '\n' ' ' | sed 's/  */ /g'; }
# page MSGID: the web page of MSGID into $tmp/page; its HTTP status
page() {
	local port st
	# emptied first: serve_port must not read the port of the server
	# before, which the new one's redirection empties only once it runs
	: >"$tmp/serve.log"
	"$rb" serve --config "$tmp/rb.conf" --listen 127.0.0.1:0 >"$tmp/serve.log" 2>&1 &
	serve_pid=$!
	port=$(serve_port "$tmp/serve.log")
	st=$(curl -s -o "$tmp/page" -w '%{http_code}' "http://127.0.0.1:$port/m/$1/")
	kill "$serve_pid" 2>/dev/null
	wait "$serve_pid" 2>/dev/null
	echo "$st"
}
. "$repo/tests/lib.sh"
QUIET='nothing in Security, User-space interface, Correctness or Process ([source] review_clean is off)'
BACKPORT='a stable backport, merged upstream already ([source] review_backports is off)'
SHA=5e56bc06e18dfc8a66180fa369384b36e2ab621a

# ---- stable backports --------------------------------------------------------
# Sasha Levin's AUTOSEL mail as driverdev-devel carried it ("[PATCH AUTOSEL
# 4.9 07/91]", "[ Upstream commit ... ]"); a leds patch as Greg's 6.6.y
# backports are ("commit SHA upstream." first); one as "[PATCH 5.15 12/34]"
remail leds "$AUTOSEL" autosel@x "header('To', '$LIST')"
remail leds "$LEDS_CLEAN" y66@x "header('Subject', '[PATCH 6.6.y] leds: lm3692x: Don\\'t overwrite return value in error path')
header('In-Reply-To', None); header('References', None)
body(lambda b: 'commit $SHA upstream.\n\n' + b)"
remail leds "$LEDS_OTHER" b515@x "header('Subject', '[PATCH 5.15 12/34] leds: lm36274: Switch to use fwnode_property_count_uXX()')
header('In-Reply-To', None); header('References', None)"
run; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"
for id in autosel@x y66@x b515@x; do
	check "backport <$id>: reviewed and stored, not mailed, and why" \
		"[ \"\$(reply $id)\" = '3|$BACKPORT' ] && [ -z \"\$(mailed $id From)\" ] &&
		 body $id | grep -q '^Merge readiness'"
done
check "... the log says which tag made it one" \
	"grep -q 'event=review msgid=autosel@x .*backport=AUTOSEL' '$tmp/err' &&
	 grep -q 'event=review msgid=y66@x .*backport=6.6.y' '$tmp/err' &&
	 grep -q 'event=review msgid=b515@x .*backport=5.15' '$tmp/err'"
check "... the upstream-commit line is never blamed: no GIT_COMMIT_ID stored or said" \
	"[ \"\$(sql \"SELECT count(*) FROM findings WHERE type = 'GIT_COMMIT_ID'\")\" = 0 ] &&
	 ! body autosel@x | grep -q GIT_COMMIT_ID && ! body y66@x | grep -q GIT_COMMIT_ID"
"$rb" status --config "$tmp/rb.conf" >"$tmp/st" 2>&1
check "... status counts them" "grep -q '3 stable backports: \\[source\\] review_backports' '$tmp/st'"
"$rb" query --config "$tmp/rb.conf" --review autosel@x >"$tmp/q" 2>"$tmp/qerr"
check "... query --review shows it, not mailed, and why" \
	"grep -q 'suppressed: a stable backport' '$tmp/qerr' && grep -q '^Merge readiness' '$tmp/q'"
# the same mail where the list asks for backports' reviews
remail open "$AUTOSEL" autosel-open@x "header('To', 'stable@vger.kernel.org')"
run
check "review_backports = true: the backport's review is mailed, without GIT_COMMIT_ID" \
	"mailed autosel-open@x body | grep -q '^Merge readiness' &&
	 ! mailed autosel-open@x body | grep -q 'GIT_COMMIT_ID' &&
	 ! mailed autosel-open@x body | grep -qi 'upstream commit'"

# ---- no mail with nothing to say ---------------------------------------------
# v7 6/7 of a leds series with two long lines and nothing else
remail leds "$LEDS_NITS" nits7@x "header('In-Reply-To', None); header('References', None)"
run
check "style nits alone: reviewed and stored, not mailed, and why" \
	"[ \"\$(reply nits7@x)\" = '3|$QUIET' ] && [ -z \"\$(mailed nits7@x From)\" ] &&
	 body nits7@x | grep -q '^Style nits: 2 '"
check "... the log says it was not mailed and why" \
	"grep -q 'event=review msgid=nits7@x .*suppressed=\"nothing in Security' '$tmp/err'"
st=$(page nits7@x)
check "... the web page shows it, not sent, and why" \
	"[ '$st' = 200 ] && grep -q 'Not sent (suppressed): nothing in Security, User-space interface' '$tmp/page' &&
	 grep -q 'Style nits: 2 ' '$tmp/page'"
# v8: its sign-off dropped, something to say; compared with v7 all the same
remail leds "$LEDS_NITS" nits8@x "header('Subject', '[PATCH v8 6/7] leds: rgb: leds-qcom-lpg: Include support for PPG with dedicated LUT SDAM')
header('In-Reply-To', '<nits7@x>'); header('References', '<nits7@x>')
body(lambda b: '\n'.join(l for l in b.split('\n') if not l.startswith(('Signed-off-by:', 'Co-developed-by:'))))"
run
check "a v8 with a finding after a v7 not mailed: mailed, saying what is new since v7" \
	"mailed nits8@x body | grep -q '^Since v7: 0 fixed, 1 new, 2 still there\\.' &&
	 mailed nits8@x body | grep -q '(MISSING_SIGN_OFF)' &&
	 mailed nits8@x body | grep -q '^  process:               concern: the sign-off chain'"
# a clean patch where the list asks for every review: it says what was checked
remail open "$LEDS_CLEAN" clean-open@x "header('To', 'stable@vger.kernel.org')
header('In-Reply-To', None); header('References', None)"
remail leds "$LEDS_CLEAN" clean-leds@x "header('In-Reply-To', None); header('References', None)"
run
check "review_clean = true: a clean patch's review is mailed, saying what was checked" \
	"mailed clean-open@x body | flat | grep -q 'found nothing to report\\. What was checked:' &&
	 mailed clean-open@x body | grep -q '^  security:              no finding in the patch text (not built)' &&
	 mailed clean-open@x body | grep -q '^  compiles:              not checked (no tree)'"
check "... and without it, not mailed" "[ \"\$(reply clean-leds@x)\" = '3|$QUIET' ]"

# ---- b4's web relay ------------------------------------------------------------
# relay AUTHOR_NAME AUTHOR_ADDR MSGID [extra statements]: a corpus patch
# as b4's relay sends it (its From:, X-Original-From:, Reply-To:, the
# in-body From:), its sign-off removed so that its review has something
# to say
relay() {
	local enc
	enc=$(echo "$2" | tr '@' '.')
	remail leds "$LEDS_CLEAN" "$3" "header('From', '$1 via B4 Relay <devnull+$enc@kernel.org>')
header('X-Mailer', 'b4 0.14.2')
header('X-Endpoint-Received', 'by B4 Relay for $2/20240101 with auth_id=100')
header('X-Original-From', '$1 <$2>')
header('Reply-To', '$2')
header('In-Reply-To', None); header('References', None)
header('Subject', '[PATCH] leds: lm3692x: ' + '$3')
body(lambda b: 'From: $1 <$2>\n\n' + '\n'.join(l for l in b.split('\n') if not l.startswith('Signed-off-by:')))
${4:-}"
}
relay "Ana Lopes" ana.lopes@example.com relay1@x
run
check "relay: the review goes To: the author, never to the relay's devnull" \
	"[ \"\$(mailed relay1@x To)\" = 'Ana Lopes <ana.lopes@example.com>' ] &&
	 ! sql 'SELECT rcpt FROM replies' | grep -q devnull &&
	 ! grep -rq devnull '$tmp/outbox/new'"
check "... the author is the mail's author in the store" \
	"[ \"\$(sql \"SELECT from_addr || '|' || from_name FROM messages WHERE message_id = 'relay1@x'\")\" = 'ana.lopes@example.com|Ana Lopes' ]"
"$rb" query --config "$tmp/rb.conf" --author ana.lopes@example.com --patches --json >"$tmp/q" 2>&1
check "... query --author finds it under the author" "grep -q 'relay1@x' '$tmp/q'"
st=$(page relay1@x)
check "... the web page names the author, not the relay" \
	"[ '$st' = 200 ] && grep -q 'Ana Lopes' '$tmp/page' && grep -q 'ana.lopes@example.com' '$tmp/page' &&
	 ! grep -q 'devnull' '$tmp/page' && ! grep -q 'via B4 Relay' '$tmp/page'"
# the author mutes the thread of her next relay patch, answering it
relay "Ana Lopes" ana.lopes@example.com relay2@x
n_mail=$((n_mail + 1))
cat >"$tmp/leds/new/$(printf '%04d' $n_mail).mute" <<EOF
From: Ana Lopes <ana.lopes@example.com>
To: $BOT
Subject: Re: [PATCH] leds: lm3692x: relay2@x
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <mute-ana@x>
In-Reply-To: <relay2@x>
References: <relay2@x>

mute
EOF
run
# a mute takes effect once its address sends back the token it was mailed
# (issue 33): she does
token=$(mailed mute-ana@x body | sed -n 's/^    confirm \([0-9a-f]*\)$/\1/p')
n_mail=$((n_mail + 1))
cat >"$tmp/leds/new/$(printf '%04d' $n_mail).confirm" <<EOF
From: Ana Lopes <ana.lopes@example.com>
To: $BOT
Subject: Re: [reviewbot] please confirm: mute
Date: Mon, 02 Nov 2026 10:01:00 +0000
Message-ID: <mute-ana-confirm@x>

confirm $token
EOF
run
check "... her mute of her relay thread is hers: asked of her, confirmed by her" \
	"[ -n '$token' ] &&
	 [ \"\$(sql \"SELECT addr FROM mutes WHERE root = 'relay2@x'\")\" = ana.lopes@example.com ]"
# an opt-out of the author holds for what she sends through the relay
"$rb" optout --config "$tmp/rb.conf" ana.lopes@example.com >/dev/null 2>&1
relay "Ana Lopes" ana.lopes@example.com relay3@x
run
check "... her opt-out holds for her relay patches" \
	"[ \"\$(reply relay3@x)\" = '3|the author opted out of reviews' ]"
st=$(page relay1@x)
check "... and takes her relay mail off the web pages" "[ '$st' = 404 ]"
# X-Original-From and Reply-To naming another than the devnull encodes:
# forged, the devnull kept, never mailed
relay "Bea Bauer" bea@example.com relay4@x "header('X-Original-From', 'Victim <victim@example.org>')
header('Reply-To', 'victim@example.org')"
run
check "... a relay mail naming another author than its devnull: not believed, nothing mailed" \
	"[ \"\$(sql \"SELECT from_addr FROM messages WHERE message_id = 'relay4@x'\")\" = devnull+bea.example.com@kernel.org ] &&
	 reply relay4@x | grep -q '^3|the author is not known: the From: is b4 relay' &&
	 ! sql 'SELECT rcpt FROM replies' | grep -q 'devnull\|victim'"
# the real relay mails of the corpus (linux-leds, linux-usb, linux-input,
# linux-bluetooth): each review To: the author X-Original-From names
nrelay=0
for f in "$P"/*.patch "$corpus"/security/patches/*.patch; do
	grep -q '^From: .* via B4 Relay <devnull+' "$f" || continue
	nrelay=$((nrelay + 1))
	want=$(sed -n 's/^X-Original-From: //p' "$f" | head -1)
	"$rb" review "$f" >"$tmp/r" 2>/dev/null
	got=$(sed -n 's/^To: //p' "$tmp/r" | head -1)
	if [ "$got" != "$want" ] || grep -q 'devnull' "$tmp/r"; then
		echo "# $(basename "$f"): To: $got, want $want"
		nrelay=1000
	fi
done
check "... the corpus's real relay mails ($nrelay): each review To: its author, no devnull" \
	"[ $nrelay -ge 3 ] && [ $nrelay -lt 1000 ]"

# ---- one problem, one entry --------------------------------------------------
# a sign-off without angle brackets and a function indented with spaces
remail leds "$LEDS_CLEAN" onecause@x "header('In-Reply-To', None); header('References', None)
header('Subject', '[PATCH] leds: lm3692x: one cause, one function')
def fix(b):
    b = '\n'.join('Signed-off-by: Guido Gunther agx@sigxcpu.org' if l.startswith('Signed-off-by:') else l
                  for l in b.split('\n'))
    return b.replace('\n--- \n', '\n---\n', 1).replace('-- \n2.', '-- \n2.', 1)
body(fix)"
run
b=$(mailed onecause@x body | flat)
check "a sign-off without angle brackets: one entry, saying what else it gives" \
	"echo \"\$b\" | grep -q '#1 commit message: ERROR: Unrecognized email address: .Guido Gunther agx@sigxcpu.org. (BAD_SIGN_OFF, which also gives NO_AUTHOR_SIGN_OFF' &&
	 ! echo \"\$b\" | grep -q '(NO_AUTHOR_SIGN_OFF)'"
rid=$(mailed onecause@x Message-ID | tr -d '<>')
n_mail=$((n_mail + 1))
cat >"$tmp/leds/new/$(printf '%04d' $n_mail).fp" <<EOF
From: Rita Reviewer <rita@example.org>
To: $BOT, $LIST
Subject: Re: [PATCH] leds: lm3692x: one cause, one function
Date: Mon, 02 Nov 2026 11:00:00 +0000
Message-ID: <fp-rita@x>
In-Reply-To: <$rid>
References: <onecause@x> <$rid>

false-positive #1: the sign-off is fine as it is
EOF
run
n=$(sql "SELECT count(*) FROM reply_findings rf JOIN replies r ON r.id = rf.reply_id WHERE r.message_id = '$rid' AND rf.num = 1")
check "... false-positive #1 disputes every finding of the entry ($n)" \
	"[ $n -ge 2 ] && [ \"\$(sql \"SELECT count(*) FROM feedback fb JOIN messages m ON m.id = fb.msg_id WHERE m.message_id = 'fp-rita@x'\")\" = $n ]"

# ---- every line of every review of the corpus fits 72 columns ---------------
"$rb" review "$P"/*.patch "$corpus"/security/patches/*.patch >"$tmp/all.out" 2>"$tmp/all.err"; st=$?
/usr/bin/python3 - "$tmp/all.out" >"$tmp/cols" 2>&1 <<'PY'
import re, sys
data = open(sys.argv[1], encoding='utf-8', errors='replace').read()
mails = re.split(r'\n(?=From: reviewbot )', data)
long = []
for m in mails:
    _, _, body = m.partition('\n\n')
    for l in body.split('\n'):
        if l.startswith('    +'):
            continue        # quoted code is never wrapped
        if len(l.expandtabs(8)) > 72:
            long.append(l)
print('%d reviews, %d lines past 72 columns' % (len(mails), len(long)))
for l in long[:10]:
    print(repr(l))
PY
check "the corpus through review: every line of every review fits 72 columns but quoted code" \
	"[ $st -eq 0 ] && grep -q '^[0-9][0-9]* reviews, 0 lines past 72 columns' '$tmp/cols' &&
	 [ \$(grep -c '^Message-ID: ' '$tmp/all.out') -gt 500 ] || { cat '$tmp/cols'; false; }"

echo "review: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
