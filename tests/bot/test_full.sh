#!/bin/bash
# A full disk (here: RLIMIT_FSIZE, which SQLite meets as an I/O error)
# rolls a batch back; the summary line then counts only what the
# database kept: messages stored, patches, findings, reviews.  Through
# `run --once` and `import`, at limits where nothing fits and where part
# of the work does; and once the limit is lifted nothing was lost.
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

# mails DIR N: N one-patch mails of about 3 KB
mails() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import os, sys
box, n = sys.argv[1], int(sys.argv[2])
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
for i in range(n):
    with open(os.path.join(box, 'new', '%d.%04d.f%d:2,' % (1800000000 + i, i, i)), 'w') as f:
        f.write('From: Dev %d <dev%d@example.com>\nTo: l@example.org\n'
                'List-Id: <l.example.org>\n'
                'Subject: [PATCH] misc: f%d: add a helper\n'
                'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <f%d@example.com>\n\n'
                'Add a helper.\n%s\n\n---\n--- a/drivers/misc/f%d.c\n+++ b/drivers/misc/f%d.c\n'
                '@@ -1,1 +1,2 @@\n int a;\n+int f%d_x ;\n'
                % (i, i, i, i, 'Words. ' * 400, i, i, i))
PY
}
conf() {  # conf NAME
	mkdir -p "$tmp/$1/db" "$tmp/$1/list/new" "$tmp/$1/list/cur" "$tmp/$1/list/tmp"
	cat >"$tmp/$1/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/$1/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "full"]
	type = maildir
	path = $tmp/$1/list
	list = l@example.org
[delivery]
	type = maildir
	path = $tmp/$1/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF
}
q() {  # q NAME QUERY
	/usr/bin/python3 - "$tmp/$1/db/reviewbot.db" "$2" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])
PY
}
# said FILE WHAT: the number before WHAT in the summary line
said() { sed -n "s/.* \([0-9][0-9]*\) $2.*/\1/p" "$1" | head -1; }

# agrees NAME ERR: the summary counts what the database has
agrees() {
	local s p f r
	s=$(said "$2" 'messages stored')
	p=$(said "$2" 'patches')
	f=$(said "$2" 'findings')
	r=$(said "$2" 'reviews')
	[ -n "$s" ] && [ "$s" = "$(q "$1" 'SELECT count(*) FROM messages')" ] &&
	[ "$p" = "$(q "$1" 'SELECT count(*) FROM messages WHERE state = 1')" ] &&
	[ "$f" = "$(q "$1" 'SELECT count(*) FROM findings')" ] &&
	[ "$r" = "$(q "$1" 'SELECT count(*) FROM reviews')" ] ||
	{ echo "# said: $s stored, $p patches, $f findings, $r reviews; kept: $(q "$1" 'SELECT count(*) FROM messages'), $(q "$1" 'SELECT count(*) FROM messages WHERE state = 1'), $(q "$1" 'SELECT count(*) FROM findings'), $(q "$1" 'SELECT count(*) FROM reviews')"; false; }
}

for limit in 64 400; do
	n=run$limit
	conf $n
	"$rb" run --once --config "$tmp/$n/rb.conf" >/dev/null 2>&1	# the database
	mails "$tmp/$n/list" 60
	(ulimit -f $limit && exec "$rb" run --once --config "$tmp/$n/rb.conf") >/dev/null 2>"$tmp/$n/err"
	check "run --once, file size limit $limit KiB: the write error is logged" \
		"grep -q 'error=\"disk I/O error\"' '$tmp/$n/err'"
	check "... and its summary counts what the database kept" "agrees $n '$tmp/$n/err'"
	"$rb" run --once --config "$tmp/$n/rb.conf" >/dev/null 2>"$tmp/$n/err2"
	check "... the limit lifted: nothing lost" \
		"[ \"\$(q $n 'SELECT count(*) FROM messages WHERE state = 1')\" = 60 ] && [ \$(ls '$tmp/$n/outbox/new' | wc -l) -eq 60 ]"

	n=imp$limit
	conf $n
	"$rb" run --once --config "$tmp/$n/rb.conf" >/dev/null 2>&1
	mails "$tmp/$n/in" 60
	(ulimit -f $limit && exec "$rb" import --config "$tmp/$n/rb.conf" "$tmp/$n/in") >/dev/null 2>"$tmp/$n/err"
	check "import, file size limit $limit KiB: its summary counts what the database kept" \
		"agrees $n '$tmp/$n/err'"
done

echo "full: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
