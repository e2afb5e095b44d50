#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot query's options after `run --once` on the example archive:
# --review, --versions, --count-by, --csv, Message-IDs with or without
# <>, types in any case and validated, comma lists, relative dates.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
ex=$repo/examples
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

user_line=
mkdir -p "$tmp/db"
cp "$ex/lkml-sample.mbox" "$tmp/list.mbox"
if [ "$(id -u)" = 0 ]; then
	user_line="	user = nobody"
	chmod 755 "$tmp"
	chmod 644 "$tmp/list.mbox"
	chown -R nobody "$tmp/db"
fi
cat >"$tmp/rb.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
$user_line
[source "leds"]
	type = mbox
	path = $tmp/list.mbox
	list = linux-leds@vger.kernel.org
[delivery]
	type = maildir
	path = $tmp/db/outbox
[policy]
	max_age = 0	# the example archive is dated November 2026
CONF
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "run --once on the example archive" "[ $st -eq 0 ] || { cat '$tmp/run.out'; false; }"
q() { "$rb" query --config "$tmp/rb.conf" "$@"; }
V1=20261103091244.4121-1-jane@example.org
V2P=20261106094501.5001-2-jane@example.org

q --versions "<$V2P>" >"$tmp/out" 2>"$tmp/err"; st=$?
check "--versions <MSGID>: a v1..v2 table, v2 marked, fixed/new/still against v1" \
	"[ $st -eq 0 ] && [ \$(wc -l <'$tmp/out') -eq 3 ] &&
	 grep -Eq '^v1 +2026-11-03 +[0-9]+ +- +- +- +<$V1>' '$tmp/out' &&
	 grep -Eq '^v2 +\\* +2026-11-06 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +<' '$tmp/out'"
q --versions "$V2P" --json >"$tmp/j" 2>&1
check "--versions without <>, --json: fixed + still = v1's findings, new + still = v2's" \
	"python3 - '$tmp/j' <<'PY'
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
assert [x['version'] for x in v] == [1, 2], v
assert v[0]['fixed'] is None and v[1]['this'] and not v[0]['this'], v
assert v[1]['fixed'] + v[1]['still'] == v[0]['findings'], v
assert v[1]['new'] + v[1]['still'] == v[1]['findings'], v
PY"
q --versions "$V2P" --csv >"$tmp/out" 2>&1
check "--versions --csv: a header, then a line a version" \
	"[ \"\$(head -1 '$tmp/out')\" = 'version,date,findings,fixed,new,still,message_id,subject' ] &&
	 [ \$(wc -l <'$tmp/out') -eq 3 ]"

q --review "$V1" >"$tmp/out" 2>"$tmp/err"; st=$?
check "--review MSGID: the stored review mail, its state on stderr" \
	"[ $st -eq 0 ] && grep -q '^In-Reply-To: <$V1>' '$tmp/out' && grep -q '^Merge readiness' '$tmp/out' &&
	 grep -q 'review <reviewbot-.*>: sent' '$tmp/err'"
q --review "<20261103091244.4121-3-jane@example.org>" >"$tmp/out2" 2>/dev/null
check "--review of another patch of the series: the same mail" "cmp -s '$tmp/out' '$tmp/out2'"
rid=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$tmp/out")
q --review "$rid" >"$tmp/out2" 2>/dev/null
check "--review by the review's own Message-ID" "cmp -s '$tmp/out' '$tmp/out2'"
q --review "20261103130210.GA1234@example.net" >"$tmp/out" 2>"$tmp/err"; st=$?
check "--review of a reply that is no patch: exit 1, says why" \
	"[ $st -eq 1 ] && [ ! -s '$tmp/out' ] && grep -q 'no patch of a series' '$tmp/err'"
q --review "nosuch@x" >"$tmp/out" 2>"$tmp/err"; st=$?
check "--review of an unknown message: exit 1" "[ $st -eq 1 ] && grep -q 'no message <nosuch@x>' '$tmp/err'"

q --count-by author,category >"$tmp/out" 2>&1; st=$?
check "--count-by author,category: a table, largest first" \
	"[ $st -eq 0 ] && head -1 '$tmp/out' | grep -Eq '^AUTHOR +CATEGORY +COUNT$' &&
	 awk 'NR > 1 { if (prev && \$3 > prev) exit 1; prev = \$3 }' '$tmp/out' &&
	 [ \$(awk 'NR > 1 { s += \$3 } END { print s }' '$tmp/out') -eq \$(q --json | wc -l) ]"
q --count-by week,list --json >"$tmp/out" 2>&1
check "--count-by week,list --json: Monday weeks" \
	"python3 - '$tmp/out' <<'PY'
import json, sys, datetime
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all(set(r) == {'list', 'week', 'count'} for r in rows), rows
assert all(datetime.date.fromisoformat(r['week']).weekday() == 0 for r in rows), rows
PY"
q --count-by type,file,nonsense >"$tmp/out" 2>&1; st=$?
check "--count-by with an unknown key: exit 2, names it" "[ $st -eq 2 ] && grep -q \"unknown key 'nonsense'\" '$tmp/out'"

q --csv >"$tmp/out" 2>&1
check "--csv: RFC 4180, a header, messages with commas quoted" \
	"python3 - '$tmp/out' <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert rows and rows[0]['type'] and rows[0]['category'], rows[:1]
assert any(',' in r['message'] for r in rows), 'no message with a comma to test'
PY"
check "--csv has one row a finding" "[ \$(q --csv | python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin))))') -eq \$((\$(q --json | wc -l) + 1)) ]"
q --patches --csv >"$tmp/out" 2>&1
check "--patches --csv" "head -1 '$tmp/out' | grep -q '^date,message_id,subject,author,author_name,list,version,version_minor,part,total,errors,warnings,checks,findings$'"

n_ll=$(q --type LONG_LINE --json | wc -l)
check "--type in lower case is the same type" "[ \$(q --type long_line --json | wc -l) -eq $n_ll ] && [ $n_ll -gt 0 ]"
q --type long_lines >"$tmp/out" 2>&1; st=$?
check "--type unknown: exit 2, says so" "[ $st -eq 2 ] && grep -q \"unknown type 'long_lines'\" '$tmp/out'"
n_sec=$(q --category security --json | wc -l)
n_uapi=$(q --category uapi --json | wc -l)
check "--category security,uapi: either" \
	"[ \$(q --category security,uapi --json | wc -l) -eq $((n_sec + n_uapi)) ] && [ $n_sec -gt 0 ] && [ $n_uapi -gt 0 ]"
check "--type A,B: either" \
	"[ \$(q --type long_line,UAPI_SYSFS --json | wc -l) -eq \$((n_ll + \$(q --type uapi_sysfs --json | wc -l))) ]"
q --category secrity >"$tmp/out" 2>&1; st=$?
check "--category unknown: exit 2" "[ $st -eq 2 ] && grep -q \"unknown category 'secrity'\" '$tmp/out'"
# the archive is dated November 2026: days back from now reach it or not
days=$(( ($(date +%s) - $(date -d 2026-11-01 +%s)) / 86400 + 2 ))
check "--since Nd: relative dates" \
	"[ \$(q --since ${days}d --json | wc -l) -eq \$(q --json | wc -l) ] &&
	 [ \$(q --until ${days}d --json | wc -l) -eq 0 ]"
q --since 3x >"$tmp/out" 2>&1; st=$?
check "--since bad: exit 2" "[ $st -eq 2 ] && grep -q 'is not a date' '$tmp/out'"
check "--series with <> or without: the same" \
	"[ \$(q --series '<$V2P>' --json | wc -l) -eq \$(q --series '$V2P' --json | wc -l) ] &&
	 [ \$(q --series '$V2P' --json | wc -l) -gt 0 ]"
q --json --csv >"$tmp/out" 2>&1; st=$?
check "--json and --csv together: refused" "[ $st -eq 2 ]"
q --review x@y --versions x@y >"$tmp/out" 2>&1; st=$?
check "--review and --versions together: refused" "[ $st -eq 2 ]"

# a version's minor in every format: the staging patch resent as v2.1
sed -n '/^From joe@example.com/,/^From ann@example.com/p' "$ex/lkml-sample.mbox" | sed '$d' |
	sed -e 's/^Subject: \[PATCH\]/Subject: [PATCH v2.1]/' \
	    -e 's/^Message-ID: .*/Message-ID: <minor-1@example.com>/' \
	    -e 's/^Date: .*/Date: Sat, 7 Nov 2026 10:00:00 +0000/' >>"$tmp/list.mbox"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "run --once reads the v2.1 resend" "[ $st -eq 0 ] && [ \$(q --series minor-1@example.com --json | wc -l) -gt 0 ]"
check "a v2.1 is v2.1 in the table, JSON and CSV (findings and --patches)" \
	"q --series minor-1@example.com | grep -q ' v2\.1 1/1 ' &&
	 q --series minor-1@example.com --json | head -1 | grep -q '\"version\":2,\"version_minor\":1,' &&
	 q --series minor-1@example.com --patches --json | grep -q '\"version\":2,\"version_minor\":1,' &&
	 q --series minor-1@example.com --csv | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); assert r and all(x[\"version\"]==\"2\" and x[\"version_minor\"]==\"1\" for x in r)' &&
	 q --series minor-1@example.com --patches --csv | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); assert len(r)==1 and r[0][\"version_minor\"]==\"1\" and r[0][\"findings\"]!=\"0\"'"

echo "query: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
