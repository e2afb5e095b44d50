#!/bin/bash
# A public-inbox archive read over NNTP (and as a plain nntp source),
# served by public-inbox-netd on 127.0.0.1.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/public_inbox.sh"
it_init nntp

pi_start || { bad "public-inbox-netd starts"; it_done; exit 1; }

conf() {  # conf FILE TYPE URL [extra source lines]
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "news"]
	type = $2
	url = $3
	list = $PI_ADDRESS
${4:-}
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
# (NNTP_TYPE=nntp runs it all through type nntp)
conf "$IT/rb.conf" "${NNTP_TYPE:-public-inbox}" "$PI_NNTP_URL"
reviews() { ls "$IT/outbox/new" 2>/dev/null | wc -l; }
made() {
	/usr/bin/python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM replies").fetchone()[0])' "$IT/db/reviewbot.db"
}
stored() {
	/usr/bin/python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM messages WHERE message_id LIKE ?", (sys.argv[2],)).fetchone()[0])' "$IT/db/reviewbot.db" "$1"
}
checkpoint() {
	/usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cols = [r[1] for r in db.execute("PRAGMA table_info(checkpoints)")]
print(db.execute("SELECT * FROM checkpoints").fetchone())' "$IT/db/reviewbot.db"
}
articles() { grep -c '\] ARTICLE ' "$IT/pi-netd.log"; }

pi_deliver_mbox "$repo/examples/lkml-sample.mbox"
check "the example archive is in the inbox (10 messages)" "[ \$(pi_count) -eq 10 ]"

"$rb" run -n --config "$IT/rb.conf" >"$IT/out" 2>&1
check "run -n accepts a public-inbox nntp source" "grep -qx 'configuration OK' '$IT/out' || { cat '$IT/out'; false; }"

"$rb" run --once --config "$IT/rb.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$IT/err'; false; }"
check "4 reviews (v1, v2, ioctl, clean)" "[ \$(reviews) -eq 4 ] || { cat '$IT/err'; false; }"
check "the checkpoint is GROUP:LAST" "checkpoint | grep -q \"'inbox.test:10'\""

/usr/bin/python3 - "$IT/outbox" >"$IT/py" 2>&1 <<'PY'
import email, email.policy, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
mails = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in box.keys()]
by_irt = {m['In-Reply-To']: m for m in mails}
want = ['<20261103091244.4121-1-jane@example.org>', '<20261106094501.5001-1-jane@example.org>',
        '<20261104180109.777-1-joe@example.com>', '<20261105081500.555-1-ann@example.com>']
assert sorted(by_irt) == sorted(want), sorted(by_irt)
assert want[0] in by_irt[want[0]]['References']
assert 'UAPI_IOCTL' in by_irt[want[2]].get_content()
print('ok')
PY
check "reviews are threaded to the cover letters / patches" "grep -qx ok '$IT/py' || { cat '$IT/py'; false; }"

a0=$(articles)
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a second run --once adds no review and fetches no article" "[ $st -eq 0 ] && [ \$(reviews) -eq 4 ] && [ \$(articles) -eq $a0 ]"

sed -e 's/^Message-ID: .*/Message-ID: <late-1@example.com>/' \
    -e 's/^Subject: .*/Subject: [PATCH] leds: aat1290: fix another typo/' \
    "$IT/pi/split/0005.eml" >"$IT/late.eml"
pi_deliver "$IT/late.eml"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a patch delivered later is reviewed by the next run" "[ $st -eq 0 ] && [ \$(made) -eq 5 ] && [ \$(articles) -eq $((a0 + 1)) ]"

# more than one batch's worth is not needed to prove the checkpoint:
# 40 patches arrive between two runs, all are read, none twice
for i in $(seq 1 40); do
	sed -e "s/^Message-ID: .*/Message-ID: <burst-$i@example.com>/" \
	    -e "s/^Subject: .*/Subject: [PATCH] leds: burst $i/" \
	    "$IT/pi/split/0005.eml" >"$IT/burst.eml"
	pi_deliver "$IT/burst.eml" || bad "deliver burst $i"
done
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "40 new articles: all read" "[ $st -eq 0 ] && [ \$(stored 'burst-%') -eq 40 ] && [ \$(made) -eq 45 ]"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"
check "the next run adds none" "[ \$(made) -eq 45 ] && checkpoint | grep -q \"'inbox.test:51'\""

# a renumbered group (checkpoint past the last article): read again,
# duplicates recognised by Message-ID
/usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE checkpoints SET value = ?", ("inbox.test:9999",))
db.commit()' "$IT/db/reviewbot.db" 2>"$IT/py" || cat "$IT/py"
"$rb" run --once --config "$IT/rb.conf" >/dev/null 2>"$IT/err"; st=$?
check "a renumbered group is read again, nothing doubled" "[ $st -eq 0 ] && grep -q 'event=group-renumbered' '$IT/err' && [ \$(made) -eq 45 ] && checkpoint | grep -q \"'inbox.test:51'\""

# type nntp works the same; starttls is refused for nntp://
rm -rf "$IT/db"/* "$IT/outbox"
conf "$IT/plain.conf" nntp "$PI_NNTP_URL"
"$rb" run --once --config "$IT/plain.conf" >/dev/null 2>"$IT/err"; st=$?
check "type nntp reads the group" "[ $st -eq 0 ] && [ \$(made) -eq 45 ]"
conf "$IT/tls.conf" nntp "$PI_NNTP_URL" "	starttls = true"
"$rb" run --once --config "$IT/tls.conf" >"$IT/out" 2>&1
check "starttls = true for nntp:// is refused with a clear error" "grep -q 'starttls is not supported for NNTP' '$IT/out'"
conf "$IT/down.conf" nntp "nntp://127.0.0.1:$(it_port)/inbox.test"
"$rb" run --once --config "$IT/down.conf" >/dev/null 2>"$IT/err"
check "a server that is down: the source fails, logged" "grep -q 'event=source-failed' '$IT/err'"
conf "$IT/nogroup.conf" nntp "nntp://127.0.0.1:$PI_NNTP_PORT/no.such.group"
"$rb" run --once --config "$IT/nogroup.conf" >/dev/null 2>"$IT/err"
check "an unknown group: GROUP fails, logged" "grep -q 'event=source-failed.*GROUP no.such.group' '$IT/err'"

it_done
