#!/bin/bash
# [limits] end to end: each option lowered (and some raised past their
# default) changes what the real binary does with a maildir of mail made
# for it, through `run --once` and `import`:
#   max_message_bytes    the big mail is stored as bad with the reason
#                        (logged), the small one reviewed
#   max_parts            a mail with more parts is bad; raised, one with
#                        more than the default 1000 is reviewed
#   max_references       the stored References keep the root and the last
#   max_files_per_patch  findings in the files past it are dropped, and
#   max_lines_per_patch  the log says so (check-incomplete)
#   max_series_parts     [PATCH M/N] with N past it is skipped with the
#                        reason; raised, 1/12000 is a patch
# and out-of-range values are refused with FILE:LINE.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG
# the mail helper of the same build (see test_hostile.sh)
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# ---- the mail ---------------------------------------------------------------
/usr/bin/python3 - "$tmp/list" <<'PY'
import os, sys
box = sys.argv[1]
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
n = 0

def put(name, data):
    global n
    n += 1
    with open(os.path.join(box, 'new', '%d.%04d.%s:2,' % (1800000000 + n, n, name)), 'wb') as f:
        f.write(data)

def mail(mid, subject, body, frm='Dev <dev@example.com>', extra=''):
    return ('From: %s\nTo: linux-leds@vger.kernel.org\nList-Id: <linux-leds.vger.kernel.org>\n'
            'Subject: %s\n'
            'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <%s@example.com>\n%s'
            '\n' % (frm, subject, mid, extra)).encode() + body

def fdiff(path, tag):
    # a new file whose one added line ends in a blank: a finding
    return ('diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n'
            '--- /dev/null\n+++ b/%s\n@@ -0,0 +1,3 @@\n'
            '+// SPDX-License-Identifier: GPL-2.0\n+int %s_a; \n+int %s_b;\n'
            % (path, path, path, tag, tag)).encode()

def patch(mid, subject, files, msg=b'Add a helper.\n', **kw):
    body = msg + b'\nSigned-off-by: Dev <dev@example.com>\n---\n' + \
        b''.join(fdiff(p, p.split('/')[-1].split('.')[0]) for p in files) + b'-- \n2.39.5\n'
    return mail(mid, subject, body, **kw)

# max_message_bytes: a small patch and a 20 KB one
put('small', patch('small', '[PATCH] misc: small helper', ['drivers/misc/small.c']))
put('big', patch('big', '[PATCH] misc: big helper', ['drivers/misc/big.c'],
                 msg=b'Add a helper.\n\n' + b'Some words of explanation here.\n' * 640))
# max_parts: 5 parts, and 1200 (over the default 1000)
def parts(mid, subject, k):
    b = b'--b\nContent-Type: text/plain\n\nThe text.\n'
    b += b''.join(b'--b\nContent-Type: text/plain\nContent-Disposition: attachment\n\nnote %d\n' % i
                  for i in range(k - 2))
    b += b'--b\nContent-Type: text/x-patch\nContent-Disposition: attachment; filename=p.patch\n\n'
    b += b'Signed-off-by: Dev <dev@example.com>\n---\n' + fdiff('drivers/misc/%s.c' % mid, mid) + b'--b--\n'
    return mail(mid, subject, b, extra='MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n')
put('parts5', parts('parts5', '[PATCH] misc: five parts', 5))
put('parts1200', parts('parts1200', '[PATCH] misc: 1200 parts', 1200))
# max_references: ten of them
refs = ' '.join('<ref%d@example.com>' % i for i in range(10))
put('refs', patch('refs', '[PATCH] misc: threaded', ['drivers/misc/refs.c'],
                  extra='In-Reply-To: <ref9@example.com>\nReferences: %s\n' % refs))
# max_files_per_patch / max_lines_per_patch: three files, a finding in each
put('files3', patch('files3', '[PATCH] misc: three files',
                    ['drivers/misc/fa.c', 'drivers/misc/fb.c', 'drivers/misc/fc.c']))
# max_series_parts: a series of 3, one of 2, and a 1/12000
for i in (1, 2, 3):
    put('s3-%d' % i, patch('s3-%d' % i, '[PATCH %d/3] misc: three part %d' % (i, i),
                           ['drivers/misc/t%d.c' % i], frm='Tri <tri@example.com>',
                           extra='' if i == 1 else 'In-Reply-To: <s3-1@example.com>\n'))
for i in (1, 2):
    put('s2-%d' % i, patch('s2-%d' % i, '[PATCH %d/2] misc: two part %d' % (i, i),
                           ['drivers/misc/w%d.c' % i], frm='Two <two@example.com>',
                           extra='' if i == 1 else 'In-Reply-To: <s2-1@example.com>\n'))
put('s12000', patch('s12000', '[PATCH 1/12000] misc: one of many', ['drivers/misc/many.c'],
                    frm='Many <many@example.com>'))
PY

conf() {  # conf FILE DBDIR [[limits] lines]
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $2/reviewbot.db
	templates = $repo/templates
	dry_run = true
$user_line
[source "leds"]
	type = maildir
	path = $tmp/list
	list = linux-leds@vger.kernel.org
[delivery]
	type = maildir
	path = $2/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
[limits]
${3:-}
EOF
}
user_line=
if [ "$(id -u)" = 0 ]; then
	user_line="	user = nobody"
	chown -R nobody "$tmp"
fi
mkdir -p "$tmp/def" "$tmp/low" "$tmp/high" "$tmp/imp" "$tmp/lines"
conf "$tmp/def.conf" "$tmp/def"
conf "$tmp/low.conf" "$tmp/low" "	max_message_bytes = 8192
	max_parts = 4
	max_references = 3
	max_files_per_patch = 2
	max_series_parts = 2"
conf "$tmp/high.conf" "$tmp/high" "	max_parts = 2000
	max_references = 1000
	max_series_parts = 20000"
conf "$tmp/lines.conf" "$tmp/lines" "	max_lines_per_patch = 4"
conf "$tmp/imp.conf" "$tmp/imp" "	max_message_bytes = 8192"
[ "$(id -u)" = 0 ] && chown -R nobody "$tmp"

# q DB SQL: one query's rows, '|' between columns
q() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}
STATE="(case state when 0 then 'new' when 1 then 'patch' when 2 then 'cover' when 3 then 'reply'
	when 4 then 'command' when 5 then 'skipped' when 6 then 'bad' end)"
# st DB NAME: the state and reason of the mail NAME (the raw mail names it)
st() {
	q "$1" "select $STATE || '|' || coalesce(m.reason, '') from messages m
		join message_raw r on r.msg_id = m.id
		where cast(r.raw as text) like '%Message-ID: <$2@example.com>%'"
}
# files DB NAME: the files of NAME's findings, sorted, space-separated
files() {
	q "$1" "select distinct f.file from findings f join patches p on p.id = f.patch_id
		join messages m on m.id = p.msg_id where m.message_id = '$2@example.com'
		and f.file is not null order by f.file" | tr '\n' ' ' | sed 's/ $//'
}

# ---- configuration errors name FILE:LINE --------------------------------------
printf '[limits]\n\tmax_parts = 10001\n' >"$tmp/bad1.conf"
"$rb" run -n --config "$tmp/bad1.conf" >"$tmp/out" 2>&1; s=$?
check "run -n: max_parts past its ceiling is refused with FILE:LINE" \
	"[ $s -ne 0 ] && grep -q 'bad1.conf:2: max_parts: 10001 is above the maximum 10000' '$tmp/out'"
printf '[limits]\n\n\tmax_message_bytes = 1000\n' >"$tmp/bad2.conf"
"$rb" run -n --config "$tmp/bad2.conf" >"$tmp/out" 2>&1; s=$?
check "run -n: max_message_bytes below its minimum is refused with FILE:LINE" \
	"[ $s -ne 0 ] && grep -q 'bad2.conf:3: max_message_bytes: 1000 is below the minimum 1024' '$tmp/out'"
"$rb" run -n --config "$tmp/low.conf" >"$tmp/out" 2>&1; s=$?
check "run -n accepts the lowered limits" "[ $s -eq 0 ] && grep -qx 'configuration OK' '$tmp/out'"

# ---- the runs ------------------------------------------------------------------------
for c in def low high lines; do
	"$rb" run --once --config "$tmp/$c.conf" >"$tmp/$c.out" 2>"$tmp/$c.err"; s=$?
	check "run --once with the $c limits exits 0" "[ $s -eq 0 ] || { tail -5 '$tmp/$c.err'; false; }"
done
"$rb" import --config "$tmp/imp.conf" "$tmp/list" >"$tmp/imp.out" 2>"$tmp/imp.err"; s=$?
check "import with max_message_bytes exits 0" "[ $s -eq 0 ] || { tail -5 '$tmp/imp.err'; false; }"
D=$tmp/def/reviewbot.db L=$tmp/low/reviewbot.db H=$tmp/high/reviewbot.db
N=$tmp/lines/reviewbot.db I=$tmp/imp/reviewbot.db

# max_message_bytes
check "defaults: the big mail is a patch" "[ \"\$(st $D big)\" = 'patch|' ]"
check "max_message_bytes: the big mail is stored as bad, the reason names the option" \
	"st $L big | grep -q '^bad|mail of [0-9]* bytes over \[limits\] max_message_bytes 8192$'"
rawlen() {  # rawlen DB NAME: the stored size of the mail NAME
	q "$1" "select length(raw) from message_raw where cast(raw as text) like '%Message-ID: <$2@example.com>%'"
}
big_len=$(wc -c <"$(ls "$tmp"/list/new/*.big:2,)")
check "max_message_bytes: the mail is kept whole (nothing lost)" \
	"[ \"\$(rawlen $L big)\" = $big_len ] && [ $big_len -gt 8192 ]"
check "max_message_bytes: the reason is logged" \
	"grep -q 'bad-message.*max_message_bytes' '$tmp/low.err'"
check "max_message_bytes: the small mail is reviewed" \
	"[ \"\$(st $L small)\" = 'patch|' ] && [ \"\$(q $L \"select s.state from series s join messages m
		on m.series_id = s.id where m.message_id = 'small@example.com'\")\" = 1 ]"
check "max_message_bytes, import: the big mail bad, the small one a patch" \
	"st $I big | grep -q '^bad|.*max_message_bytes 8192' && [ \"\$(st $I small)\" = 'patch|' ]"

# max_parts
check "defaults: 5 parts are a patch, 1200 are bad" \
	"[ \"\$(st $D parts5)\" = 'patch|' ] && st $D parts1200 | grep -q '^bad|.*part limit'"
check "max_parts lowered: 5 parts are bad with the reason" \
	"st $L parts5 | grep -q '^bad|mail over a size, depth or part limit'"
check "max_parts raised: 1200 parts are a patch, its attached diff checked" \
	"[ \"\$(st $H parts1200)\" = 'patch|' ] && [ \"\$(files $H parts1200)\" = 'drivers/misc/parts1200.c' ]"

# max_references
refs() { q "$1" "select refs from messages where message_id = 'refs@example.com'"; }
all=$(seq 0 9 | sed 's/.*/ref&@example.com/' | tr '\n' ' ' | sed 's/ $//')
check "defaults: the ten References are kept" "[ \"\$(refs $D)\" = '$all' ]"
check "max_references: the root and the last two are kept" \
	"[ \"\$(refs $L)\" = 'ref0@example.com ref8@example.com ref9@example.com' ]"
check "max_references raised: all ten" "[ \"\$(refs $H)\" = '$all' ]"

# max_files_per_patch, max_lines_per_patch
three='drivers/misc/fa.c drivers/misc/fb.c drivers/misc/fc.c'
check "defaults: findings in the three files" "[ \"\$(files $D files3)\" = '$three' ]"
check "max_files_per_patch: findings in the first two files only" \
	"[ \"\$(files $L files3)\" = 'drivers/misc/fa.c drivers/misc/fb.c' ]"
check "max_files_per_patch: the log says so" \
	"grep -q 'check-incomplete.*files3@example.com.*max_files_per_patch 2' '$tmp/low.err'"
check "max_lines_per_patch: findings in the first file only" \
	"[ \"\$(files $N files3)\" = 'drivers/misc/fa.c' ]"
check "max_lines_per_patch: the log says so" \
	"grep -q 'check-incomplete.*files3@example.com.*max_lines_per_patch 4' '$tmp/lines.err'"

# max_series_parts
check "defaults: the series of three are patches, 1/12000 is skipped" \
	"[ \"\$(st $D s3-3)\" = 'patch|' ] && st $D s12000 | grep -q '^skipped|subject.s part numbers out of range'"
check "max_series_parts: the series of three is skipped with the reason" \
	"for i in 1 2 3; do st $L s3-\$i | grep -q '^skipped|subject.s part numbers out of range' || exit 1; done"
check "max_series_parts: the series of two is reviewed" \
	"[ \"\$(q $L \"select count(*) from messages m join series s on s.id = m.series_id
		where m.message_id like 's2-%' and m.state = 1 and s.state = 1\")\" = 2 ]"
check "max_series_parts raised: 1/12000 is a patch" "[ \"\$(st $H s12000)\" = 'patch|' ]"

# nothing left behind
for c in D L H N I; do
	db=${!c}
	check "$(basename "$(dirname "$db")"): nothing left unprocessed, every bad or skipped mail has a reason" \
		"[ \"\$(q $db \"select count(*) from messages where state = 0 or (state in (5, 6) and coalesce(reason, '') = '')\")\" = 0 ]"
done

echo "limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
