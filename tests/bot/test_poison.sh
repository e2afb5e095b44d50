#!/bin/bash
# A mail whose check never finishes must not stop the bot for ever: it
# is stored before it is checked, so a check that kills the process (a
# crash, SIGKILL, the OOM killer) would otherwise kill every start.
# Each message is charged an attempt (committed) before its check; at
# the next start a message still charged by the dead process is checked
# once more in a child process, and when that check does not finish
# either the message is marked bad with the reason and never checked
# again, and the rest of its batch is reviewed.  Through `run --once`
# (the batch path, checked ahead on the checker threads, then the
# pending walk) and `import`, with:
#   - the real input that crashes the checker at the time of writing
#     (#define X(a,a,...) with 8,500 arguments: SIGSEGV); once the
#     checker no longer crashes on it, it is simply reviewed
#   - the test hook REVIEWBOT_TEST_CRASH_ON (SIGKILL in the middle of the
#     check of a patch holding the text), which always kills
#   - the test hook REVIEWBOT_TEST_UNFINISHED_ON (a check that says it
#     did not finish, as the checker's time budget will): bad at once
# and stops (SIGTERM) and kills (SIGKILL) of the daemon in the middle of
# batches blame no message.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG REVIEWBOT_TEST_CRASH_ON REVIEWBOT_TEST_UNFINISHED_ON
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# mails DIR KIND: a maildir of five one-patch mails, the third one the
# poison: KIND real (the crashing #define), marker (a patch holding
# POISON-MARKER) or unfinished (UNFINISHED-MARKER)
mails() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import os, sys
box, kind = sys.argv[1:]
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
def patch(mid, line):
    return ('From: Dev %s <dev-%s@example.com>\nTo: linux-leds@vger.kernel.org\n'
            'List-Id: <linux-leds.vger.kernel.org>\n'
            'Subject: [PATCH] leds: %s: add a helper\nDate: Tue, 10 Nov 2026 12:00:00 +0000\n'
            'Message-ID: <%s@example.com>\n\nAdd a helper.\n\n'
            'Signed-off-by: Dev %s <dev-%s@example.com>\n---\n'
            'diff --git a/drivers/leds/%s.c b/drivers/leds/%s.c\n'
            'index 1111111..2222222 100644\n--- a/drivers/leds/%s.c\n+++ b/drivers/leds/%s.c\n'
            '@@ -1,3 +1,%d @@\n int a;\n int b;\n+%s\n int d;\n'
            % ((mid,) * 10 + (4 + line.count('\n+'), line)))
poison = {
    'real': '#define X(%s,...) 0' % ','.join(['a'] * 8500),
    'marker': 'int poison; /* POISON-MARKER */',
    'unfinished': 'int slow; /* UNFINISHED-MARKER */',
    # a 1 MB comment: one of checkpatch.pl's patterns scans its line once
    # per starting position, for minutes (checkpatch.pl itself: 2)
    'long': '/* ' + ' '.join(['x'] * 500000) + ' */',
    # 300 calls of 1,500 arguments: tens of ms each
    'slow': '\n+'.join(['\tfoo(' + ','.join(['a'] * 1500) + ');'] * 300),
}[kind]
for n, mid in enumerate(['ok1', 'ok2', 'poison', 'ok3', 'ok4']):
    line = poison if mid == 'poison' else 'int %s_x ;' % mid
    with open(os.path.join(box, 'new', '%d.%04d.%s:2,' % (1800000000 + n, n, mid)), 'w') as f:
        f.write(patch(mid, line))
PY
}

# conf NAME: a configuration for $tmp/NAME (maildir source, outbox)
conf() {
	mkdir -p "$tmp/$1/db"
	cat >"$tmp/$1/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/$1/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $tmp/$1/list
	list = linux-leds@vger.kernel.org
[delivery]
	type = maildir
	path = $tmp/$1/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	review_clean = true	# every reviewed series mailed
EOF
}

sql() {  # sql DB QUERY
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print('|'.join('' if v is None else str(v) for v in r))
PY
}
outbox() { ls "$tmp/$1/outbox/new" 2>/dev/null | wc -l; }

# starts NAME CMD...: runs CMD (a start of the bot) until it exits 0, at
# most 4 times; sets $crashes to the starts it did not live through and
# $st to the last exit status
starts() {
	local name=$1 i
	shift
	crashes=0
	for i in 1 2 3 4; do
		# (a subshell that waits: its report of a crash goes to err)
		("$@"; exit $?) >"$tmp/$name/out.$i" 2>"$tmp/$name/err.$i"
		st=$?
		[ $st -eq 0 ] && return 0
		crashes=$((crashes + 1))
	done
}

state_of() {  # state_of NAME MSGID: "state|reason"
	sql "$tmp/$1/db/reviewbot.db" "SELECT state, reason FROM messages WHERE message_id = '$2@example.com'"
}

# ---- the test hook: a SIGKILL in the middle of the check --------------------
conf hook
mails "$tmp/hook/list" marker
starts hook env REVIEWBOT_TEST_CRASH_ON=POISON-MARKER "$rb" run --once --config "$tmp/hook/rb.conf"
check "run: a check that kills the process: one crashing start, then one that lives" \
	"[ $crashes -eq 1 ] && [ $st -eq 0 ]"
check "run: the message is bad, with the reason" \
	"[ \"\$(state_of hook poison)\" = '6|check did not finish after 2 attempts' ]"
check "run: the rest of the batch is reviewed (4 reviews)" \
	"[ \$(outbox hook) -eq 4 ] && [ \"\$(sql '$tmp/hook/db/reviewbot.db' \"SELECT count(*) FROM messages WHERE state = 1\")\" = 4 ]"
check "run: the mark is logged" \
	"grep -q 'event=message-bad.*check did not finish after 2 attempts.*last=\"killed by signal 9' '$tmp/hook/err.2'"
env REVIEWBOT_TEST_CRASH_ON=POISON-MARKER "$rb" run --once --config "$tmp/hook/rb.conf" \
	>"$tmp/hook/out.5" 2>"$tmp/hook/err.5"
check "run: never checked again" \
	"[ $? -eq 0 ] && [ \"\$(state_of hook poison)\" = '6|check did not finish after 2 attempts' ]"

# ---- the same through import --------------------------------------------------
conf himp
mails "$tmp/himp/list" marker
starts himp env REVIEWBOT_TEST_CRASH_ON=POISON-MARKER "$rb" import --config "$tmp/himp/rb.conf" "$tmp/himp/list"
check "import: one crashing import, then one that lives" "[ $crashes -eq 1 ] && [ $st -eq 0 ]"
check "import: the message is bad, the other 4 checked" \
	"[ \"\$(state_of himp poison)\" = '6|check did not finish after 2 attempts' ] &&
	 [ \"\$(sql '$tmp/himp/db/reviewbot.db' \"SELECT count(*) FROM messages WHERE state = 1\")\" = 4 ] &&
	 [ \"\$(sql '$tmp/himp/db/reviewbot.db' \"SELECT count(*) FROM patches WHERE checked = 1\")\" = 4 ]"

# ---- the real input -------------------------------------------------------------
conf real
mails "$tmp/real/list" real
starts real "$rb" run --once --config "$tmp/real/rb.conf"
echo "# the real input: $crashes crashing starts, then exit $st; poison: $(state_of real poison | cut -c1-60)"
check "run, real input: at most 2 crashing starts, then one that lives" "[ $crashes -le 2 ] && [ $st -eq 0 ]"
check "run, real input: the message is bad with the reason, or (the checker fixed) reviewed" \
	"case \"\$(state_of real poison)\" in '6|check did not finish after 2 attempts') [ $crashes -ge 1 ];; 1*) [ $crashes -eq 0 ];; *) false;; esac"
check "run, real input: the other 4 are reviewed" \
	"[ \"\$(sql '$tmp/real/db/reviewbot.db' \"SELECT count(*) FROM messages WHERE state = 1 AND message_id LIKE 'ok%'\")\" = 4 ] && [ \$(outbox real) -ge 4 ]"
conf rimp
mails "$tmp/rimp/list" real
starts rimp "$rb" import --config "$tmp/rimp/rb.conf" "$tmp/rimp/list"
check "import, real input: at most 2 crashing imports, the other 4 checked" \
	"[ $crashes -le 2 ] && [ $st -eq 0 ] &&
	 [ \"\$(sql '$tmp/rimp/db/reviewbot.db' \"SELECT count(*) FROM messages WHERE state = 1 AND message_id LIKE 'ok%'\")\" = 4 ]"

# ---- a check that did not finish ---------------------------------------------------
conf unf
mails "$tmp/unf/list" unfinished
REVIEWBOT_TEST_UNFINISHED_ON=UNFINISHED-MARKER "$rb" run --once --config "$tmp/unf/rb.conf" \
	>"$tmp/unf/out" 2>"$tmp/unf/err"
st=$?
check "a check that did not finish: bad at once, with the checker's reason" \
	"[ $st -eq 0 ] && state_of unf poison | grep -q '^6|check did not finish: '"
check "... not in a series, no review; the other 4 reviewed" \
	"[ -z \"\$(sql '$tmp/unf/db/reviewbot.db' \"SELECT series_id FROM messages WHERE message_id = 'poison@example.com'\")\" ] &&
	 [ \"\$(sql '$tmp/unf/db/reviewbot.db' \"SELECT count(*) FROM patches p JOIN messages m ON m.id = p.msg_id WHERE m.message_id = 'poison@example.com'\")\" = 0 ] &&
	 [ \$(outbox unf) -eq 4 ]"

# ---- a real check past its time budget ([limits] check_seconds) ----------------
conf slow
printf '[limits]\n\tcheck_seconds = 2\n' >>"$tmp/slow/rb.conf"
mails "$tmp/slow/list" slow
t0=$(date +%s)
"$rb" run --once --config "$tmp/slow/rb.conf" >"$tmp/slow/out" 2>"$tmp/slow/err"
st=$?
check "a check past check_seconds: bad at once with the reason, the run not held up" \
	"[ $st -eq 0 ] && [ \$(( \$(date +%s) - t0 )) -lt 60 ] &&
	 state_of slow poison | grep -q '^6|check did not finish: the check ran past its time budget'"
check "... the other 4 reviewed" "[ \$(outbox slow) -eq 4 ]"

# ---- a line too long to check ---------------------------------------------------
conf long
mails "$tmp/long/list" long
t0=$(date +%s)
"$rb" run --once --config "$tmp/long/rb.conf" >"$tmp/long/out" 2>"$tmp/long/err"
st=$?
check "a 1 MB line: not checked, the patch reviewed at once with LINE_NOT_CHECKED" \
	"[ $st -eq 0 ] && [ \$(( \$(date +%s) - t0 )) -lt 30 ] && [ \$(outbox long) -eq 5 ] &&
	 grep -l 'poison@example.com' '$tmp/long/outbox/new'/* | xargs grep -q LINE_NOT_CHECKED"

# ---- stops give the attempts back ------------------------------------------------
# SIGTERM three times in the middle of a batch: no message is blamed
conf stop
/usr/bin/python3 - "$tmp/stop/list" <<'PY'
import os, sys
box = sys.argv[1]
for d in ('new', 'cur', 'tmp'):
    os.makedirs(os.path.join(box, d), exist_ok=True)
for n in range(300):
    body = ''.join('+int v%d_%d ;\n' % (n, k) for k in range(200))
    with open(os.path.join(box, 'new', '%d.%04d.s%d:2,' % (1800000000 + n, n, n)), 'w') as f:
        f.write('From: Dev <dev%d@example.com>\nTo: l@example.org\nSubject: [PATCH] leds: s%d\n'
                'Date: Tue, 10 Nov 2026 12:00:00 +0000\nMessage-ID: <s%d@example.com>\n\n'
                'Add.\n\nSigned-off-by: Dev <dev%d@example.com>\n---\n'
                '--- a/drivers/leds/s%d.c\n+++ b/drivers/leds/s%d.c\n@@ -1,1 +1,201 @@\n int a;\n%s'
                % (n, n, n, n, n, n, body))
PY
for i in 1 2 3; do
	"$rb" run --config "$tmp/stop/rb.conf" >/dev/null 2>"$tmp/stop/err.$i" &
	pid=$!
	for _ in $(seq 100); do
		[ -s "$tmp/stop/db/reviewbot.db" ] && grep -q 'event=review\|event=patch\|event=start' "$tmp/stop/err.$i" && break
		sleep 0.05
	done
	sleep 0.3
	kill -TERM $pid
	wait $pid
done
check "three stops in the middle of batches: no attempt left counted" \
	"[ \"\$(sql '$tmp/stop/db/reviewbot.db' \"SELECT count(*) FROM messages WHERE attempts > 0 OR claim IS NOT NULL\")\" = 0 ]"
"$rb" run --once --config "$tmp/stop/rb.conf" >/dev/null 2>"$tmp/stop/err.4"
check "... and the next run reviews them all, none bad" \
	"[ \"\$(sql '$tmp/stop/db/reviewbot.db' \"SELECT state, count(*) FROM messages GROUP BY state\")\" = '1|300' ]"

# SIGKILL at random moments, ten times: suspects are checked again in a
# child, none is blamed
conf kill
/usr/bin/python3 - "$tmp/stop/list" "$tmp/kill/list" <<'PY'
import shutil, sys
shutil.copytree(sys.argv[1], sys.argv[2])
PY
for i in $(seq 10); do
	"$rb" run --config "$tmp/kill/rb.conf" >/dev/null 2>>"$tmp/kill/err" &
	pid=$!
	sleep "0.$((RANDOM % 9 + 1))"
	kill -KILL $pid
	wait $pid 2>/dev/null
done
"$rb" run --once --config "$tmp/kill/rb.conf" >/dev/null 2>>"$tmp/kill/err"
check "ten SIGKILLs at random moments: every message reviewed, none bad" \
	"[ \"\$(sql '$tmp/kill/db/reviewbot.db' \"SELECT state, count(*) FROM messages GROUP BY state\")\" = '1|300' ]"
echo "# checked again in a child after the kills: $(grep -c 'event=recheck ' "$tmp/kill/err")"

echo "poison: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
