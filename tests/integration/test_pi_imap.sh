#!/bin/bash
# public-inbox over its IMAP face: a patch delivered with public-inbox-mda
# is read from inbox.test.0 (found with LIST) and reviewed; a second run
# reads nothing again.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/public_inbox.sh"
it_init pi_imap
ex=$repo/examples

pi_start || { echo "pi_imap: cannot start public-inbox-netd"; exit 1; }
mkdir -p "$IT/db"
cat >"$IT/rb.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $IT/db/rb.db
	templates = $repo/templates
	dry_run = true
[source "pi"]
	type = public-inbox
	url = $PI_IMAP_URL
	list = $PI_ADDRESS
	poll_interval = 3600
[delivery]
	type = maildir
	path = $IT/out
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
CONF
reviews() { ls "$IT/out/new" 2>/dev/null | wc -l; }

pi_deliver_mbox "$ex/lkml-sample.mbox" >"$IT/mda.log" 2>&1 || { cat "$IT/mda.log"; bad "public-inbox-mda"; }
"$rb" run --once --config "$IT/rb.conf" >"$IT/out.txt" 2>"$IT/err"; st=$?
check "run --once over public-inbox IMAP exits 0" "[ $st -eq 0 ] || { cat '$IT/err'; false; }"
check "the example series: 4 reviews" "[ \$(reviews) -eq 4 ] || { cat '$IT/err'; false; }"
"$rb" run --once --config "$IT/rb.conf" >"$IT/out.txt" 2>"$IT/err"; st=$?
check "a second run adds nothing" "[ $st -eq 0 ] && [ \$(reviews) -eq 4 ]"

/usr/bin/python3 - "$ex/lkml-sample.mbox" "$IT/p1.eml" <<'PY'
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    if "555-1-ann" in m["Message-ID"]:
        del m["Message-ID"], m["Subject"], m["From"]
        m["Message-ID"] = "<pi-imap-1@example.com>"
        m["Subject"] = "[PATCH] leds: aat1290: fix typo over imap"
        m["From"] = "Dev One <dev1@example.com>"
        open(sys.argv[2], "wb").write(m.as_bytes(unixfrom=False))
PY
pi_deliver "$IT/p1.eml" || bad "public-inbox-mda (new patch)"
"$rb" run --once --config "$IT/rb.conf" >"$IT/out.txt" 2>"$IT/err"; st=$?
check "a patch delivered with public-inbox-mda is reviewed" "[ $st -eq 0 ] && [ \$(reviews) -eq 5 ] || { cat '$IT/err'; false; }"

# the daemon, waiting in IDLE on the newest slice (it crashed in
# libetpan's IDLE when probing for the next slice had left no mailbox
# selected): a patch delivered while it waits is reviewed
sed -e 's/pi-imap-1@example.com/pi-imap-2@example.com/' -e 's/fix typo over imap/fix typo while idle/' \
	"$IT/p1.eml" >"$IT/p2.eml"
"$rb" run --config "$IT/rb.conf" >"$IT/daemon.out" 2>"$IT/daemon.err" &
d=$!
IT_PIDS+=($d)
sleep 3
pi_deliver "$IT/p2.eml" || bad "public-inbox-mda (patch while idle)"
for _ in $(seq 150); do [ "$(reviews)" -ge 6 ] && break; sleep 0.1; done
alive=0
kill -0 $d 2>/dev/null && alive=1
kill -TERM $d 2>/dev/null
wait $d; st=$?
check "the daemon in IDLE reviews a patch delivered meanwhile, and stops cleanly" \
	"[ $alive -eq 1 ] && [ $st -eq 0 ] && [ \$(reviews) -eq 6 ] || { cat '$IT/daemon.err'; false; }"

# Mail that arrives between a fetch and the next IDLE: public-inbox then
# answers IDLE with "* N EXISTS" before "+ idling", and libetpan's
# mailimap_idle() waited there for good (its read timeout is reset by
# every line the server sends, "* OK Still here" each minute; seen in a
# replay of a real list).  Here each review's delivery (a sendmail) puts
# the next patch into the archive, so every patch lands in that window:
# all are read and reviewed, none waits.
mkdir -p "$IT/queue" "$IT/sent" "$IT/db2"
for i in 1 2 3 4 5 6; do
	sed -e "s/pi-imap-1@example.com/pi-window-$i@example.com/" \
	    -e "s/fix typo over imap/fix typo in the window $i/" \
	    -e "s/^From: .*/From: Dev W$i <devw$i@example.com>/" \
	    -e "0,/^Subject:/s//Cc: $PI_ADDRESS\n&/" "$IT/p1.eml" >"$IT/queue/$i.eml"
done
cat >"$IT/sendmail" <<EOF
#!/bin/bash
n=\$(ls "$IT/sent" | wc -l)
cat >"$IT/sent/\$n.mail"
next=\$(ls "$IT/queue" | sort -n | head -1)
if [ -n "\$next" ]; then
	ORIGINAL_RECIPIENT=$PI_ADDRESS public-inbox-mda <"$IT/queue/\$next" >>"$IT/sm-mda.log" 2>&1
	rm -f "$IT/queue/\$next"
fi
exit 0
EOF
chmod +x "$IT/sendmail"
sed -e "s|$IT/db/rb.db|$IT/db2/rb.db|" -e 's/dry_run = true/dry_run = false/' \
    -e 's/type = maildir/type = sendmail/' -e "s|path = $IT/out\$|path = $IT/sendmail|" \
    "$IT/rb.conf" >"$IT/window.conf"
"$rb" run --config "$IT/window.conf" >"$IT/window.out" 2>"$IT/window.err" &
d=$!
IT_PIDS+=($d)
# the example's 4 reviews, the 2 patches above and the 6 queued: 12
for _ in $(seq 600); do [ "$(ls "$IT/sent" | wc -l)" -ge 12 ] && break; sleep 0.1; done
sent=$(ls "$IT/sent" | wc -l)
kill -TERM $d 2>/dev/null
wait $d
echo "# mail arriving between a fetch and the next IDLE: $sent of 12 reviews sent within 60 s"
check "patches arriving between a fetch and the next IDLE (EXISTS before the continuation): all reviewed at once" \
	"[ $sent -eq 12 ] && [ -z \"\$(ls '$IT/queue')\" ] || { tail -20 '$IT/window.err'; false; }"

it_done
