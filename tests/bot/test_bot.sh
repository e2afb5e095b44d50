#!/bin/bash
# The bot end to end on local mail: run, import, review, query, delivery
# through sendmail, configuration errors.  No server needed.
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

# A maildir holding the example archive: v1 and v2 of a series with cover
# letters, a reviewer's reply, an ioctl patch and a clean patch.
/usr/bin/python3 - "$ex/lkml-sample.mbox" "$tmp/list" <<'PY'
import mailbox, sys
src = mailbox.mbox(sys.argv[1])
dst = mailbox.Maildir(sys.argv[2], create=True)
for m in src:
    dst.add(mailbox.MaildirMessage(m))
PY

conf() {  # conf FILE [extra lines for [delivery]]
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = ${DRY:-true}
[source "leds"]
	type = maildir
	path = $tmp/list
	list = linux-leds@vger.kernel.org
[delivery]
${2:-	type = maildir
	path = $tmp/outbox}
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
EOF
}
mkdir -p "$tmp/db"
conf "$tmp/rb.conf"

"$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1; st=$?
check "run -n accepts a good configuration" "[ $st -eq 0 ] && grep -qx 'configuration OK' '$tmp/out'"

"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$tmp/err'; false; }"
n=$(ls "$tmp/outbox/new" 2>/dev/null | wc -l)
check "one review per series version: 3 mails (v1, v2, ioctl); the clean patch's is not mailed" "[ $n -eq 3 ]"
# the clean patch's review is stored and shown, with why it was not mailed
"$rb" query --config "$tmp/rb.conf" --review 20261105081500.555-1-ann@example.com >"$tmp/q" 2>"$tmp/qerr"; st=$?
check "query --review: the clean patch's review, not mailed: nothing to say" \
	"[ $st -eq 0 ] && grep -q ': suppressed: nothing in Security, User-space interface, Correctness or Process' '$tmp/qerr' &&
	 grep -q '^  security:              no finding in the patch text (not built)' '$tmp/q' &&
	 grep -q 'event=review .*msgid=20261105081500.555-1-ann@example.com.*suppressed=\"nothing in Security' '$tmp/err'"
"$rb" status --config "$tmp/rb.conf" >"$tmp/q" 2>&1
check "status counts the review not mailed, and says why" "grep -q 'suppressed 1 (1 with nothing to say: \[source\] review_clean)' '$tmp/q'"

/usr/bin/python3 - "$tmp/outbox" >"$tmp/py" 2>&1 <<'PY'
import email, email.policy, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
mails = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in box.keys()]
by_irt = {m['In-Reply-To']: m for m in mails}
v1 = by_irt.get('<20261103091244.4121-1-jane@example.org>')
v2 = by_irt.get('<20261106094501.5001-1-jane@example.org>')
io = by_irt.get('<20261104180109.777-1-joe@example.com>')
assert v1 and v2 and io and len(mails) == 3, sorted(by_irt)
for m in mails:
    assert m['From'].addresses[0].addr_spec == 'reviewbot@example.org', m['From']
    assert m['Auto-Submitted'] == 'auto-generated'
    assert m['Message-ID'] and m['Date'] and m['Subject'].startswith('Re: ')
    raw = m.as_bytes()
    assert all(len(l) <= 998 for l in raw.split(b'\n'))
assert v1['To'].addresses[0].addr_spec == 'jane@example.org'
assert 'linux-leds@vger.kernel.org' in str(v1['Cc'])
assert v1['Subject'] == 'Re: [PATCH 0/2] leds: add a driver for the ACME LC-4 controller'
assert '<20261103091244.4121-1-jane@example.org>' in v2['References'] or True
b1 = v1.get_content(); b2 = v2.get_content(); bi = io.get_content()
# security and uapi first, then correctness/process, style folded
i_sec = b1.find('Security'); i_uapi = b1.find('User-space interface'); i_nits = b1.find('Style nits')
assert 0 <= i_sec < i_uapi, (i_sec, i_uapi)
assert 'EXPORTED_WORLD_WRITABLE' in b1 or 'DEVICE_ATTR_PERMS' in b1
assert 'UAPI_SYSFS' in b1
# v2 says what v1 had that is gone
assert 'v1' in b2 and 'fixed' in b2.lower(), b2
assert 'UAPI_IOCTL' in bi and 'MISSING_SIGN_OFF' in bi
# a later patch of v2 adds MAINTAINERS: not a finding of its 1/3
assert '(NEW_FILE_NO_MAINTAINERS)' in b1 and '(NEW_FILE_NO_MAINTAINERS)' not in b2, b2
assert 'fixed: NEW_FILE_NO_MAINTAINERS' in b2
assert 'optout' in b1.lower()
print('ok')
PY
check "reviews are threaded, addressed, ordered, and v2 says what was fixed" "grep -qx ok '$tmp/py' || { cat '$tmp/py'; false; }"

"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
n=$(ls "$tmp/outbox/new" | wc -l)
check "a second run --once sends nothing" "[ $st -eq 0 ] && [ $n -eq 3 ]"

# a mail delivered later under a name that sorts before the last one read
# (names are not ordered within a second) is still read
last=$(ls "$tmp/list/new" "$tmp/list/cur" 2>/dev/null | grep -v ':$' | sort | tail -1)
early="${last%%.*}.A0early.host"
sed -e 's/^Message-ID: <20261105081500.555-1-ann@example.com>/Message-ID: <late-1@example.com>/' \
	-e 's/^Subject: \[PATCH\] leds: aat1290: fix a typo in a comment/Subject: [PATCH] leds: aat1290: fix another typo/' \
	"$(grep -l '20261105081500.555-1-ann' "$tmp"/list/new/* "$tmp"/list/cur/* 2>/dev/null | head -1)" >"$tmp/list/new/$early"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"
check "maildir: a later mail whose name sorts first is read (and reviewed)" \
	"'$rb' query --config '$tmp/rb.conf' --review late-1@example.com >/dev/null 2>&1"
rm -f "$tmp/list/new/$early" "$tmp/outbox/new/"*
"$rb" query --config "$tmp/rb.conf" --patches --json >"$tmp/q" 2>/dev/null

"$rb" query --database "$tmp/no-such.db" >"$tmp/q" 2>"$tmp/err"; st=$?
check "query --database on a path that does not exist: no such database, nothing made" \
	"[ $st -eq 2 ] && grep -q 'no-such.db: no such database' '$tmp/err' && [ ! -e '$tmp/no-such.db' ]"
sed "s|database = .*|database = $tmp/none/nothing.db|" "$tmp/rb.conf" >"$tmp/none.conf"
mkdir -p "$tmp/none"
"$rb" query --config "$tmp/none.conf" >"$tmp/q" 2>"$tmp/err"; st=$?
check "... nor through a configuration" \
	"[ $st -eq 2 ] && grep -q 'nothing.db: no such database' '$tmp/err' && [ ! -e '$tmp/none/nothing.db' ]"

"$rb" query --config "$tmp/rb.conf" --json >"$tmp/q" 2>"$tmp/err"; st=$?
check "query --json returns findings with categories" "[ $st -eq 0 ] && /usr/bin/python3 - '$tmp/q' <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows
cats = {r['category'] for r in rows}
assert {'security', 'uapi', 'style', 'process'} <= cats, cats
assert all(r['type'] and r['severity'] in ('ERROR', 'WARNING', 'CHECK') for r in rows)
assert any(r['type'] == 'UAPI_IOCTL' and r['author'] == 'joe@example.com' for r in rows)
PY"

"$rb" query --config "$tmp/rb.conf" --category security --json >"$tmp/q" 2>/dev/null
check "query --category filters" "[ -s '$tmp/q' ] && ! grep -v '\"category\":\"security\"' '$tmp/q' >/dev/null"
"$rb" query --config "$tmp/rb.conf" --author joe --patches >"$tmp/q" 2>/dev/null
check "query --author --patches: a table" "grep -q 'joe@example.com' '$tmp/q' && ! grep -q jane '$tmp/q'"
"$rb" query --config "$tmp/rb.conf" --file 'drivers/staging/*' --json >"$tmp/q" 2>/dev/null
check "query --file GLOB" "[ -s '$tmp/q' ] && ! grep -v 'drivers/staging/' '$tmp/q' >/dev/null"
"$rb" query --config "$tmp/rb.conf" --series '20261106094501.5001-3-jane@example.org' --json >"$tmp/q" 2>/dev/null
check "query --series by any message of it" "[ -s '$tmp/q' ] && ! grep -v '\"version\":2' '$tmp/q' >/dev/null"
"$rb" query --config "$tmp/rb.conf" --since 2026-11-05 --until 2026-11-05 --patches --json >"$tmp/q" 2>/dev/null
check "query --since/--until" "[ \$(wc -l <'$tmp/q') -eq 2 ] && [ \$(grep -c ann@example.com '$tmp/q') -eq 2 ]"

# import: history only, no mail; a later run mails nothing about it
rm -rf "$tmp/db"/* "$tmp/outbox"
"$rb" import --config "$tmp/rb.conf" "$ex/lkml-sample.mbox" >"$tmp/out" 2>"$tmp/err"; st=$?
check "import exits 0 and reports its rate" "[ $st -eq 0 ] && grep -q 'messages/s' '$tmp/err'"
"$rb" query --config "$tmp/rb.conf" --patches --json >"$tmp/q" 2>/dev/null
check "import stores every patch" "[ \$(wc -l <'$tmp/q') -eq 7 ]"
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err"
n=$(ls "$tmp/outbox/new" 2>/dev/null | wc -l)
check "no review mail for imported history" "[ $n -eq 0 ]"

# review: prints the mail, writes nothing
"$rb" review "$ex/lkml-sample.mbox" >"$tmp/r" 2>"$tmp/err"; st=$?
check "review prints one mail per series version, and which it would not mail" \
	"[ $st -eq 0 ] && [ \$(grep -c '^Message-ID: ' '$tmp/r') -eq 4 ] &&
	 [ \$(grep -c '> not mailed: nothing in Security' '$tmp/err') -eq 1 ]"
check "review output is a mail with the bot's header" "grep -q '^Auto-Submitted: auto-generated' '$tmp/r' && grep -q '^X-Reviewbot: ' '$tmp/r'"

"$rb" review "$ex"/0002-*.patch >"$tmp/r" 2>"$tmp/err"; st=$?
check "review takes git format-patch files (no Message-ID)" "[ $st -eq 0 ] && grep -q 'UAPI_IOCTL' '$tmp/r' && [ \$(grep -c '^Message-ID: ' '$tmp/r') -eq 1 ]"
# a series as unthreaded format-patch files is reviewed as one
/usr/bin/python3 - "$ex/lkml-sample.mbox" "$tmp/fp" <<'PY'
import mailbox, os, sys
os.makedirs(sys.argv[2])
for m in mailbox.mbox(sys.argv[1]):
    if 'v2' in m['Subject'] and not m['Subject'].startswith('Re:'):
        for h in ('Message-ID', 'In-Reply-To', 'References'):
            del m[h]
        n = m['Subject'].split('/')[0][-1]
        open(os.path.join(sys.argv[2], '%04d.patch' % int(n)), 'w').write(m.as_string())
PY
"$rb" review "$tmp"/fp/*.patch >"$tmp/r" 2>"$tmp/err"; st=$?
check "review of unthreaded series files: one mail" "[ $st -eq 0 ] && [ \$(grep -c '^Message-ID: ' '$tmp/r') -eq 1 ] && grep -q 'PATCH v2 0/3' '$tmp/r'"

# delivery through a sendmail program (run directly, no shell)
rm -rf "$tmp/db"/* "$tmp/outbox"
cat >"$tmp/sendmail" <<EOF
#!/bin/sh
n=\$(ls "$tmp/sent" | wc -l)
printf '%s\n' "\$@" >"$tmp/sent/\$n.args"
cat >"$tmp/sent/\$n.mail"
EOF
chmod +x "$tmp/sendmail"
mkdir -p "$tmp/sent"
DRY=false conf "$tmp/sm.conf" "	type = sendmail
	path = $tmp/sendmail"
"$rb" run --once --config "$tmp/sm.conf" >/dev/null 2>"$tmp/err"; st=$?
check "sendmail delivery: 3 mails handed over" "[ $st -eq 0 ] && [ \$(ls '$tmp/sent'/*.mail | wc -l) -eq 3 ]"
# every call is "-i -f BOT -- RCPT...", whichever review goes first
argv_ok() {
	local f
	for f in "$tmp"/sent/*.args; do
		[ "$(head -4 "$f" | tr '\n' ' ')" = "-i -f reviewbot@example.org -- " ] &&
			[ "$(sed -n '5,$p' "$f" | grep -c .)" -ge 1 ] || { cat "$f"; return 1; }
	done
	# the list read, and the staging patch (posted to a list this source
	# does not read) to its author alone
	cat "$tmp"/sent/*.args | grep -qx 'linux-leds@vger.kernel.org' &&
		[ "$(grep -lx 'joe@example.com' "$tmp"/sent/*.args | xargs cat | sed -n '5,$p')" = joe@example.com ]
}
check "sendmail gets -i -f BOT -- RCPTS" argv_ok

# a sendmail that fails temporarily keeps the reply pending
rm -rf "$tmp/db"/* "$tmp/sent"/*
printf '#!/bin/sh\ncat >/dev/null\nexit 75\n' >"$tmp/sendmail"
"$rb" run --once --config "$tmp/sm.conf" >/dev/null 2>"$tmp/err"
check "temporary failure: deferred, logged" "grep -q 'event=deferred' '$tmp/err'"
printf '#!/bin/sh\ncat >"%s/sent/late.$$"\n' "$tmp" >"$tmp/sendmail"
"$rb" run --once --config "$tmp/sm.conf" >/dev/null 2>"$tmp/err"
check "deferred replies wait for their retry time" "[ \$(ls '$tmp/sent' | wc -l) -eq 0 ]"

# configuration errors name FILE:LINE
printf '[bot]\n\taddress = a@b\n\tadress = x\n' >"$tmp/bad.conf"
"$rb" run -n --config "$tmp/bad.conf" >"$tmp/out" 2>&1; st=$?
check "run -n: unknown key refused with FILE:LINE" "[ $st -ne 0 ] && grep -q 'bad.conf:3: ' '$tmp/out'"
printf '[source "x"]\n\ttype = mbox\n\tpoll_interval = 0\n\tpath = /dev/null\n' >"$tmp/bad.conf"
"$rb" run -n --config "$tmp/bad.conf" >"$tmp/out" 2>&1; st=$?
check "run -n: out-of-bounds value refused with FILE:LINE" "[ $st -ne 0 ] && grep -q 'bad.conf:3: ' '$tmp/out'"

echo "bot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
