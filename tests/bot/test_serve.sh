#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot serve and the query by mail: the bot runs over sample mails
# (a maildir, dry run, replies to an outbox maildir), then `reviewbot
# serve` on 127.0.0.1 (a free port) answers pages and the JSON API,
# checked with curl and headless Chromium; hostile requests; privacy
# (a patch mailed to the bot alone, an author who opted out private:
# absent from pages, API and the mailed query); the database unchanged.
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
LIST=linux-leds@vger.kernel.org
db=$tmp/db/reviewbot.db
mkdir -p "$tmp/db" "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
user_line=
if [ "$(id -u)" = 0 ]; then
	# run and serve drop to nobody: a folder nobody may read and write
	user_line="	user = nobody"
	chmod 755 "$tmp"
	chown -R nobody "$tmp/db" "$tmp/list"
fi
# maint signs its mail with DKIM (tests/data/dkim/: the test key of
# example.org): a verified sender, answered at once
cp "$repo/tests/data/dkim/keys" "$tmp/dkim-keys"
chmod 644 "$tmp/dkim-keys"
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = $BOT
	database = $db
	templates = $repo/templates
	dry_run = true
	dkim_keys = $tmp/dkim-keys
$user_line
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
	confirmations_per_hour = 3
	queries_per_hour = 4
[web]
	url = http://127.0.0.1/
	timeout = 3
	idle_timeout = 1
	threads = 2
EOF

n_mail=0
mail() {
	n_mail=$((n_mail + 1))
	cat >"$tmp/list/new/$(printf '%04d' $n_mail).$1"
	[ "$(id -u)" = 0 ] && chown nobody "$tmp/list/new/$(printf '%04d' $n_mail).$1"
	true
}

# patch MSGID FROM-LINE TO SUBJECT FILE LINE [SIGNOFF]: the list's copy
# (its List-Id) when TO names the list
patch() {
	local so="" lid=""
	[ -n "${7:-}" ] && so="Signed-off-by: $7"
	case "$3" in *"$LIST"*) lid="List-Id: <linux-leds.vger.kernel.org>
";; esac
	mail "$1" <<EOF
${lid}From: $2
To: $3
Subject: $4
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <$1>

Make the driver better.

$so
---
diff --git a/$5 b/$5
index 1111111..2222222 100644
--- a/$5
+++ b/$5
@@ -1,3 +1,4 @@
 int a;
 int b;
+$6
 int d;
EOF
}

HOSTILE='leds: x: <script>alert(1)</script> & "q"'
ANN='"Ann <img src=x onerror=alert(2)>" <ann@example.com>'
# ann v1: to the list, no sign-off, trailing white space
patch "v1@ann" "$ANN" "$LIST" "[PATCH] $HOSTILE" drivers/leds/leds-x.c "int c_ann; "
# pat: to the bot alone (a private mail), a file of its own
patch "p1@pat" "Pat <pat@example.com>" "$BOT" "[PATCH] leds: private: a thing" \
	drivers/leds/leds-private.c "int c_pat; "
# olga: to the list, then asks for private reviews
patch "p1@olga" "Olga <olga@example.com>" "$LIST" "[PATCH] leds: olga: a thing" \
	drivers/leds/leds-olga.c "int c_olga; "
mail "c1@olga" <<EOF
From: Olga <olga@example.com>
To: $BOT
Subject: reviews
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <c1@olga>

optout private
EOF
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "the bot's first run" "[ $st -eq 0 ] || { cat '$tmp/run.out'; false; }"
# olga sends back the token the bot mailed her: her optout takes effect
otok=$(grep -rh '^    confirm [0-9a-f]\{32\}$' "$tmp/db/outbox/new" | sed 's/^    confirm //')
mail "c2@olga" <<EOF
From: Olga <olga@example.com>
To: $BOT
Subject: Re: [reviewbot] please confirm: optout private
Date: Mon, 02 Nov 2026 10:05:00 +0000
Message-ID: <c2@olga>

confirm $otok
EOF
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "olga confirms her optout private" "[ $st -eq 0 ] && [ \${#otok} -eq 32 ] || { cat '$tmp/run.out'; false; }"
# ann v2 a day later: signed off (fixes the missing sign-off), the
# white space gone, a long line new
long="int c_ann = $(printf 'x%.0s' $(seq 1 110));"
patch "v2@ann" "$ANN" "$LIST, Maint <maint@example.org>" "[PATCH v2] $HOSTILE" \
	drivers/leds/leds-x.c "$long" "Ann <ann@example.com>"
sed -i 's/^Date: .*/Date: Tue, 03 Nov 2026 10:00:00 +0000/' "$tmp/list/new/"*v2@ann
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "the bot's second run" "[ $st -eq 0 ] || { cat '$tmp/run.out'; false; }"
sql() {
	python3 - "$db" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}
check "recipients recorded at store time (schema 8)" \
	"[ \"\$(sql \"SELECT rcpt FROM messages WHERE message_id = 'p1@pat'\")\" = '$BOT' ] &&
	 [ \"\$(sql \"SELECT rcpt FROM messages WHERE message_id = 'v2@ann'\")\" = '$LIST,maint@example.org' ] &&
	 [ \"\$(sql 'SELECT count(*) FROM messages WHERE rcpt IS NULL')\" = 0 ]"
check "the private patch and olga's were checked and kept (only hidden)" \
	"[ \"\$(sql \"SELECT count(DISTINCT file) FROM findings WHERE file IN ('drivers/leds/leds-private.c', 'drivers/leds/leds-olga.c')\")\" = 2 ]"

# ---- serve ---------------------------------------------------------------
dbsum=$(sha256sum "$db" | cut -d' ' -f1)
serve_start() {
	# (emptied first: serve_port must not read the port of the server
	# before, which the new one's redirection empties only once it runs)
	: >"$tmp/serve.log"
	"$rb" serve --config "$tmp/rb.conf" --listen 127.0.0.1:0 --verbose >"$tmp/serve.log" 2>&1 &
	serve_pid=$!
	port=$(serve_port "$tmp/serve.log")
}
serve_start
check "serve starts on 127.0.0.1, a free port" "[ -n '$port' ] || { cat '$tmp/serve.log'; false; }"
B=http://127.0.0.1:$port
get() { curl -s -o "$tmp/body" -w '%{http_code}' "$@"; }

st=$(get "$B/")
check "front page: 200, the chart, a series table" \
	"[ $st = 200 ] && grep -q '<svg' '$tmp/body' && grep -q 'Latest series' '$tmp/body'"
check "hostile subject and name escaped on the front page" \
	"grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;' '$tmp/body' &&
	 ! grep -q '<script' '$tmp/body' && ! grep -q '<img' '$tmp/body'"
check "front page: neither the private patch nor olga's" \
	"! grep -q 'private: a thing' '$tmp/body' && ! grep -q 'olga' '$tmp/body'"
curl -s -D "$tmp/hdr" -o /dev/null "$B/"
check "answers carry a CSP without script, nosniff, one request a connection" \
	"grep -qi \"^content-security-policy: default-src 'none';\" '$tmp/hdr' &&
	 ! grep -qi 'script-src' '$tmp/hdr' && grep -qi '^x-content-type-options: nosniff' '$tmp/hdr' &&
	 grep -qi '^connection: close' '$tmp/hdr'"

st=$(get "$B/m/v2@ann/")
check "/m/v2@ann/: 200, findings by category, versions, the review mail" \
	"[ $st = 200 ] && grep -q 'Findings of this patch' '$tmp/body' &&
	 grep -q '<h2>Versions</h2>' '$tmp/body' && grep -q 'href=\"/m/v1@ann/\"' '$tmp/body' &&
	 grep -q '<h2>Review mail</h2>' '$tmp/body' && grep -q 'Merge readiness' '$tmp/body'"
check "... new and still since v1, and what v2 fixed" \
	"grep -q '\\[new since v1\\]' '$tmp/body' && grep -q 'Fixed since v1' '$tmp/body' &&
	 grep -q 'MISSING_SIGN_OFF' '$tmp/body'"
check "... the checklist as the review mail said it" "grep -q 'As the review mail says' '$tmp/body'"
check "... the review mail escaped (its subject quotes the hostile one)" \
	"grep -q 'Subject: Re: \\[PATCH v2\\] leds: x: &lt;script&gt;' '$tmp/body' && ! grep -q '<script' '$tmp/body'"
st=$(get "$B/m/%3Cv1@ann%3E/")
check "a Message-ID in its brackets is not a page (404)" "[ $st = 404 ]"
for u in "/m/p1@pat/" "/m/p1@olga/" "/a/olga@example.com/" "/a/pat@example.com/" \
	 "/f/drivers/leds/leds-private.c" ; do
	st=$(get "$B$u")
	if [ "$u" = "/f/drivers/leds/leds-private.c" ]; then
		check "privacy: $u lists no finding" "[ $st = 200 ] && ! grep -q 'c_pat' '$tmp/body' && ! grep -q 'href=\"/m/p1@pat/\"' '$tmp/body'"
	else
		check "privacy: $u is 404, as a page that does not exist" \
			"[ $st = 404 ] && grep -q 'There is no such page here' '$tmp/body'"
	fi
done
st=$(get "$B/search?q=file:drivers/leds/*")
check "search file:drivers/leds/*: ann's, not pat's nor olga's" \
	"[ $st = 200 ] && grep -q 'leds-x.c' '$tmp/body' && ! grep -q 'leds-private.c' '$tmp/body' &&
	 ! grep -q 'leds-olga.c' '$tmp/body'"
st=$(get "$B/search?q=type:nope")
check "search with an unknown type: 400, says why" "[ $st = 400 ] && grep -q \"unknown type &#39;nope&#39;\" '$tmp/body'"
st=$(get "$B/a/ann@example.com/")
check "author page" "[ $st = 200 ] && grep -q 'Findings by category' '$tmp/body'"
st=$(get "$B/f/drivers/leds/")
check "folder page" "[ $st = 200 ] && grep -q 'leds-x.c' '$tmp/body' && ! grep -q 'leds-olga.c' '$tmp/body'"
st=$(get "$B/l/$LIST/")
check "list page" "[ $st = 200 ] && grep -q '<svg' '$tmp/body'"
curl -s -D "$tmp/hdr" -o /dev/null "$B/$(echo $LIST | cut -d@ -f1)/v2@ann/"
check "lore's /LIST/MSGID/ redirects to /m/MSGID/" \
	"grep -q '^HTTP/1.1 301' '$tmp/hdr' && grep -qi '^location: /m/v2@ann/' '$tmp/hdr'"

# ---- the JSON API ----------------------------------------------------------
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$tmp/body"; }
st=$(get "$B/api/v1/findings?file=drivers/leds/*")
check "API findings: JSON, ann's only" \
	"[ $st = 200 ] && json \"
f = d['findings']
assert f and d['count'] == len(f) and d['next'] is None, d
assert all(x['author'] == 'ann@example.com' for x in f), f
assert set(f[0]) >= {'date','message_id','subject','author','author_name','list','series_id','version','part','total','type','severity','category','file','line','message','line_text','fingerprint','url'}, f[0]
\""
st=$(get "$B/api/v1/findings?limit=1")
check "API pagination: limit=1 gives a next link, by key (after= the finding shown)" \
	"[ $st = 200 ] && json \"assert d['count'] == 1 and d['after'] is None and '/api/v1/findings?after=' in d['next'] and '&limit=1' in d['next'], d\""
first=$(json "print(d['findings'][0]['line_text'], d['findings'][0]['type'])")
next=$(json "print(d['next'])")
st=$(get "$B$next")
check "... which gives the second" \
	"[ $st = 200 ] && json \"assert d['after'] and d['count'] == 1 and d['findings'][0]['line_text'] + ' ' + d['findings'][0]['type'] != '$first', d\""
st=$(get "$B/api/v1/findings?offset=1000")
check "API: offset up to 1000" "[ $st = 200 ] && json \"assert d['offset'] == 1000 and d['count'] == 0, d\""
st=$(get "$B/api/v1/findings?offset=100000000")
check "API: offset past 1000 is 400 (it reads every row it skips; page on with next)" \
	"[ $st = 400 ] && json \"assert 'after=' in d['error'], d\""
st=$(get "$B/api/v1/series?after=x")
check "API: an after that is no id is 400" "[ $st = 400 ]"
st=$(get "$B/api/v1/findings?limit=5000")
check "API: limit past 1000 is 400 with a JSON error" "[ $st = 400 ] && json \"assert 'at most 1000' in d['error']\""
st=$(get "$B/api/v1/reviews?mail=1")
check "API reviews: ann's two, sent, with the reply's Message-ID and mail; none of olga" \
	"[ $st = 200 ] && json \"
r = d['reviews']
assert len(r) == 2 and all(x['author'] == 'ann@example.com' for x in r), r
for x in r:
    v = x['review']
    assert v['state'] == 'sent' and v['reply_message_id'].startswith('reviewbot-') and v['sent_at'], v
    assert v['mail'].startswith('From: '), v
\""
st=$(get "$B/api/v1/series?author=olga")
check "API series of olga: none" "[ $st = 200 ] && json \"assert d['series'] == [], d\""
st=$(get "$B/api/v1/patches")
check "API patches: not the private one" \
	"[ $st = 200 ] && json \"assert {p['message_id'] for p in d['patches']} == {'v1@ann', 'v2@ann'}, d\""
st=$(get "$B/api/v1/versions?series=%3Cv2@ann%3E")
check "API versions: v1 then v2, fixed/new/still" \
	"[ $st = 200 ] && json \"
v = d['versions']
assert [x['version'] for x in v] == [1, 2] and v[1]['this'], v
assert v[1]['fixed'] >= 1 and v[1]['new'] >= 1, v
\""
st=$(get "$B/api/v1/versions?series=p1@pat")
check "API versions of the private patch: 404" "[ $st = 404 ]"
st=$(get "$B/api/v1/")
check "API index" "[ $st = 200 ] && json \"assert d['version'] == 'v1' and 'findings' in d['endpoints']\""

# ---- hostile requests -------------------------------------------------------
for m in POST PUT DELETE PATCH OPTIONS; do
	st=$(curl -s -o /dev/null -D "$tmp/hdr" -w '%{http_code}' -X $m -d 'x=1' "$B/")
	check "$m is 405 with Allow: GET, HEAD" "[ $st = 405 ] && grep -qi '^allow: GET, HEAD' '$tmp/hdr'"
done
st=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$B/m/../../etc/passwd")
check "path traversal: 400" "[ $st = 400 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$B/f/%2e%2e/%2e%2e/etc/passwd")
check "encoded traversal: 400" "[ $st = 400 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' "$B/m/a%00b/")
check "a NUL escape: 400" "[ $st = 400 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' "$B/search?q=%zz")
check "a malformed parameter: 400" "[ $st = 400 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' "$B/m/$(printf 'a%.0s' $(seq 1 3000))/")
check "a 3000-byte path: 414" "[ $st = 414 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' "$B/m/$(head -c 40000 /dev/zero | tr '\0' a)/")
check "a 40000-byte path: 414 (bounded before it is read whole)" "[ $st = 414 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' b)" "$B/")
check "a 20000-byte header: 431" "[ $st = 431 ]"
st=$(curl -s -o "$tmp/body" -w '%{http_code}' -I "$B/")
check "HEAD: 200, no body" "[ $st = 200 ] && ! grep -q '<html' '$tmp/body'"
# Many parameters: libmicrohttpd keeps each in a 16 KiB pool before any
# handler runs, and past ~300 closed the connection without a word
params() { python3 -c "import sys; print('&'.join(sys.argv[2] % i for i in range(int(sys.argv[1]))))" "$@"; }
st=$(curl -s -o "$tmp/body" -w '%{http_code}' --max-time 10 "$B/?$(params 300 'p%d=1')")
check "300 query parameters: 414, said why" \
	"[ $st = 414 ] && grep -q 'at most 32 query parameters' '$tmp/body'"
st=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$B/api/v1/findings?$(params 3000 'a%.0s')")
check "3000 empty parameters: 414" "[ $st = 414 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$B/?$(params 32 'p%d=1')")
check "32 parameters: answered" "[ $st = 200 ]"
st=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$B/search?$(params 33 'p%d=1')")
check "33 parameters: 414" "[ $st = 414 ]"
# pages go by their next-page links (after=): an offset deep in the
# history read every row it skipped (7-14 s a page on 2.7 million
# findings, tests/bench/README.md)
for u in "/?page=100000" "/a/ann@example.com/?page=11" "/f/drivers/?page=100000" \
	 "/search?q=file:drivers/*&page=100000" "/?after=x" "/?after=-3"; do
	st=$(get "$B$u")
	check "$u: 400, pages are reached by their links" \
		"[ $st = 400 ] && grep -q 'next-page links' '$tmp/body'"
done
st=$(get "$B/?page=10")
check "/?page=10: still a page (links made before)" "[ $st = 200 ] && grep -q 'No series yet' '$tmp/body'"
st=$(get "$B/?after=1")
check "/?after=1: the series before the first: none, a link to the newest" \
	"[ $st = 200 ] && grep -q 'No series yet' '$tmp/body' && grep -q 'href=\"/\">&larr; newest' '$tmp/body'"
st=$(get "$B/search?q=file:drivers/leds/*&after=999999999")
check "/search after a finding that is not there: no finding, the query kept in the link" \
	"[ $st = 200 ] && ! grep -q 'leds-x.c</code></a>:' '$tmp/body' &&
	 grep -q 'href=\"/search?q=file%3Adrivers%2Fleds%2F%2A\">&larr; newest' '$tmp/body'"
# a slow client: its request line at once, its headers a byte every
# half second; cut off past [web] timeout (3 s) while others are served
python3 - "$port" >"$tmp/slow" 2>&1 <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
t0 = time.time()
try:
    s.send(b"GET / HTTP/1.1\r\n")
    for ch in b"Host: x\r\nX-Slow: " + b"a" * 100 + b"\r\n\r\n":
        s.send(bytes([ch]))
        time.sleep(0.5)
    print("served", round(time.time() - t0, 1))
except OSError:
    print("cut", round(time.time() - t0, 1))
PY
slow=$!
sleep 1
t0=$(date +%s%N)
st=$(get "$B/")
t1=$(date +%s%N)
check "while a slow client trickles, others are answered at once" \
	"[ $st = 200 ] && [ $(( (t1 - t0) / 1000000 )) -lt 2000 ]"
wait $slow
check "the slow client is cut off after the 3 s timeout, well before it finishes" \
	"awk '\$1 == \"cut\" && \$2 >= 2.5 && \$2 < 8 { ok = 1 } END { exit !ok }' '$tmp/slow' || { cat '$tmp/slow'; false; }"
st=$(get "$B/")
check "and the server keeps serving" "[ $st = 200 ] && kill -0 $serve_pid"
# Connections that say nothing: 20 from one address (127.0.0.3) at once,
# [web] max_per_address (8) of them kept, the others closed as they come;
# the kept ones cut off after [web] idle_timeout (1 s) without a request
# line, before [web] timeout (3 s)
python3 - "$port" >"$tmp/peraddr" 2>&1 <<'PY'
import select, socket, sys, time
socks = []
for i in range(20):
    s = socket.socket()
    s.bind(("127.0.0.3", 0))
    s.connect(("127.0.0.1", int(sys.argv[1])))
    socks.append(s)
t0, when = time.time(), {}
while len(when) < len(socks) and time.time() - t0 < 8:
    r, _, _ = select.select([s for s in socks if s not in when], [], [], 0.1)
    for s in r:
        try:
            d = s.recv(1)
        except OSError:
            d = b''
        if d == b'':
            when[s] = time.time() - t0
early = sum(1 for t in when.values() if t < 0.5)
late = [t for t in when.values() if t >= 0.5]
print(early, len(socks) - early, min(late) if late else -1, max(late) if late else -1)
PY
read -r early alive first last <"$tmp/peraddr"
check "20 idle connections from one address: 8 kept (max_per_address), 12 closed at once" \
	"[ '$early' = 12 ] && [ '$alive' = 8 ] || { cat '$tmp/peraddr'; false; }"
check "... the 8 cut off after the 1 s idle_timeout" \
	"awk -v a='$first' -v b='$last' 'BEGIN { exit !(a >= 0.8 && b < 2.5) }' || { cat '$tmp/peraddr'; false; }"
# 300 idle connections from one address (127.0.0.2), opened again as
# they are closed, while another address asks for the front page: it is
# answered at once (before: the idle ones held every slot and the
# kernel's queue, and a page took seconds or never came)
python3 - "$port" >"$tmp/idle" 2>&1 <<'PY' &
import socket, sys, time
port, socks, opened = int(sys.argv[1]), [], 0
end = time.time() + 9
while time.time() < end:
    k = 0
    while len(socks) < 300 and k < 30:
        k += 1
        s = socket.socket()
        try:
            s.bind(("127.0.0.2", 0))
            s.settimeout(0.5)
            s.connect(("127.0.0.1", port))
            s.setblocking(False)
            socks.append(s)
            opened += 1
        except OSError:
            s.close()
            break
    alive = []
    for s in socks:
        try:
            if s.recv(1) == b'':
                s.close()
                continue
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            continue
        alive.append(s)
    socks = alive
    time.sleep(0.1)
print("opened", opened)
PY
idle=$!
sleep 2
: >"$tmp/idle.times"
for i in 1 2 3 4 5 6 7 8 9 10; do
	curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 20 "$B/" >>"$tmp/idle.times"
	sleep 0.3
done
wait $idle
echo "# idle: $(cat "$tmp/idle"); front page: $(awk '{ printf "%s/%ss ", $1, $2 }' "$tmp/idle.times")"
check "300 idle connections from one address: another's 10 pages answered, each within 1 s" \
	"[ \$(awk '\$1 == 200 && \$2 < 1' '$tmp/idle.times' | wc -l) -eq 10 ] || { cat '$tmp/idle.times'; false; }"
check "... the closed connections counted in the log, not one line each" \
	"grep -q 'event=http-limited' '$tmp/serve.log' &&
	 [ \$(grep -c 'connection limit' '$tmp/serve.log') -eq 0 ]"
st=$(get "$B/")
check "and the server keeps serving" "[ $st = 200 ] && kill -0 $serve_pid"

# ---- Chromium, without JavaScript errors --------------------------------------
for u in "/" "/m/v2@ann/"; do
	timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr \
		--v=0 --user-data-dir="$tmp/chromium" --dump-dom "$B$u" >"$tmp/dom" 2>"$tmp/chr.err"
	st=$?
	check "chromium loads $u: its DOM, no console error, no CSP violation" \
		"[ $st -eq 0 ] && grep -q '</html>' '$tmp/dom' && grep -q 'reviewbot' '$tmp/dom' &&
		 ! grep -E 'CONSOLE|Uncaught|Refused to|Content Security Policy' '$tmp/chr.err' ||
		 { tail -5 '$tmp/chr.err'; false; }"
done
check "... and nothing ran: no alert from the hostile texts" "! grep -q 'alert(1)</script>' '$tmp/dom'"
# The series table's checklist is one line a row, at a phone's width and
# a desktop's (six badges, stacked, showed about a dozen series a
# screen): the page as served, laid out by Chromium with a script added
# that counts the lines of each row's checklist cell (the page's own CSP
# allows no script; a copy on disk has no CSP)
curl -s "$B/" >"$tmp/layout.html"
/usr/bin/python3 - "$tmp/layout.html" <<'PY'
import sys
p = sys.argv[1]
html = open(p, encoding='utf-8').read()
js = """<script>
var th = Array.prototype.slice.call(document.querySelectorAll('table thead th'));
var col = th.findIndex(function (h) { return h.textContent.trim() == 'checklist'; });
var out = [];
document.querySelectorAll('table tbody tr').forEach(function (tr) {
  if (col < 0 || !tr.cells[col]) return;
  var r = document.createRange();
  r.selectNodeContents(tr.cells[col]);
  var tops = Array.prototype.map.call(r.getClientRects(), function (x) { return x.top; });
  tops.sort(function (a, b) { return a - b; });
  var lines = 0, last = -1e9;
  tops.forEach(function (t) { if (t - last > 8) { lines++; } last = t; });
  out.push(lines);
});
document.body.insertAdjacentHTML('beforeend', '<pre id="lines">' + out.join(' ') + '</pre>');
</script>"""
open(p, 'w', encoding='utf-8').write(html.replace('</body>', js + '</body>'))
PY
for size in 390x844 1280x900; do
	rm -rf "$tmp/chromium-layout"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium-layout" \
		--window-size="${size/x/,}" --dump-dom "file://$tmp/layout.html" >"$tmp/layout.dom" 2>/dev/null
	lines=$(sed -n 's/.*<pre id="lines">\([0-9 ]*\)<\/pre>.*/\1/p' "$tmp/layout.dom")
	check "the series table at $size: each row's checklist on one line (lines: $lines)" \
		"[ -n '$lines' ] && [ -z \"\$(echo '$lines' | tr ' ' '\n' | grep -vx 1)\" ]"
done
# Screenshots at a phone's width and a desktop's, checked by
# tests/bot/pngcheck.py: a valid PNG of that size, not blank, and
# nothing cut off at the right edge (what a page wider than the window
# leaves in a headless screenshot)
for u in "/" "/m/v2@ann/"; do
	for size in 390x844 1280x900; do
		png=$tmp/shot-$(echo "$u" | tr -c 'a-z0-9' _)-$size.png
		timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$tmp/chromium" --window-size="${size/x/,}" \
			--screenshot="$png" "$B$u" >/dev/null 2>"$tmp/chr.err"
		check "chromium screenshot of $u at $size: valid, not blank, nothing cut off at the right" \
			"python3 '$repo/tests/bot/pngcheck.py' '$png' ${size/x/ }"
	done
done

# ---- hundreds of requests at once ---------------------------------------------
# 300 requests, 100 clients at once from 25 addresses (127.0.1.N, 4 at
# a time each, under [web] max_per_address), over pages and the API:
# more than [web] max_connections (64), the rest wait in the kernel's
# queue (listen backlog 128) and are answered in turn, none refused
for i in $(seq 1 30); do
	printf '%s\n' / /m/v2@ann/ /s/1/ /a/ann@example.com/ /f/drivers/ \
		'/search?q=category:security' /api/v1/findings /api/v1/patches \
		/api/v1/series /api/v1/reviews
done | awk '{ print "127.0.1." (NR % 25 + 1), $0 }' >"$tmp/burst.urls"
t0=$(date +%s%N)
B=$B xargs -P 100 -L 1 sh -c 'curl -s -o /dev/null --max-time 60 --interface "$0" -w "%{http_code}\n" "$B$1"' \
	<"$tmp/burst.urls" >"$tmp/burst.codes"
t1=$(date +%s%N)
echo "# burst: 300 requests, 100 clients: $(( (t1 - t0) / 1000000 )) ms," \
	"$(sort "$tmp/burst.codes" | uniq -c | tr '\n' ' ')"
check "a burst of 300 requests from 100 clients at once: all answered 200" \
	"[ \$(wc -l <'$tmp/burst.codes') -eq 300 ] && [ \$(grep -c '^200$' '$tmp/burst.codes') -eq 300 ]"
st=$(get "$B/api/v1/findings")
check "after the burst the server still serves" "[ $st = 200 ] && kill -0 $serve_pid"

# ---- read-only ---------------------------------------------------------------
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null
serve_pid=
check "serve stops on SIGTERM" "grep -q 'event=stop' '$tmp/serve.log'"
check "serve wrote nothing: the database file is unchanged" \
	"[ \"\$(sha256sum '$db' | cut -d' ' -f1)\" = '$dbsum' ]"
check "every request was logged, no server error" \
	"grep -q 'event=http method=GET' '$tmp/serve.log' && ! grep -q 'status=5' '$tmp/serve.log'"

# ---- the query by mail --------------------------------------------------------
# query MSGID WORDS [FROM]: a query mailed to the bot, signed with DKIM
# when it is maint's (FROM another address: unsigned)
query() {
	local from=${3:-maint@example.org} name=${4:-Maint} text
	text="From: $name <$from>
To: $BOT
Subject: history, and buy cheap watches
Date: Mon, 02 Nov 2026 12:00:00 +0000
Message-ID: <$1>

$2

-- 
Maint"
	if [ "$from" = maint@example.org ]; then
		printf '%s\n' "$text" | /usr/bin/python3 "$repo/tests/data/dkim/sign.py" | mail "$1"
	else
		printf '%s\n' "$text" | mail "$1"
	fi
}
# mailinfo IRT FIELD: a header (or "body") of the outbox mail answering IRT
mailinfo() {
	python3 - "$tmp/db/outbox" "$1" "$2" <<'PY'
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
# vic's patch is a v2.2: a minor version after the point
patch "v22@vic" "Vic <vic@example.com>" "$LIST" "[PATCH v2.2] leds: vic: a thing" \
	drivers/leds/leds-vic.c "int c_vic; "
query "q1@maint" "query file:drivers/leds/* since:3650d"
query "q2@maint" "query type:nope"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "the bot answers queries" "[ $st -eq 0 ] || { cat '$tmp/run.out'; false; }"
mailinfo q1@maint body >"$tmp/answer"
check "query answer: to the sender alone, threaded, auto-replied" \
	"[ \"\$(mailinfo q1@maint To)\" = 'Maint <maint@example.org>' ] && [ -z \"\$(mailinfo q1@maint Cc)\" ] &&
	 [ \"\$(mailinfo q1@maint Auto-Submitted)\" = auto-replied ] &&
	 [ \"\$(mailinfo q1@maint Subject)\" = 'Re: [reviewbot] query' ]"
check "query answer: ann's series and findings, with links" \
	"grep -q 'drivers/leds/leds-x.c' '$tmp/answer' && grep -q 'http://127.0.0.1/m/v2@ann/' '$tmp/answer' &&
	 grep -q 'http://127.0.0.1/search?q=file%3Adrivers%2Fleds%2F%2A%20since%3A' '$tmp/answer'"
check "query answer: a series' version as its subject says it (v2.2, not v2.1)" \
	"grep -q '\[v2.2 1/1\] leds: vic: a thing' '$tmp/answer' || { cat '$tmp/answer'; false; }"
check "privacy: the query answer has neither the private patch nor olga's" \
	"! grep -q 'leds-private.c' '$tmp/answer' && ! grep -q 'leds-olga.c' '$tmp/answer' &&
	 ! grep -qi 'olga' '$tmp/answer' && ! grep -q 'pat@' '$tmp/answer'"
check "an unreadable query is answered with why" \
	"mailinfo q2@maint body | grep -q \"could not be read: unknown type 'nope'\""
check "the queries are recorded as commands" \
	"[ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id = 'q1@maint'\")\" = '4|query' ]"
query "q3@maint" "query author:ann"
query "q4@maint" "query author:ann"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1
check "queries are rate-capped per sender (confirmations_per_hour = 3): the 4th recorded, not sent" \
	"[ -n \"\$(mailinfo q3@maint Subject)\" ] && [ -z \"\$(mailinfo q4@maint Subject)\" ] &&
	 [ \"\$(sql \"SELECT count(*) FROM replies WHERE to_addr = 'maint@example.org' AND state = 3\")\" = 1 ]"
# the work itself is capped before any lookup (issue 33: 60 queries
# delayed a review by 79 s): queries_per_hour = 4
query "q5@maint" "query author:ann"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1
check "the 5th query of the hour from one sender: refused before the lookup, no answer made" \
	"[ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id = 'q5@maint'\")\" = '4|query refused: queries_per_hour reached for this address' ] &&
	 [ \"\$(sql \"SELECT count(*) FROM replies WHERE to_addr = 'maint@example.org'\")\" = 4 ]"
# a stranger, or anyone writing a third party's From:, gets no answer
# with results, nor has the bot work for it: one request for a token,
# with nothing of the mail's Subject; the query waits for the token
query "q1@zed" "query author:ann" zed@example.net zed
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1
check "a query from an unverified, unconfirmed sender: not looked up, a request with the bot's own Subject" \
	"[ \"\$(sql \"SELECT state, reason FROM messages WHERE message_id = 'q1@zed'\")\" = '4|query: pending confirmation' ] &&
	 [ \"\$(mailinfo q1@zed Subject)\" = 'Re: [reviewbot] please confirm: query' ] &&
	 ! mailinfo q1@zed body | grep -q 'leds-x.c' && ! grep -rq 'watches' '$tmp/db/outbox/new'"
ztok=$(mailinfo q1@zed body | sed -n 's/^    confirm \([0-9a-f]*\)$/\1/p')
mail "q2@zed" <<EOF
From: zed <zed@example.net>
To: $BOT
Subject: Re: [reviewbot] please confirm: query
Date: Mon, 02 Nov 2026 12:05:00 +0000
Message-ID: <q2@zed>

confirm $ztok
EOF
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1
check "... its token sent back: the query is looked up and answered" \
	"[ \${#ztok} -eq 32 ] && mailinfo q2@zed body | grep -q 'drivers/leds/leds-x.c' &&
	 [ \"\$(sql \"SELECT reason FROM messages WHERE message_id = 'q2@zed'\")\" = query ]"

serve_start
B=http://127.0.0.1:$port
st=$(get "$B/api/v1/findings?author=vic")
check "API findings: a v2.2 is version 2, version_minor 2" \
	"[ $st = 200 ] && json \"assert d['findings'] and all((f['version'], f['version_minor']) == (2, 2) for f in d['findings']), d\""
st=$(get "$B/api/v1/patches?author=vic")
check "API patches: a v2.2 is version 2, version_minor 2" \
	"[ $st = 200 ] && json \"assert len(d['patches']) == 1 and (d['patches'][0]['version'], d['patches'][0]['version_minor']) == (2, 2), d\""

echo "serve: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
