#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot status: the figures after `run --once` on the example
# archive, as text and --json, with --config and --database; a missing
# database is refused, not created.
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

# run refuses root without [bot] user: as root, run as nobody in a
# folder nobody may write
user_line=
mkdir -p "$tmp/db/empty/new" "$tmp/db/empty/cur" "$tmp/db/empty/tmp"
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
[source "later"]
	type = maildir
	path = $tmp/db/empty
[delivery]
	type = maildir
	path = $tmp/db/outbox
[policy]
	series_wait = 600
CONF

"$rb" status --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
check "status before any run: no database, exit 2, none created" \
	"[ $st -eq 2 ] && grep -q 'no database' '$tmp/err' && [ ! -e '$tmp/db/reviewbot.db' ]"

# the second source, an empty maildir, gets no checkpoint: "never read"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/run.out" 2>&1; st=$?
check "run --once on the example archive" "[ $st -eq 0 ]"
[ $st -eq 0 ] || cat "$tmp/run.out"

"$rb" status --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
check "status exits 0, nothing on stderr" "[ $st -eq 0 ] && [ ! -s '$tmp/err' ]"
[ $st -eq 0 ] || cat "$tmp/err"
line() { grep -qxF -- "$1" "$tmp/out"; }
# the archive: two versions of the LED series with cover letters, the
# ioctl patch, the clean patch, a reviewer's reply: 4 series versions
check "database line" "line 'database: $tmp/db/reviewbot.db'"
check "schema 9" "line 'schema: 9'"
check "messages per state" \
	"line 'messages: 10 (new 0, patch 7, cover 2, reply 1, command 0, skipped 0, bad 0)'"
check "series: 4 reviewed, none open" \
	"line 'series: 4 (open 0, waiting 0, reviewed 4, skipped 0)'"
check "patches" "line 'patches: 7'"
check "findings as query counts them" \
	"line \"findings: \$('$rb' query --config '$tmp/rb.conf' --json | wc -l)\""
check "replies: 4 written to the outbox" \
	"line 'replies: 4 (pending 0, due 0, sent 4, failed 0, suppressed 0)'"
check "no opt-outs" "line 'opt-outs: 0'"
check "no compile or load stage queued (none configured)" "line 'stages queued: 0'"
check "checkpoint of the mbox: its size, with a time" \
	"grep -Eq \"^checkpoint leds: \$(stat -c %s '$tmp/list.mbox') \\(20[0-9-]{8} [0-9:]{8} UTC\\)\$\" '$tmp/out'"
check "a configured source never read says so" "line 'checkpoint later: none (never read)'"
check "no false-positive answer yet" "line 'false-positive disputes: 0'"
[ $fail -eq 0 ] || cat "$tmp/out"

# an opt-out, then the same figures as JSON from the database alone
"$rb" optout --database "$tmp/db/reviewbot.db" jane@example.org >/dev/null
"$rb" status --database "$tmp/db/reviewbot.db" --json >"$tmp/json"; st=$?
check "status --database --json exits 0" "[ $st -eq 0 ]"
/usr/bin/python3 - "$tmp/json" >"$tmp/jcheck" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 9, d
m = d["messages"]
assert (m["total"], m["patch"], m["cover"], m["reply"], m["new"]) == (10, 7, 2, 1, 0), m
s = d["series"]
assert (s["total"], s["open"], s["waiting"], s["reviewed"], s["skipped"]) == (4, 0, 0, 4, 0), s
r = d["replies"]
assert (r["total"], r["pending"], r["sent"], r["failed"], r["suppressed"]) == (4, 0, 4, 0, 0), r
assert d["patches"] == 7 and d["findings"] > 0, d
assert d["optouts"] == 1 and d["mutes"] == 0, d
assert d["stages"] == {"queued": 0, "oldest_age": 0}, d
assert d["feedback"] == {"disputes": 0, "types": []}, d
cps = {c["source"]: c for c in d["checkpoints"]}
assert list(cps) == ["leds"], cps
assert cps["leds"]["updated"] > 0 and cps["leds"]["value"].isdigit(), cps
print("json ok")
PY
check "status --json: the same figures, the opt-out counted" "grep -qx 'json ok' '$tmp/jcheck'"
grep -qx 'json ok' "$tmp/jcheck" || cat "$tmp/jcheck"

# a series still waiting for its parts: v1's cover letter and first
# patch alone, seen by a run (not import, which settles everything)
/usr/bin/python3 - "$ex/lkml-sample.mbox" "$tmp/part.mbox" <<'PY'
import mailbox, sys
src = mailbox.mbox(sys.argv[1])
dst = mailbox.mbox(sys.argv[2])
n = 0
for m in src:
    subj = m["Subject"] or ""
    if "[PATCH 0/2]" in subj or "[PATCH 1/2]" in subj:
        dst.add(m)
        n += 1
dst.flush()
assert n == 2, n
PY
chmod 644 "$tmp/part.mbox"
sed -e "s|$tmp/list.mbox|$tmp/part.mbox|" -e "s|$tmp/db/reviewbot.db|$tmp/db/part.db|" \
	"$tmp/rb.conf" >"$tmp/part.conf"
"$rb" run --once --config "$tmp/part.conf" >"$tmp/run2.out" 2>&1
"$rb" status --config "$tmp/part.conf" >"$tmp/out2" 2>&1
check "an incomplete series within series_wait is open and waiting" \
	"grep -qx 'series: 1 (open 1, waiting 1, reviewed 0, skipped 0)' '$tmp/out2'"
grep -qx 'series: 1 (open 1, waiting 1, reviewed 0, skipped 0)' "$tmp/out2" || \
	cat "$tmp/out2" "$tmp/run2.out"

"$rb" status --help | grep -q -- '--json'
check "status --help" "[ $? -eq 0 ]"
"$rb" status --version | grep -q '^reviewbot '
check "status --version" "[ $? -eq 0 ]"
"$rb" status --config "$tmp/rb.conf" --database "$tmp/db/part.db" >/dev/null 2>&1
check "--config and --database together are refused" "[ $? -eq 2 ]"
"$rb" status extra >/dev/null 2>&1
check "an operand is refused" "[ $? -eq 2 ]"

echo "status: $pass passed, $fail failed"
[ $fail -eq 0 ]
