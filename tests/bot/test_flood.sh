#!/bin/bash
# A flood of commands never starves the reviews: answers to commands
# and reviews have separate hourly budgets (max_confirmations_per_hour,
# max_replies_per_hour), commands from many addresses are capped as a
# whole, and every review due is handed to delivery before any answer.
# Commands nobody vouched for get a request for their token (issue 33),
# under a budget of their own (max_requests_per_hour): a flood of forged
# commands never uses up the answers' one.
# 40 command mails from 40 addresses and one patch, in one maildir,
# through a sendmail program that logs the order it is handed mail in.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

BOT=reviewbot@example.org
# flood NAME: 40 commands, then one patch, in $tmp/NAME/list
flood() {
	/usr/bin/python3 - "$tmp/$1/list" "$BOT" <<'PY'
import os, sys
box, bot = sys.argv[1:]
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
def put(n, name, text):
    with open(os.path.join(box, 'new', '%d.%04d.%s:2,' % (1800000000 + n, n, name)), 'w') as f:
        f.write(text)
for i in range(40):
    put(i, 'cmd%d' % i, 'From: User %d <user%d@example.net>\nTo: %s\nSubject: reviews\n'
        'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <cmd%d@example.net>\n\noptout\n'
        % (i, i, bot, i))
put(40, 'patch', 'From: Dev <dev@example.com>\nTo: linux-leds@vger.kernel.org\n'
    'List-Id: <linux-leds.vger.kernel.org>\n'
    'Subject: [PATCH] leds: x: add a helper\nDate: Tue, 10 Nov 2026 12:00:00 +0000\n'
    'Message-ID: <patch@example.com>\n\nAdd a helper.\n\n---\n'
    '--- a/drivers/leds/x.c\n+++ b/drivers/leds/x.c\n@@ -1,1 +1,2 @@\n int a;\n+int b ;\n')
PY
}

# conf NAME [POLICY-LINES]: sendmail logging "KIND MESSAGE-ID" per mail
conf() {
	mkdir -p "$tmp/$1/db"
	cat >"$tmp/$1/sendmail" <<EOF
#!/bin/sh
/usr/bin/python3 -c '
import email, sys
m = email.message_from_binary_file(sys.stdin.buffer)
kind = "review" if (m["In-Reply-To"] or "").strip() == "<patch@example.com>" else "confirm"
print(kind, m["Message-ID"])' >>"$tmp/$1/log"
EOF
	chmod 755 "$tmp/$1/sendmail"
	cat >"$tmp/$1/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $tmp/$1/db/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "leds"]
	type = maildir
	path = $tmp/$1/list
	list = linux-leds@vger.kernel.org
[delivery]
	type = sendmail
	path = $tmp/$1/sendmail
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
${2:-}
EOF
}
sql() {  # sql NAME QUERY
	/usr/bin/python3 - "$tmp/$1/db/reviewbot.db" "$2" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}

# ---- the defaults: 30 reviews and 20 answers an hour --------------------------
conf dflt
flood dflt
"$rb" run --once --config "$tmp/dflt/rb.conf" >/dev/null 2>"$tmp/dflt/err"
st=$?
echo "# defaults: $(grep -c '^review' "$tmp/dflt/log" 2>/dev/null) review(s), $(grep -c '^confirm' "$tmp/dflt/log" 2>/dev/null) answers sent"
check "40 commands and a patch: the review goes out" \
	"[ $st -eq 0 ] && [ \$(grep -c '^review' '$tmp/dflt/log') -eq 1 ]"
check "... first" "head -1 '$tmp/dflt/log' | grep -q '^review'"
check "... the requests are capped as a whole: 20 sent, 20 recorded, not sent" \
	"[ \$(grep -c '^confirm' '$tmp/dflt/log') -eq 20 ] &&
	 [ \"\$(sql dflt \"SELECT count(*) FROM replies WHERE kind = 'request' AND state = 3 AND reason = 'max_requests_per_hour reached'\")\" = 20 ]"
check "... the commands wait for their tokens: none carried out" \
	"[ \"\$(sql dflt 'SELECT count(*) FROM optouts')\" = 0 ] &&
	 [ \"\$(sql dflt \"SELECT count(*) FROM messages WHERE reason = 'optout: pending confirmation'\")\" = 40 ]"
check "... and the answers' budget is untouched by them" \
	"[ \"\$(sql dflt \"SELECT count(*) FROM replies WHERE kind = 'confirm'\")\" = 0 ]"

# ---- generous answer budget, few reviews: the review still goes first ----------
conf order "	max_replies_per_hour = 1
	max_requests_per_hour = 100"
flood order
"$rb" run --once --config "$tmp/order/rb.conf" >/dev/null 2>"$tmp/order/err"
check "a review due is handed over before any answer, even when they came first" \
	"head -1 '$tmp/order/log' | grep -q '^review' && [ \$(grep -c '^confirm' '$tmp/order/log') -eq 40 ]"

echo "flood: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
