#!/bin/bash
# The bot as a list sees it, end to end on real servers: the daemon reads
# an IMAP mailbox (dovecot, with IDLE) and a public-inbox archive (over
# HTTP) and answers by SMTP (aiosmtpd).  A patch in each gets a threaded
# review; an "optout" mail gets a request for its token, sent back it is
# carried out, and the sender's next patch
# gets no review; SIGTERM stops the daemon cleanly.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
. "$repo/tests/integration/public_inbox.sh"
. "$repo/tests/integration/smtp.sh"
it_init e2e

dc_start
pi_start
smtp_start out
OUT=$SMTP_DIR
printf '%s\n' "$DC_PASS" >"$IT/imap.pass"
chmod 600 "$IT/imap.pass"

# mails from the example archive: Joe's ioctl patch, Ann's clean patch,
# Joe's opt-out, and Joe's next patch
/usr/bin/python3 - "$repo/examples/lkml-sample.mbox" "$IT" <<'PY'
import mailbox, sys
out = sys.argv[2]
for m in mailbox.mbox(sys.argv[1]):
    mid = m['Message-ID']
    if 'joe@example.com' in mid:
        # the copy linux-staging delivers into the mailbox the bot reads
        m['List-Id'] = '<linux-staging.lists.linux.dev>'
        open(out + '/joe1.eml', 'w').write(m.as_string())
        m.replace_header('Message-ID', '<20261110120000.999-1-joe@example.com>')
        m.replace_header('Subject', '[PATCH] staging: acme: read the sensor twice')
        open(out + '/joe2.eml', 'w').write(m.as_string())
    elif 'ann@example.com' in mid:
        m['Cc'] = 'test@example.org'
        open(out + '/ann.eml', 'w').write(m.as_string())
open(out + '/optout.eml', 'w').write(
    'From: Joe Hacker <joe@example.com>\n'
    'To: reviewbot@example.org\n'
    'Subject: stop\n'
    'Date: Tue, 10 Nov 2026 11:00:00 +0000\n'
    'Message-ID: <optout-1@example.com>\n'
    '\n'
    'optout\n')
PY

cat >"$IT/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "imap"]
	type = imap
	url = imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX
	password_file = $IT/imap.pass
	ca_file = $DC_CA
	list = linux-staging@lists.linux.dev
	poll_interval = 3600
[source "lore"]
	type = public-inbox
	url = $PI_HTTP_URL
	list = $PI_ADDRESS
	poll_interval = 1
[delivery]
	type = smtp
	url = smtp://127.0.0.1:$SMTP_PORT
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
EOF
mkdir -p "$IT/db"

"$rb" run -n --config "$IT/rb.conf" >"$IT/n.out" 2>&1
check "the configuration is accepted" "grep -qx 'configuration OK' '$IT/n.out' || { cat '$IT/n.out'; false; }"

"$rb" run --config "$IT/rb.conf" >"$IT/daemon.out" 2>"$IT/daemon.err" &
daemon=$!
IT_PIDS+=("$daemon")

wait_count() {  # wait_count N SECS: until the SMTP server holds N mails
	local i
	for i in $(seq $(($2 * 10))); do
		[ "$(smtp_count "$OUT")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# mail whose header NAME matches (the newest first)
mail_with() {  # mail_with HEADER VALUE: prints the file name
	/usr/bin/python3 - "$OUT/mbox" "$1" "$2" <<'PY'
import email, os, sys
box, name, value = sys.argv[1:]
for d in ('new', 'cur'):
    for f in sorted(os.listdir(os.path.join(box, d))):
        p = os.path.join(box, d, f)
        m = email.message_from_binary_file(open(p, 'rb'))
        if value in (m.get(name) or ''):
            print(p)
PY
}

sleep 1
dc_save "$IT/joe1.eml"
check "a patch saved into the IMAP mailbox gets a review by SMTP" "wait_count 1 20"
f=$(mail_with In-Reply-To '<20261104180109.777-1-joe@example.com>')
check "the IMAP review is threaded and addressed" \
	"[ -n '$f' ] && grep -q '^To: Joe Hacker <joe@example.com>' '$f' && grep -q '^Cc: linux-staging@lists.linux.dev' '$f' && grep -q 'UAPI_IOCTL' '$f'"

pi_deliver "$IT/ann.eml"
check "a patch posted to the public-inbox gets a review by SMTP" "wait_count 2 20"
f=$(mail_with In-Reply-To '<20261105081500.555-1-ann@example.com>')
check "the public-inbox review is threaded and Cc the inbox's list" \
	"[ -n '$f' ] && grep -q '^To: Ann Fixer <ann@example.com>' '$f' && grep -q '^Cc: test@example.org' '$f'"

dc_save "$IT/optout.eml"
check "an optout mail gets one request for its token" "wait_count 3 20"
f=$(mail_with In-Reply-To '<optout-1@example.com>')
check "the request goes to the sender only, auto-replied" \
	"[ -n '$f' ] && grep -q '^To: .*joe@example.com' '$f' && ! grep -q '^Cc:' '$f' && grep -q '^Auto-Submitted: auto-replied' '$f'"
# joe sends the token back: the optout takes effect (issue 33)
tok=$(sed -n 's/^    confirm \([0-9a-f]\{32\}\)$/\1/p' "$f")
printf 'From: Joe Hacker <joe@example.com>\nTo: reviewbot@example.org\nSubject: Re: stop\nDate: Tue, 10 Nov 2026 11:05:00 +0000\nMessage-ID: <optout-2@example.com>\n\nconfirm %s\n' "$tok" >"$IT/confirm.eml"
dc_save "$IT/confirm.eml"
check "... sent back, the optout is confirmed by mail" "wait_count 4 20"

dc_save "$IT/joe2.eml"
for _ in $(seq 50); do
	grep -q 'msgid=20261110120000.999-1-joe@example.com' "$IT/daemon.err" 2>/dev/null && break
	grep -q 'suppressed=' "$IT/daemon.err" 2>/dev/null && break
	sleep 0.1
done
sleep 2
check "the sender's next patch gets no review" "[ \$(smtp_count $OUT) -eq 4 ]"
check "it was still checked and its review recorded as suppressed" \
	"/usr/bin/python3 - '$IT/db/reviewbot.db' <<'PY'
import sqlite3, sys
db = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
n = db.execute(\"SELECT count(*) FROM replies WHERE state = 3 AND to_addr = 'joe@example.com'\").fetchone()[0]
f = db.execute(\"SELECT count(*) FROM findings f JOIN patches p ON p.id = f.patch_id JOIN messages m ON m.id = p.msg_id WHERE m.message_id = '20261110120000.999-1-joe@example.com'\").fetchone()[0]
assert n == 1 and f > 0, (n, f)
PY"

kill -TERM "$daemon"
st=0
wait "$daemon" || st=$?
check "SIGTERM: the daemon stops cleanly (exit 0)" "[ $st -eq 0 ] || { tail -5 '$IT/daemon.err'; false; }"
check "no message was reviewed twice" "[ \$(smtp_count $OUT) -eq 4 ]"

it_done
