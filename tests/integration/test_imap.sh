#!/bin/bash
# The IMAP source against a real dovecot on 127.0.0.1: first run, nothing
# marked \Seen, IDLE wake-up, a session killed by `doveadm kick`,
# UIDVALIDITY change, password handling, imaps:// and STARTTLS.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
it_init imap
ex=$repo/examples

dc_start || { echo "imap: cannot start dovecot"; exit 1; }

# the example archive, one file per message; and fresh single patches
/usr/bin/python3 - "$ex/lkml-sample.mbox" "$IT/msgs" <<'PY'
import mailbox, os, sys
os.makedirs(sys.argv[2])
for i, m in enumerate(mailbox.mbox(sys.argv[1])):
    with open(os.path.join(sys.argv[2], "%02d.eml" % i), "wb") as f:
        f.write(m.as_bytes(unixfrom=False))
PY
newpatch() {  # newpatch N FILE: a clean one-patch series of its own
	/usr/bin/python3 - "$ex/lkml-sample.mbox" "$1" "$2" <<'PY'
import mailbox, sys
n, out = sys.argv[2], sys.argv[3]
for m in mailbox.mbox(sys.argv[1]):
    if "555-1-ann" in m["Message-ID"]:
        del m["Message-ID"], m["Subject"], m["From"]
        m["Message-ID"] = "<imap-%s@example.com>" % n
        m["Subject"] = "[PATCH] leds: aat1290: fix typo number %s" % n
        m["From"] = "Dev %s <dev%s@example.com>" % (n, n)
        open(out, "wb").write(m.as_bytes(unixfrom=False))
PY
}
save_all() { local f; for f in "$IT"/msgs/*.eml; do dc_save "$f" || return 1; done; }

printf '%s\n' "$DC_PASS" >"$IT/pass"
chmod 600 "$IT/pass"
conf() {  # conf FILE URL DBNAME [extra source lines] [noca]
	local ca="	ca_file = $DC_CA"
	[ "${5:-}" = noca ] && ca=
	mkdir -p "$IT/db"
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db/$3.db
	templates = $repo/templates
	dry_run = true
[source "list"]
	type = imap
	url = $2
	password_file = $IT/pass
	list = linux-leds@vger.kernel.org
	poll_interval = 3600
$ca
${4:-}
[delivery]
	type = maildir
	path = $IT/out-$3
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
EOF
}
reviews() { ls "$IT/out-$1/new" 2>/dev/null | wc -l; }
url=imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX

# 1. what was there before the first run
save_all || bad "doveadm save"
conf "$IT/a.conf" "$url" a
"$rb" run --once --config "$IT/a.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "run --once over IMAP exits 0" "[ $st -eq 0 ] || { cat '$IT/err'; false; }"
check "the example series: 4 reviews" "[ \$(reviews a) -eq 4 ] || { cat '$IT/err'; false; }"
"$rb" run --once --config "$IT/a.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "a second run --once adds nothing" "[ $st -eq 0 ] && [ \$(reviews a) -eq 4 ]"
check "the checkpoint moved: nothing fetched again" "! grep -q 'message-skipped' '$IT/err'"
dc_doveadm fetch -u "$DC_USER" flags mailbox INBOX >"$IT/flags" 2>&1
check "messages are still unseen on the server (BODY.PEEK)" \
	"[ \$(grep -c '^flags:' '$IT/flags') -eq 10 ] && ! grep -q Seen '$IT/flags' || { cat '$IT/flags'; false; }"

# 2. IDLE: the daemon wakes for new mail
wait_reviews() {  # wait_reviews DB N SECS: 0 when there are N
	local i
	for i in $(seq $(($3 * 20))); do
		[ "$(reviews "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
it_bg daemon "$rb" run --config "$IT/a.conf" --verbose
sleep 2	# connected and idling
newpatch 1 "$IT/p1.eml"
t0=$(date +%s.%N)
dc_save "$IT/p1.eml"
if wait_reviews a 5 10; then
	t1=$(date +%s.%N)
	lat=$(echo "$t1 - $t0" | bc)
	echo "# IDLE latency: ${lat} s (saved -> review in the outbox)"
	ok "IDLE: a patch saved while the daemon runs is reviewed within 10 s"
else
	bad "IDLE: a patch saved while the daemon runs is reviewed within 10 s"
	cat "$IT/daemon.log"
fi

# 3. the session killed on the server: logged, reconnected, nothing lost
dc_doveadm kick "$DC_USER" >/dev/null 2>&1
for _ in $(seq 100); do grep -q 'event=source-failed' "$IT/daemon.log" && break; sleep 0.1; done
check "doveadm kick: the failure is logged" "grep -q 'event=source-failed' '$IT/daemon.log'"
newpatch 2 "$IT/p2.eml"
dc_save "$IT/p2.eml"
check "after the kick: a new patch is reviewed (reconnected)" \
	"wait_reviews a 6 20 || { cat '$IT/daemon.log'; false; }"
check "after the kick: the daemon says it recovered" "grep -q 'event=source-recovered' '$IT/daemon.log'"
sleep 1
check "no duplicate review: 6 in all" "[ \$(reviews a) -eq 6 ]"
check "no password in the daemon's log" "! grep -qF '$DC_PASS' '$IT/daemon.log'"
kill "${IT_PIDS[-1]}" 2>/dev/null
wait "${IT_PIDS[-1]}" 2>/dev/null

# 4. UIDVALIDITY changes: everything comes again, nothing is reviewed twice
dc_doveadm expunge -u "$DC_USER" mailbox INBOX all
dc_doveadm mailbox update -u "$DC_USER" --uid-validity 4242 INBOX
save_all; dc_save "$IT/p1.eml"; dc_save "$IT/p2.eml"
"$rb" run --once --config "$IT/a.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "UIDVALIDITY change: run exits 0 and logs it" \
	"[ $st -eq 0 ] && grep -q 'event=uidvalidity-changed' '$IT/err' || { cat '$IT/err'; false; }"
check "UIDVALIDITY change: no second review" "[ \$(reviews a) -eq 6 ]"

# 5. passwords
chmod 644 "$IT/pass"
"$rb" run --once --config "$IT/a.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "a password file readable by others is refused" \
	"[ $st -ne 0 ] && grep -q 'readable by others' '$IT/err' || { cat '$IT/err'; false; }"
printf 'Wr0ng-Secret-77\n' >"$IT/pass"
chmod 600 "$IT/pass"
conf "$IT/w.conf" "$url" w
"$rb" run --once --config "$IT/w.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "a wrong password fails with a clear error" \
	"[ $st -ne 0 ] && grep -q 'login as bot failed' '$IT/err' || { cat '$IT/err'; false; }"
check "the error does not hold the password" "! grep -q 'Wr0ng-Secret-77' '$IT/err'"
printf '%s\n' "$DC_PASS" >"$IT/pass"

# 6. TLS
conf "$IT/s.conf" "imaps://$DC_USER@127.0.0.1:$DC_IMAPS_PORT/INBOX" s
"$rb" run --once --config "$IT/s.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "imaps:// with ca_file: reviews" "[ $st -eq 0 ] && [ \$(reviews s) -eq 6 ] || { cat '$IT/err'; false; }"
conf "$IT/s2.conf" "imaps://$DC_USER@127.0.0.1:$DC_IMAPS_PORT/INBOX" s2 "" noca
"$rb" run --once --config "$IT/s2.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "imaps:// with a self-signed certificate and no ca_file: refused" \
	"[ $st -ne 0 ] && grep -q 'not trusted' '$IT/err' && [ \$(reviews s2) -eq 0 ] || { cat '$IT/err'; false; }"
conf "$IT/t.conf" "$url" t "	starttls = true"
"$rb" run --once --config "$IT/t.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "imap:// with starttls = true: reviews" "[ $st -eq 0 ] && [ \$(reviews t) -eq 6 ] || { cat '$IT/err'; false; }"
conf "$IT/t2.conf" "imap://$DC_USER@localhost:$DC_IMAP_PORT/INBOX" t2 "	starttls = true" noca
"$rb" run --once --config "$IT/t2.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "STARTTLS with an untrusted certificate: refused before LOGIN" \
	"[ $st -ne 0 ] && grep -q 'not trusted' '$IT/err' || { cat '$IT/err'; false; }"
# a server without TLS
main_conf=$DC_CONF
DC_DIR=$IT/dovecot-plain dc_start nossl || bad "second dovecot"
conf "$IT/p.conf" "imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX" p "	starttls = true"
"$rb" run --once --config "$IT/p.conf" >"$IT/out" 2>"$IT/err"; st=$?
check "starttls = true against a server without STARTTLS: refused" \
	"[ $st -ne 0 ] && grep -q 'does not offer STARTTLS' '$IT/err' || { cat '$IT/err'; false; }"
check "nothing was logged in on the plain server" "! grep -q 'Login: user=<bot>' '$IT/dovecot-plain/dovecot.log'"
DC_CONF=$main_conf

it_done
