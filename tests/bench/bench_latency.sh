#!/bin/bash
# make bench, part 3: end-to-end latency, from a patch posted until its
# review is accepted by an SMTP server (aiosmtpd), one patch at a time:
#   - saved into a dovecot mailbox, the daemon waiting in IMAP IDLE
#     (BENCH_PATCHES patches, default 20);
#   - archived by public-inbox (public-inbox-mda, timed from when the
#     archive holds it), read by the daemon over HTTP (new.atom polled
#     every BENCH_PI_POLL seconds, the source's poll_interval, default 1;
#     the shipped default is 60) and over public-inbox-netd's IMAP (IDLE)
#     (BENCH_PI_PATCHES patches each, default 10).
# Prints the median, p95 and maximum of each, in seconds, and how long
# posting itself took.  Real servers on 127.0.0.1, unprivileged ports,
# stopped at the end.  A part whose server is not installed (dovecot,
# public-inbox; deploy/install-deps.sh installs both) is skipped.
# Figures, not assertions: tests assert behaviour.  Exits non-zero only
# when reviews went missing (none within 60 s + the poll interval).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/dovecot.sh"
. "$repo/tests/integration/smtp.sh"
. "$repo/tests/integration/public_inbox.sh"
it_init latency
n=${BENCH_PATCHES:-20}
npi=${BENCH_PI_PATCHES:-10}
poll=${BENCH_PI_POLL:-1}
status=0

# patches PREFIX N [TO]: N patches by N authors (so no per-author cap
# applies), each the example ioctl patch with its own id, subject and
# date (now: [policy] max_age applies as in production)
patches() {
	/usr/bin/python3 - "$repo/examples/lkml-sample.mbox" "$IT" "$1" "$2" "${3:-}" <<'PY'
import email.utils, mailbox, sys
src, out, pfx, n, to = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
base = [m for m in mailbox.mbox(src) if 'joe@example.com' in m['Message-ID']][0]
for i in range(n):
    m = mailbox.mboxMessage(base)
    m.replace_header('Message-ID', '<%s-%d@example.com>' % (pfx, i))
    m.replace_header('Subject', '[PATCH] staging: acme: %s change %d' % (pfx, i))
    m.replace_header('From', 'Dev %d <dev%d@example.com>' % (i, i))
    m.replace_header('Date', email.utils.formatdate())
    if to:
        m.replace_header('To', to)
    open('%s/%s%d.eml' % (out, pfx, i), 'w').write(
        m.as_string().replace('joe@example.com', 'dev%d@example.com' % i))
PY
}

# conf FILE SOURCE-LINES: the daemon's configuration, SMTP delivery
conf() {
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/$(basename "$1" .conf).db
	templates = $repo/templates
	dry_run = false
$2
[delivery]
	type = smtp
	url = smtp://127.0.0.1:$SMTP_PORT
[policy]
	review_clean = true	# every review mailed, whatever it finds
	series_wait = 600
	max_replies_per_hour = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
EOF
}

# measure LABEL PREFIX N POST POLL: posts PREFIXi.eml with `POST FILE`
# for i < N, each time waiting for one more mail at the SMTP server (up
# to 60 s + POLL); the time from POST's return to the server's 250.
# With POLL > 0 (a polled source) each post waits a random part of POLL
# first: posted right after a review, a patch would always come just
# after a poll and wait nearly all of POLL
measure() {
	local label=$1 pfx=$2 n=$3 post=$4 wait_poll=$5 i base got
	base=$(smtp_count "$OUT")
	: >"$IT/lat-$pfx"
	for i in $(seq 0 $((n - 1))); do
		[ "$wait_poll" -eq 0 ] ||
			sleep "$(printf '%d.%03d' $((RANDOM % wait_poll)) $((RANDOM % 1000)))"
		tp=$(date +%s.%N)
		$post "$IT/$pfx$i.eml" || { echo "$label: posting $i failed" >&2; break; }
		t0=$(date +%s.%N)
		wait_until=$((SECONDS + 60 + wait_poll))
		while [ "$(smtp_count "$OUT")" -le $((base + i)) ] &&
		      [ "$SECONDS" -lt $((wait_until)) ]; do
			sleep 0.02
		done
		t1=$(date +%s.%N)
		echo "$t0 $t1 $tp" >>"$IT/lat-$pfx"
	done
	got=$(($(smtp_count "$OUT") - base))
	/usr/bin/python3 - "$IT/lat-$pfx" "$got" "$n" "$label" <<'PY'
import sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1])]
lat = sorted(t1 - t0 for t0, t1, tp in rows)
post = sorted(t0 - tp for t0, t1, tp in rows)
got, n, label = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def pct(v, p):
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
print(f"{label}: {n} patches, {got} reviews: "
      f"median {pct(lat, 50):.2f} s, p95 {pct(lat, 95):.2f} s, max {lat[-1]:.2f} s "
      f"(posting itself: median {pct(post, 50):.2f} s)")
PY
	if [ "$got" -lt "$n" ]; then
		echo "$label: $((n - got)) reviews missing (logs: $IT, kept)" >&2
		IT_KEEP=1
		status=1
	fi
}

start_daemon() {
	"$rb" run --config "$1" >"$IT/$2.out" 2>"$IT/$2.err" &
	DAEMON=$!
	IT_PIDS+=($DAEMON)
	sleep 2
}
stop_daemon() {
	kill -TERM "$DAEMON" 2>/dev/null
	wait "$DAEMON" 2>/dev/null
}

smtp_start out || { echo "bench latency: cannot start the SMTP server, skipped"; exit 0; }
OUT=$SMTP_DIR

# ---- dovecot, IMAP IDLE ------------------------------------------------------
if ! command -v dovecot >/dev/null || ! command -v doveadm >/dev/null; then
	echo "bench latency: dovecot missing, IMAP part skipped"
elif ! dc_start >"$IT/dc.log" 2>&1; then
	echo "bench latency: dovecot does not start, IMAP part skipped"
	sed 's/^/  /' "$IT/dc.log"
else
	printf '%s\n' "$DC_PASS" >"$IT/imap.pass"
	chmod 600 "$IT/imap.pass"
	patches imap "$n"
	conf "$IT/imap.conf" "[source \"imap\"]
	type = imap
	url = imap://$DC_USER@127.0.0.1:$DC_IMAP_PORT/INBOX
	password_file = $IT/imap.pass
	ca_file = $DC_CA
	list = linux-staging@lists.linux.dev
	poll_interval = 3600"
	start_daemon "$IT/imap.conf" imap
	measure "latency IMAP save -> SMTP 250 (dovecot, IDLE)" imap "$n" dc_save 0
	stop_daemon
	dc_stop
fi

# ---- public-inbox: HTTP (new.atom every $poll s) and IMAP (IDLE) -------------
if ! command -v public-inbox-netd >/dev/null || ! command -v public-inbox-mda >/dev/null; then
	echo "bench latency: public-inbox missing, public-inbox part skipped"
elif ! pi_start >"$IT/pi.log" 2>&1; then
	echo "bench latency: public-inbox-netd does not start, public-inbox part skipped"
	sed 's/^/  /' "$IT/pi.log"
else
	patches pih "$npi" "$PI_ADDRESS"
	patches pii "$npi" "$PI_ADDRESS"
	conf "$IT/pih.conf" "[source \"pi-http\"]
	type = public-inbox
	url = $PI_HTTP_URL
	list = $PI_ADDRESS
	poll_interval = $poll"
	start_daemon "$IT/pih.conf" pih
	measure "latency public-inbox archived -> SMTP 250 (HTTP, poll $poll s)" \
		pih "$npi" pi_deliver "$poll"
	stop_daemon
	conf "$IT/pii.conf" "[source \"pi-imap\"]
	type = public-inbox
	url = $PI_IMAP_URL
	list = $PI_ADDRESS
	poll_interval = 3600"
	start_daemon "$IT/pii.conf" pii
	measure "latency public-inbox archived -> SMTP 250 (netd IMAP, IDLE)" \
		pii "$npi" pi_deliver 0
	stop_daemon
fi
exit $status
