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
	max_age = 0	# the mail carries fixed dates (2026)
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
check "schema 14" "line 'schema: 14'"
check "messages per state" \
	"line 'messages: 10 (new 0, patch 7, cover 2, reply 1, command 0, skipped 0, bad 0)'"
check "series: 4 reviewed, none open" \
	"line 'series: 4 (open 0, waiting 0, reviewed 4, skipped 0)'"
check "patches" "line 'patches: 7'"
check "findings as query counts them" \
	"line \"findings: \$('$rb' query --config '$tmp/rb.conf' --json | wc -l)\""
check "replies: 3 written to the outbox, the clean patch's review not mailed, and why" \
	"line 'replies: 4 (pending 0, due 0, held by cap 0, sent 3, failed 0, suppressed 1 (1 with nothing to say: [source] review_clean))'"
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
assert d["schema"] == 14, d
m = d["messages"]
assert (m["total"], m["patch"], m["cover"], m["reply"], m["new"]) == (10, 7, 2, 1, 0), m
s = d["series"]
assert (s["total"], s["open"], s["waiting"], s["reviewed"], s["skipped"]) == (4, 0, 0, 4, 0), s
r = d["replies"]
assert (r["total"], r["pending"], r["sent"], r["failed"], r["suppressed"]) == (4, 0, 3, 0, 1), r
assert (r["quiet"], r["backports"], r["too_old"]) == (1, 0, 0), r
assert d["patches"] == 7 and d["findings"] > 0, d
assert d["optouts"] == 1 and d["mutes"] == 0, d
assert d["commands"] == {"pending": 0, "refused": 0}, d
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

# [policy] max_age (default 3 days) at a first start: the archive, dated
# November 2026, is older: not read; a patch of today is read and mailed.
# A patch that came in November 2026 (its Received:) dated 2085 is as old
# as the archive, not new.  Then a backfill (--since) reads the rest:
# stored and checked, answered by no one; the old command in it is
# refused, not carried out (issue 33: a backdated command was carried out
# unanswered, so its victim never learnt of it).
sed -e "s|$tmp/db/reviewbot.db|$tmp/db/age.db|" -e "s|$tmp/db/outbox|$tmp/db/age-out|" \
	-e '/max_age = 0/d' -e "s|$tmp/db/empty|$tmp/db/agebox|" "$tmp/rb.conf" >"$tmp/age.conf"
# the agebox source has no list of its own: its mail came to the bot
# directly, answered at once (tests/bot/test_squat.sh tests list_wait)
printf '\tlist_wait = 0\n' >>"$tmp/age.conf"
mkdir -p "$tmp/db/agebox/new" "$tmp/db/agebox/cur" "$tmp/db/agebox/tmp"
now=$(date -R)
# (maildir names begin with the delivery time: the old ones are old)
t0=$(date +%s)
cat >"$tmp/db/agebox/new/$t0.fresh" <<MAIL
From: Fay <fay@example.com>
To: linux-leds@vger.kernel.org
List-Id: <linux-leds.vger.kernel.org>
Subject: [PATCH] leds: fresh
Date: $now
Message-ID: <fresh@example.com>

No sign-off.
---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -1,2 +1,3 @@
 int a;
+int b;
 int c;
MAIL
cat >"$tmp/db/agebox/new/1793613600.oldcmd" <<MAIL
From: Gil <gil@example.com>
To: reviewbot@example.org
Subject: stop
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <oldcmd@example.com>

optout
MAIL
cat >"$tmp/db/agebox/new/1793696400.future" <<MAIL
Received: from mail.example.com by lists.example.org; Tue, 03 Nov 2026 09:00:00 +0000
From: Hal <hal@example.com>
To: linux-leds@vger.kernel.org
Subject: [PATCH] leds: from the future
Date: Fri, 08 Jun 2085 10:00:00 +0000
Message-ID: <future@example.com>

No sign-off.
---
diff --git a/drivers/leds/leds-y.c b/drivers/leds/leds-y.c
--- a/drivers/leds/leds-y.c
+++ b/drivers/leds/leds-y.c
@@ -1,2 +1,3 @@
 int a;
+int b;
 int c;
MAIL
[ "$(id -u)" = 0 ] && chown -R nobody "$tmp/db"
"$rb" run -n --config "$tmp/age.conf" >"$tmp/age-n.out" 2>&1
check "run -n says what a first start reads: back to max_age" \
	"grep -q '^source \"leds\": first start: reads mail dated from .* on (\\[policy\\] max_age = 259200 s), nothing older' '$tmp/age-n.out' &&
	 grep -qx 'configuration OK' '$tmp/age-n.out' || { cat '$tmp/age-n.out'; false; }"
"$rb" run --once --config "$tmp/age.conf" >"$tmp/age.out" 2>&1; st=$?
"$rb" status --config "$tmp/age.conf" >"$tmp/out3" 2>&1
check "first start: only mail younger than max_age is read, and mailed" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/db/age-out/new' | wc -l) -eq 1 ] &&
	 grep -q 'In-Reply-To: <fresh@example.com>' '$tmp/db/age-out/new/'* &&
	 grep -qx 'series: 1 (open 0, waiting 0, reviewed 1, skipped 0)' '$tmp/out3' || { cat '$tmp/out3' '$tmp/age.out'; false; }"
check "... the log says from when, and how many older mails were not read (the 2085 one too)" \
	"grep -q 'level=info event=first-start source=leds since=\"20' '$tmp/age.out' &&
	 grep -q 'level=info event=older-not-read source=leds not_read=10 ' '$tmp/age.out' &&
	 grep -q 'level=info event=older-not-read source=later not_read=2 ' '$tmp/age.out' || { cat '$tmp/age.out'; false; }"
"$rb" run -n --config "$tmp/age.conf" >"$tmp/age-n.out" 2>&1
check "... run -n then: each source reads on from where it stopped" \
	"[ \$(grep -c 'reads on from where it stopped' '$tmp/age-n.out') -eq 2 ] || { cat '$tmp/age-n.out'; false; }"
# after the first start: a 2019 patch dated 2085 arriving now is read
# (no floor any more) and checked, and answered by no one: it is of 2019
sed -e 's/^Received: .*/Received: from mail.example.com by lists.example.org; Sat, 01 Jun 2019 09:00:00 +0000/' \
    -e 's/future@example.com/future-2019@example.com/' -e 's/from the future/from 2019/' \
    "$tmp/db/agebox/new/1793696400.future" >"$tmp/4.future"
mv "$tmp/4.future" "$tmp/db/agebox/new/$((t0 + 1)).future"
[ "$(id -u)" = 0 ] && chown -R nobody "$tmp/db"
"$rb" run --once --config "$tmp/age.conf" >"$tmp/age.out" 2>&1; st=$?
"$rb" status --config "$tmp/age.conf" >"$tmp/out3" 2>&1
check "a 2019 patch dated 2085 is as old as 2019: checked, not mailed" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/db/age-out/new' | wc -l) -eq 1 ] &&
	 grep -qx 'series: 2 (open 0, waiting 0, reviewed 2, skipped 0)' '$tmp/out3' &&
	 grep -q 'level=info event=too-old not_sent=1 max_age=259200' '$tmp/age.out' || { cat '$tmp/out3' '$tmp/age.out'; false; }"
"$rb" run -n --config "$tmp/age.conf" --since 2026-11-01 >"$tmp/age-n.out" 2>&1
check "... and with --since, a backfill from that date" \
	"grep -q '^source \"leds\": reads mail dated from 2026-11-01 00:00:00 UTC on (--since' '$tmp/age-n.out' || { cat '$tmp/age-n.out'; false; }"
"$rb" run --once --config "$tmp/age.conf" --since 2026-11-01 >"$tmp/age.out" 2>&1; st=$?
"$rb" status --config "$tmp/age.conf" >"$tmp/out3" 2>&1
check "backfill: the archive is stored and reviewed, nothing more is mailed (the 2085 patch is old)" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/db/age-out/new' | wc -l) -eq 1 ] &&
	 grep -q 'level=info event=backfill source=leds since=\"2026-11-01 00:00:00 UTC\"' '$tmp/age.out' &&
	 grep -qx 'series: 7 (open 0, waiting 0, reviewed 7, skipped 0)' '$tmp/out3' || { cat '$tmp/out3' '$tmp/age.out'; false; }"
check "... the old command is refused, not carried out, logged and counted" \
	"grep -qx 'opt-outs: 0' '$tmp/out3' && grep -q 'event=command-refused msgid=oldcmd@example.com command=optout .*reason=\"its Date: is older than \\[policy\\] max_age\"' '$tmp/age.out' &&
	 grep -qx 'commands: 0 pending confirmation, 1 refused' '$tmp/out3' || { cat '$tmp/out3' '$tmp/age.out'; false; }"
# the refused command queues no answer: 6 replies too old, all reviews
check "... status counts the 6 replies not sent for their age" \
	"grep -qx 'replies: 7 (pending 0, due 0, held by cap 0, sent 1, failed 0, suppressed 6 (6 too old: \\[policy\\] max_age))' '$tmp/out3' || { cat '$tmp/out3'; false; }"
check "... the log and the summary line say so" \
	"grep -q 'level=info event=too-old not_sent=5 max_age=259200' '$tmp/age.out' &&
	 grep -q ', 5 too old to answer (\\[policy\\] max_age);' '$tmp/age.out' || { cat '$tmp/age.out'; false; }"
"$rb" status --database "$tmp/db/age.db" --json >"$tmp/json3"
check "... and --json as replies.too_old" \
	"/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[\"replies\"]; sys.exit(not (r[\"too_old\"] == 6 and r[\"held\"] == 0))' '$tmp/json3'"

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
