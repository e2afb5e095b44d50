#!/bin/bash
# make bench, part 3: end-to-end latency.  A patch saved into a dovecot
# mailbox (the daemon waits in IMAP IDLE) until its review is accepted by
# an SMTP server (aiosmtpd), over BENCH_PATCHES patches (default 50), one
# at a time; prints p50 and p95.  Real servers on 127.0.0.1, stopped at
# the end.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
. "$repo/tests/integration/smtp.sh"
it_init latency
n=${BENCH_PATCHES:-50}

dc_start
smtp_start out
OUT=$SMTP_DIR
printf '%s\n' "$DC_PASS" >"$IT/imap.pass"
chmod 600 "$IT/imap.pass"

# n patches by n authors (so no per-author cap applies), each a real
# corpus-style patch: the example ioctl patch with its own id and subject
/usr/bin/python3 - "$repo/examples/lkml-sample.mbox" "$IT" "$n" <<'PY'
import mailbox, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = [m for m in mailbox.mbox(src) if 'joe@example.com' in m['Message-ID']][0]
for i in range(n):
    m = mailbox.mboxMessage(base)
    m.replace_header('Message-ID', '<bench-%d@example.com>' % i)
    m.replace_header('Subject', '[PATCH] staging: acme: bench change %d' % i)
    m.replace_header('From', 'Dev %d <dev%d@example.com>' % (i, i))
    open('%s/p%d.eml' % (out, i), 'w').write(m.as_string().replace('joe@example.com', 'dev%d@example.com' % i))
PY

cat >"$IT/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "imap"]
	type = imap
	url = imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX
	password_file = $IT/imap.pass
	ca_file = $DC_CA
	list = linux-staging@lists.linux.dev
	poll_interval = 3600
[delivery]
	type = smtp
	url = smtp://127.0.0.1:$SMTP_PORT
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF

"$rb" run --config "$IT/rb.conf" >"$IT/daemon.out" 2>"$IT/daemon.err" &
IT_PIDS+=($!)
sleep 2

: >"$IT/lat"
for i in $(seq 0 $((n - 1))); do
	t0=$(date +%s.%N)
	dc_save "$IT/p$i.eml"
	for _ in $(seq 600); do
		[ "$(smtp_count "$OUT")" -gt "$i" ] && break
		sleep 0.02
	done
	t1=$(date +%s.%N)
	echo "$t0 $t1" >>"$IT/lat"
done

/usr/bin/python3 - "$IT/lat" "$(smtp_count "$OUT")" "$n" <<'PY'
import sys
lat = sorted(float(b) - float(a) for a, b in (l.split() for l in open(sys.argv[1])))
got, n = int(sys.argv[2]), int(sys.argv[3])
def pct(p):
    return lat[min(len(lat) - 1, int(round(p / 100 * (len(lat) - 1))))]
print(f"{'latency IMAP save -> SMTP 250':<28} {n} patches, {got} reviews: "
      f"p50 {pct(50):.2f} s, p95 {pct(95):.2f} s, max {lat[-1]:.2f} s")
PY
