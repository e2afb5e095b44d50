#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Private mail stays out of what is public (issue 33 item 5): a part of
# a series mailed to the bot alone is not quoted in the review the list
# gets; a v1 mailed to the bot alone gives the public v2 no "since v1",
# neither in its review mail nor on /m/<v2>/; series:<a private part's
# Message-ID> answers, in search, the API and a query by mail, what a
# Message-ID never seen answers.  The bot on a maildir (the list's
# mailbox, into which mail to the bot lands too), dry run, an outbox
# maildir, then `reviewbot serve` on 127.0.0.1.
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
cp "$repo/tests/data/dkim/keys" "$tmp/dkim-keys"
chmod 755 "$tmp"
chmod 644 "$tmp/dkim-keys"
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $db
	templates = $repo/templates
	dry_run = true
	dkim_keys = $tmp/dkim-keys
[source "leds"]
	type = maildir
	path = $tmp/list
	list = $LIST
[delivery]
	type = maildir
	path = $tmp/db/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
[web]
	url = http://127.0.0.1/
	timeout = 3
EOF

n_mail=0
mail() {
	n_mail=$((n_mail + 1))
	cat >"$tmp/list/new/$(printf '%04d' $n_mail).$1"
}
# patch MSGID TO SUBJECT FILE [IRT]: a patch by ann with a finding (no
# Signed-off-by, an unchecked copy_from_user) in FILE
patch() {
	local irt="" to="To: $2"
	[ -n "${5:-}" ] && irt="In-Reply-To: <$5>
References: <$5>"
	# what went to the list comes through it: its List-Id (RFC 2919)
	[ "$2" = "$LIST" ] && to="To: $2
List-Id: <${LIST/@/.}>"
	mail "$1" <<EOF
From: Ann <ann@example.com>
$to
Subject: $3
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$1>
$irt

Read the request.

---
diff --git a/$4 b/$4
index 1111111..2222222 100644
--- a/$4
+++ b/$4
@@ -1,2 +1,5 @@
 int a;
+static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
+{ copy_from_user(&req, (void __user *)arg, sizeof(req)); return 0; }
+int secret_${1%%@*};
 int d;
EOF
}
run() { "$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; }
mailinfo() {
	/usr/bin/python3 - "$tmp/db/outbox" "$1" "$2" <<'PY'
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

# ---- a series with one part mailed to the bot alone -----------------------
mail "c0@ann" <<EOF
From: Ann <ann@example.com>
To: $LIST
List-Id: <${LIST/@/.}>
Subject: [PATCH 0/2] leds: x: two parts
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <c0@ann>

Two parts.
EOF
patch "s1@ann" "$LIST" "[PATCH 1/2] leds: x: public part" drivers/leds/leds-public.c c0@ann
patch "s2@ann" "$BOT" "[PATCH 2/2] leds: x: hidden part" drivers/leds/leds-hidden.c c0@ann
# ---- a v1 to the bot alone, its v2 to the list -------------------------------
patch "v1@ann" "$BOT" "[PATCH] leds: y: add y" drivers/leds/leds-v1only.c
patch "v2@ann" "$LIST" "[PATCH v2] leds: y: add y" drivers/leds/leds-y.c
run; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"
mailinfo c0@ann body >"$tmp/review"
check "the series' review goes to the list, with the public part's finding" \
	"mailinfo c0@ann Cc | grep -q '$LIST' && grep -q 'leds-public.c' '$tmp/review'"
check "... and nothing of the part mailed to the bot alone" \
	"! grep -q 'leds-hidden\\|secret_s2\\|hidden part' '$tmp/review' || { cat '$tmp/review'; false; }"
mailinfo v2@ann body >"$tmp/review2"
check "the public v2's review: its own findings, no \"since v1\" from the private v1" \
	"mailinfo v2@ann Cc | grep -q '$LIST' && grep -q 'leds-y.c' '$tmp/review2' &&
	 ! grep -q 'leds-v1only\\|secret_v1\\|^Since v1:' '$tmp/review2' || { cat '$tmp/review2'; false; }"
check "the private v1 was linked as v2's version before (the store keeps it)" \
	"[ \"\$(/usr/bin/python3 -c \"import sqlite3; c = sqlite3.connect('$db'); print(c.execute(\\\"SELECT count(*) FROM series s JOIN series p ON p.id = s.prev_id WHERE s.version = 2\\\").fetchone()[0])\")\" = 1 ]"

# ---- the web and the API -------------------------------------------------------
"$rb" serve --config "$tmp/rb.conf" --listen 127.0.0.1:0 --verbose >"$tmp/serve.log" 2>&1 &
serve_pid=$!
port=$(serve_port "$tmp/serve.log")
check "serve starts" "[ -n '$port' ] || { cat '$tmp/serve.log'; false; }"
B=http://127.0.0.1:$port
get() { curl -s -o "$1" -w '%{http_code}' "$2"; }
st=$(get "$tmp/v2.html" "$B/m/v2@ann/")
check "/m/v2@ann/: no since-v1 of the private v1, none of its files or types" \
	"[ $st = 200 ] && grep -q 'leds-y.c' '$tmp/v2.html' &&
	 ! grep -q 'leds-v1only\\|secret_v1\\|[a-z] since v1\\]\\|Fixed since v1\\|/m/v1@ann/' '$tmp/v2.html' ||
	 { grep -o '.\\{60\\}\\(v1only\\|secret_v1\\|since v1\\|/m/v1@ann/\\).\\{20\\}' '$tmp/v2.html'; false; }"
st=$(get "$tmp/s1.html" "$B/m/s1@ann/")
check "/m/s1@ann/: the public part, nothing of the hidden one" \
	"[ $st = 200 ] && ! grep -q 'leds-hidden\\|secret_s2' '$tmp/s1.html'"
# series:<id>: a private part's Message-ID, a public one's, one never seen
for q in s2@ann nobody@nowhere; do
	get "$tmp/search.$q" "$B/search?q=series:$q" >/dev/null
	get "$tmp/api.$q" "$B/api/v1/series?series=$q" >/dev/null
	get "$tmp/apif.$q" "$B/api/v1/findings?series=$q" >/dev/null
done
get "$tmp/api.s1@ann" "$B/api/v1/series?series=s1@ann" >/dev/null
strip() { sed "s/$1/ID/g" "$2"; }
check "search series:<private part>: what a Message-ID never seen gets" \
	"[ \"\$(strip s2@ann '$tmp/search.s2@ann')\" = \"\$(strip nobody@nowhere '$tmp/search.nobody@nowhere')\" ] &&
	 ! grep -q 'public part\\|leds-public' '$tmp/search.s2@ann'"
check "API series and findings of series=<private part>: as for one never seen" \
	"[ \"\$(strip s2@ann '$tmp/api.s2@ann')\" = \"\$(strip nobody@nowhere '$tmp/api.nobody@nowhere')\" ] &&
	 [ \"\$(strip s2@ann '$tmp/apif.s2@ann')\" = \"\$(strip nobody@nowhere '$tmp/apif.nobody@nowhere')\" ] &&
	 grep -q 'two parts' '$tmp/api.s1@ann'"
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; serve_pid=

# ---- the query by mail (signed: a verified sender, answered at once) --------
for q in s2@ann nobody@nowhere; do
	/usr/bin/python3 "$repo/tests/data/dkim/sign.py" <<EOF | mail "q.$q"
From: Maint <maint@example.org>
To: $BOT
Subject: history
Date: Mon, 02 Nov 2026 12:00:00 +0000
Message-ID: <q.$q>

query series:$q
EOF
done
run
check "query series:<private part> by mail: the answer of a Message-ID never seen" \
	"[ -n \"\$(mailinfo q.s2@ann body)\" ] &&
	 [ \"\$(mailinfo q.s2@ann body | sed 's/s2@ann/ID/g')\" = \"\$(mailinfo q.nobody@nowhere body | sed 's/nobody@nowhere/ID/g')\" ]"

echo "private: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
