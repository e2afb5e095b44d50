#!/bin/bash
# A public-inbox archive read over HTTP (new.atom + raw), served by
# public-inbox-netd on 127.0.0.1.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/public_inbox.sh"
it_init pi_http

PI_FEEDMAX=${PI_FEEDMAX:-25} pi_start || { bad "public-inbox-netd starts"; it_done; exit 1; }

conf() {  # conf FILE URL
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "pi"]
	type = public-inbox
	url = $2
	list = $PI_ADDRESS
[delivery]
	type = maildir
	path = $IT/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
EOF
}
mkdir -p "$IT/db"
conf "$IT/rb.conf" "$PI_HTTP_URL"
reviews() { ls "$IT/outbox/new" 2>/dev/null | wc -l; }
# reviews made (sent or held back by the rate limits), from the database
made() {
	/usr/bin/python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM replies").fetchone()[0])' "$IT/db/reviewbot.db"
}
stored() {
	/usr/bin/python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM messages WHERE message_id LIKE ?", (sys.argv[2],)).fetchone()[0])' "$IT/db/reviewbot.db" "$1"
}
feeds() { pi_http_requests 'GET /test/new.atom'; }
raws() { pi_http_requests 'GET /test/[^ ]*/raw'; }

pi_deliver_mbox "$repo/examples/lkml-sample.mbox"
check "the example archive is in the inbox (10 messages)" "[ \$(pi_count) -eq 10 ]"

"$rb" run -n --config "$IT/rb.conf" >"$IT/out" 2>&1
check "run -n accepts a public-inbox http source" "grep -qx 'configuration OK' '$IT/out' || { cat '$IT/out'; false; }"

"$rb" run --once --config "$IT/rb.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$IT/err'; false; }"
check "4 reviews (v1, v2, ioctl, clean)" "[ \$(reviews) -eq 4 ] || { cat '$IT/err'; false; }"
check "each message fetched once from /raw" "[ \$(raws) -eq 10 ]"

/usr/bin/python3 - "$IT/outbox" >"$IT/py" 2>&1 <<'PY'
import email, email.policy, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
mails = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in box.keys()]
by_irt = {m['In-Reply-To']: m for m in mails}
want = ['<20261103091244.4121-1-jane@example.org>', '<20261106094501.5001-1-jane@example.org>',
        '<20261104180109.777-1-joe@example.com>', '<20261105081500.555-1-ann@example.com>']
assert sorted(by_irt) == sorted(want), sorted(by_irt)
v1 = by_irt[want[0]]
assert v1['Subject'] == 'Re: [PATCH 0/2] leds: add a driver for the ACME LC-4 controller', v1['Subject']
assert want[0] in v1['References']
assert 'UAPI_IOCTL' in by_irt[want[2]].get_content()
print('ok')
PY
check "reviews are threaded to the cover letters / patches" "grep -qx ok '$IT/py' || { cat '$IT/py'; false; }"

f0=$(feeds)
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a second run --once adds no review" "[ $st -eq 0 ] && [ \$(reviews) -eq 4 ]"
check "the second feed fetch is conditional and answered 304" "[ \$(feeds) -eq $((f0 + 1)) ] && [ \"\$(pi_http_status 'GET /test/new.atom' | tail -1)\" = 304 ]"
check "no raw fetched on the second run" "[ \$(raws) -eq 10 ]"

# a patch delivered later
sed -e 's/^Message-ID: .*/Message-ID: <late-1@example.com>/' \
    -e 's/^Subject: .*/Subject: [PATCH] leds: aat1290: fix another typo/' \
    "$IT/pi/split/0005.eml" >"$IT/late.eml"
pi_deliver "$IT/late.eml"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a patch delivered later (with an older Date:) is reviewed by the next run" "[ $st -eq 0 ] && [ \$(made) -eq 5 ] && [ \$(raws) -eq 11 ]"
check "its feed fetch was a 200" "[ \"\$(pi_http_status 'GET /test/new.atom' | tail -1)\" = 200 ]"

# equal timestamps: two messages with the same Date (and no Received:),
# the first read alone, the second arriving after the run
for i in 1 2; do
	sed -e "s/^Message-ID: .*/Message-ID: <same-$i@example.com>/" \
	    -e "s/^Subject: .*/Subject: [PATCH] leds: same second $i/" \
	    -e "s/^Date: .*/Date: Mon, 9 Nov 2026 10:00:00 +0000/" \
	    "$IT/pi/split/0005.eml" >"$IT/same-$i.eml"
done
pi_deliver "$IT/same-1.eml"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"
pi_deliver "$IT/same-2.eml"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a message with the same <updated> as the checkpoint is not lost" "[ $st -eq 0 ] && [ \$(stored 'same-%') -eq 2 ] && [ \$(made) -eq 7 ]"
check "nor fetched twice" "[ \$(raws) -eq 13 ]"

# more mail than one feed page holds: 60 posts between two polls.  The
# feed shows the newest 25; the rest is read by paging new.atom?t=
# forward from the checkpoint (before: 25 stored, 35 lost, a warning)
made0=$(made)
for i in $(seq 1 60); do
	sed -e "s/^Message-ID: .*/Message-ID: <burst-$i@example.com>/" \
	    -e "s/^Subject: .*/Subject: [PATCH] leds: burst $i/" \
	    -e "s/^Date: .*/Date: Tue, 10 Nov 2026 $(printf %02d $((10 + i / 60))):$(printf %02d $((i % 60))):00 +0000/" \
	    "$IT/pi/split/0005.eml" >"$IT/burst.eml"
	pi_deliver "$IT/burst.eml" || bad "deliver burst $i"
done
f0=$(pi_http_requests 'GET /test/new.atom.t=')
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
cp "$IT/err" "$IT/err.burst"
burst_stored=$(stored 'burst-%')
burst_made=$(( $(made) - made0 ))
echo "# public-inbox burst: 60 posted between two polls, $burst_stored stored, $burst_made reviewed, $(( $(pi_http_requests 'GET /test/new.atom.t=') - f0 )) feed pages read after the first"
check "60 posts between two polls: all 60 stored and reviewed" \
	"[ $st -eq 0 ] && [ $burst_stored -eq 60 ] && [ $burst_made -eq 60 ] || { cat '$IT/err'; false; }"
check "... by paging the feed from the checkpoint, no gap logged" \
	"grep -q 'level=info event=feed-paged source=pi pages=' '$IT/err.burst' && ! grep -q 'event=feed-gap' '$IT/err.burst' &&
	 [ \$(pi_http_requests 'GET /test/new.atom.t=202611') -ge 2 ]"
check "... each fetched once" "[ \$(raws) -eq $((13 + 60)) ]"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"
check "the next run adds none" "[ \$(stored 'burst-%') -eq 60 ] && [ \$(made) -eq $((made0 + 60)) ]"

# a server that ignores ?t=: what the feed holds is read, and the range
# that may be missing is logged at error level
pi_paging off
for i in $(seq 1 30); do
	sed -e "s/^Message-ID: .*/Message-ID: <lost-$i@example.com>/" \
	    -e "s/^Subject: .*/Subject: [PATCH] leds: lost $i/" \
	    -e "s/^Date: .*/Date: Wed, 11 Nov 2026 10:$(printf %02d "$i"):00 +0000/" \
	    "$IT/pi/split/0005.eml" >"$IT/burst.eml"
	pi_deliver "$IT/burst.eml" || bad "deliver lost $i"
done
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
pi_paging on
check "a feed that cannot be paged: its 25 are read" "[ $st -eq 0 ] && [ \$(stored 'lost-%') -eq 25 ]"
check "... and the range that may be missing is an error" \
	"grep -q 'level=err event=feed-gap source=pi from=\"2026-11-10 11:00:00 UTC\" to=\"2026-11-11 10:06:00 UTC\"' '$IT/err' || { cat '$IT/err'; false; }"

# hostile and broken servers
conf "$IT/bad.conf" "http://127.0.0.1:$(it_port)/test/"
sed -i 's/source "pi"/source "down"/' "$IT/bad.conf"
"$rb" run --once --config "$IT/bad.conf" >/dev/null 2>"$IT/err"
check "a server that is down: the source fails, logged" "grep -q 'event=source-failed' '$IT/err'"
conf "$IT/404.conf" "http://127.0.0.1:$PI_HTTP_PORT/nosuch/"
sed -i -e 's/source "pi"/source "nosuch"/' -e 's/^\tlist = .*/&\n\tpoll_interval = 1/' "$IT/404.conf"
"$rb" run --once --config "$IT/404.conf" >/dev/null 2>"$IT/err"; st=$?
check "an inbox without mail (404 for new.atom): not a failure, said once at warn level" \
	"[ $st -eq 0 ] && grep -q 'level=warn event=feed-empty source=nosuch' '$IT/err' && ! grep -q 'event=source-failed' '$IT/err'"
"$rb" run --config "$IT/404.conf" >/dev/null 2>"$IT/err" &
d=$!
sleep 4.5
kill -TERM $d; wait $d
check "... the daemon polling it every second says so once, not at every poll" \
	"[ \$(grep -c 'event=feed-empty' '$IT/err') -eq 1 ] && ! grep -q 'event=source-failed' '$IT/err' || { cat '$IT/err'; false; }"

it_done
