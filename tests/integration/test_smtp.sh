#!/bin/bash
# SMTP delivery against aiosmtpd on 127.0.0.1: the example archive's four
# reviews sent with AUTH (envelope, headers, CRLF, marked sent); 4xx and a
# dropped connection keep replies pending and a later run sends each once;
# 5xx fails them with the server's words; STARTTLS required, verified and
# refused; a wrong or exposed password; dot-stuffing, long lines and
# hostile addresses.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/integration/lib.sh"
. "$repo/tests/integration/smtp.sh"
it_init smtp
ex=$repo/examples
LIST=linux-leds@vger.kernel.org

# the example archive as a maildir source
/usr/bin/python3 - "$ex/lkml-sample.mbox" "$IT/list" <<'PY'
import mailbox, sys
dst = mailbox.Maildir(sys.argv[2], create=True)
for m in mailbox.mbox(sys.argv[1]):
    dst.add(mailbox.MaildirMessage(m))
PY

PASSWORD='s3cret-Pa55:word'
printf '%s\n' "$PASSWORD" >"$IT/pass"
chmod 600 "$IT/pass"
printf 'not-the-password\n' >"$IT/wrongpass"
chmod 600 "$IT/wrongpass"

conf() {  # conf NAME URL [extra [delivery] lines]: $IT/NAME.conf, db $IT/db-NAME
	mkdir -p "$IT/db-$1"
	cat >"$IT/$1.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $IT/db-$1/reviewbot.db
	templates = $repo/templates
	dry_run = false
[source "leds"]
	type = maildir
	path = $IT/list
	list = $LIST
[delivery]
	type = smtp
	url = $2
${3:-}
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
EOF
}

run() {  # run NAME: one `run --once`, stderr in $IT/NAME.err (appended)
	"$rb" run --once --config "$IT/$1.conf" >>"$IT/$1.out" 2>>"$IT/$1.err"
}

replies() {  # replies NAME: "state attempts reason" per reply, by id
	/usr/bin/python3 - "$IT/db-$1/reviewbot.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
for st, at, reason in db.execute("SELECT state, attempts, reason FROM replies ORDER BY id"):
    print(st, at, reason or "")
PY
}

count_state() {  # count_state NAME STATE [ATTEMPTS]
	replies "$1" | awk -v s="$2" -v a="${3:-}" '$1 == s && (a == "" || $2 == a)' | wc -l
}

due_now() {  # due_now NAME: pending replies due at once (no faked clock)
	/usr/bin/python3 - "$IT/db-$1/reviewbot.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE replies SET next_attempt = 0 WHERE state = 0")
db.commit()
PY
}

no_password_in() {  # no_password_in FILE...: neither password in logs or the store
	! grep -aqF -e "$PASSWORD" -e not-the-password "$@"
}

# ---- the four reviews, with AUTH ------------------------------------------
smtp_start main --auth "bot:$IT/pass" || { echo "smtp: cannot start aiosmtpd"; exit 1; }
MAIN=$SMTP_DIR
MPORT=$SMTP_PORT
conf main "smtp://bot@127.0.0.1:$SMTP_PORT" "	password_file = $IT/pass"
"$rb" run -n --config "$IT/main.conf" >"$IT/n.out" 2>&1; st=$?
check "run -n accepts an smtp delivery" "[ $st -eq 0 ] && grep -qx 'configuration OK' '$IT/n.out' || { cat '$IT/n.out'; false; }"
run main; st=$?
check "run --once exits 0" "[ $st -eq 0 ] || { cat '$IT/main.err'; false; }"
check "the server holds exactly the 4 reviews" "[ \$(smtp_count $MAIN) -eq 4 ] && [ \$(smtp_events $MAIN '^DATA 250') -eq 4 ]"
check "AUTH was used" "[ \$(smtp_events $MAIN '^AUTH [A-Z]+ ok') -eq 4 ] && [ \$(smtp_events $MAIN 'AUTH .* bad') -eq 0 ]"
check "the store marks the 4 sent, none pending" "[ \$(count_state main 1 1) -eq 4 ] && [ \$(count_state main 0) -eq 0 ]"
/usr/bin/python3 - "$MAIN" "$IT/db-main/reviewbot.db" "$LIST" >"$IT/py" 2>&1 <<'PY'
import email, email.policy, glob, json, sqlite3, sys
folder, dbfile, lst = sys.argv[1:]
db = sqlite3.connect("file:%s?mode=ro" % dbfile, uri=True)
stored = {mid: (frm, rcpt, body) for mid, frm, rcpt, body in
          db.execute("SELECT message_id, mail_from, rcpt, body FROM replies")}
authors = {
    "<20261103091244.4121-1-jane@example.org>": "jane@example.org",
    "<20261106094501.5001-1-jane@example.org>": "jane@example.org",
    "<20261104180109.777-1-joe@example.com>": "joe@example.com",
    "<20261105081500.555-1-ann@example.com>": "ann@example.com",
}
seen = set()
for raw in sorted(glob.glob(folder + "/raw/*.eml")):
    data = open(raw, "rb").read()
    env = json.load(open(raw[:-4] + ".json"))
    # CRLF on the wire, and nothing but CRLF
    assert data.endswith(b"\r\n") and b"\n" not in data.replace(b"\r\n", b""), raw
    assert all(len(l) <= 998 for l in data.split(b"\r\n")), raw
    m = email.message_from_bytes(data, policy=email.policy.default)
    mid = m["Message-ID"].strip()
    frm, rcpt, body = stored[mid.strip("<>")]
    # byte for byte what the store holds, LF made CRLF
    assert data == body.encode().replace(b"\n", b"\r\n"), mid
    assert env["mail_from"] == frm == "reviewbot@example.org", env
    assert env["rcpt"] == [a.strip() for a in rcpt.split(",")], (env, rcpt)
    assert env["auth"] and not env["tls"], env
    assert m["From"].addresses[0].addr_spec == "reviewbot@example.org"
    irt = m["In-Reply-To"].strip()
    assert irt in authors, irt
    assert m["To"].addresses[0].addr_spec == authors[irt], (irt, str(m["To"]))
    # the list only when the patch reached it: joe's went to
    # linux-staging, which no source here names, and is answered privately
    if authors[irt] == "joe@example.com":
        assert m["Cc"] is None and env["rcpt"] == [authors[irt]], (str(m["Cc"]), env)
    else:
        assert lst in str(m["Cc"]), str(m["Cc"])
        assert authors[irt] in env["rcpt"] and lst in env["rcpt"], env
    seen.add(irt)
assert seen == set(authors), seen
print("ok")
PY
check "each review: From the bot, To the author, Cc the list it reached, In-Reply-To the cover, envelope = store, CRLF, same bytes" \
	"grep -qx ok '$IT/py' || { cat '$IT/py'; false; }"
run main
check "a second run sends nothing" "[ \$(smtp_events $MAIN '^DATA') -eq 4 ]"
check "sent lines logged, no password anywhere" \
	"[ \$(grep -c 'event=sent' '$IT/main.err') -eq 4 ] && no_password_in '$IT/main.err' '$IT/main.out' '$IT/smtp-main.log' '$IT/db-main/reviewbot.db'"

# the stock aiosmtpd Mailbox server, no AUTH, no STARTTLS on offer
smtp_start_stock stock
conf stock "smtp://127.0.0.1:$SMTP_PORT"
run stock
check "stock aiosmtpd -c Mailbox gets the 4 reviews" "[ \$(smtp_count $SMTP_DIR) -eq 4 ] && [ \$(count_state stock 1) -eq 4 ]"

# ---- 4xx for a while, then delivered exactly once ---------------------------
smtp_start faults
F=$SMTP_DIR
FPORT=$SMTP_PORT
smtp_mode "$F" 451
conf t451 "smtp://127.0.0.1:$FPORT"
run t451
check "451 at DATA: nothing stored, the 4 pending after 1 attempt" \
	"[ \$(smtp_count $F) -eq 0 ] && [ \$(count_state t451 0 1) -eq 4 ]"
check "451: the server's words kept as the reason, deferred logged" \
	"replies t451 | grep '^0 1 451 4.3.0 Requested action aborted: try again later\$' >/dev/null && [ \$(grep -c 'event=deferred' '$IT/t451.err') -eq 4 ]"
run t451
check "deferred replies wait for their retry time" "[ \$(smtp_events $F '^DATA 451') -eq 4 ]"
due_now t451
run t451
check "still 451: attempts counted" "[ \$(count_state t451 0 2) -eq 4 ] && [ \$(smtp_count $F) -eq 0 ]"
smtp_mode "$F" accept
due_now t451
run t451
check "the fault cleared: the 4 delivered" "[ \$(smtp_count $F) -eq 4 ] && [ \$(count_state t451 1 3) -eq 4 ]"
due_now t451
run t451
check "and delivered exactly once" "[ \$(smtp_count $F) -eq 4 ] && [ \$(smtp_events $F '^DATA 250') -eq 4 ]"

# 421 at MAIL FROM (the server closes): pending
smtp_mode "$F" 421
conf t421 "smtp://127.0.0.1:$FPORT"
run t421
check "421: the 4 pending with the server's words" \
	"[ \$(count_state t421 0 1) -eq 4 ] && replies t421 | grep '^0 1 421 4.3.2 ' >/dev/null && [ \$(smtp_count $F) -eq 4 ]"

# dropped connection after the data, before the final reply: pending
smtp_mode "$F" drop
conf tdrop "smtp://127.0.0.1:$FPORT"
run tdrop
check "dropped connection: the 4 pending, nothing stored" \
	"[ \$(count_state tdrop 0 1) -eq 4 ] && [ \$(smtp_events $F '^DATA drop') -eq 4 ] && [ \$(smtp_count $F) -eq 4 ]"
smtp_mode "$F" accept
due_now tdrop
run tdrop
check "after the drop, a later run delivers them" "[ \$(count_state tdrop 1 2) -eq 4 ] && [ \$(smtp_count $F) -eq 8 ]"

# nothing listens: pending
conf trefused "smtp://127.0.0.1:$(it_port)"
run trefused
check "connection refused: the 4 pending, logged, the others not tried in the same cycle" \
	"[ \$(count_state trefused 0 1) -eq 1 ] && [ \$(count_state trefused 0 0) -eq 3 ] && [ \$(grep -c 'event=deferred' '$IT/trefused.err') -eq 1 ]"

# ---- 5xx: failed with the server's words ----------------------------------
smtp_mode "$F" 550 "$LIST"
conf t550 "smtp://127.0.0.1:$FPORT"
run t550
# (joe's review, private, has no list RCPT: delivered)
check "550 for the list's RCPT: the 3 to the list failed, nothing stored (all or nothing)" \
	"[ \$(count_state t550 2 1) -eq 3 ] && [ \$(count_state t550 1 1) -eq 1 ] && [ \$(smtp_count $F) -eq 9 ]"
check "550: the server's words stored and logged" \
	"replies t550 | grep -x '2 1 550 5.1.1 <$LIST>: user unknown' >/dev/null && grep -q 'event=failed.*550 5.1.1' '$IT/t550.err'"
due_now t550
run t550
check "a failed reply is not tried again" "[ \$(smtp_events $F '^RCPT .* 550') -eq 3 ]"

smtp_mode "$F" 554
conf t554 "smtp://127.0.0.1:$FPORT"
run t554
check "554 at the end of DATA: failed" "replies t554 | grep '^2 1 554 5.6.0 Message content rejected' >/dev/null && [ \$(count_state t554 2) -eq 4 ]"
smtp_mode "$F" accept

# ---- STARTTLS ---------------------------------------------------------------
conf tnotls "smtp://127.0.0.1:$FPORT" "	starttls = true"
before=$(smtp_events "$F" '^MAIL')
run tnotls
check "STARTTLS required, not offered: no mail sent, pending, error logged" \
	"[ \$(smtp_events $F '^MAIL') -eq $before ] && [ \$(count_state tnotls 0 1) -eq 4 ] && grep -q 'event=deferred.*STARTTLS' '$IT/tnotls.err'"

if smtp_cert; then
	smtp_start tls --tls "$SMTP_CERT:$SMTP_KEY" --auth "bot:$IT/pass"
	T=$SMTP_DIR
	conf ttls "smtp://bot@127.0.0.1:$SMTP_PORT" "	starttls = true
	ca_file = $SMTP_CERT
	password_file = $IT/pass"
	run ttls
	check "STARTTLS with the CA file, then AUTH: the 4 delivered over TLS" \
		"[ \$(count_state ttls 1) -eq 4 ] && grep -q '\"tls\": true' '$T/raw/0.json' && grep -q '\"auth\": true' '$T/raw/0.json'"
	conf ttlsopt "smtp://bot@127.0.0.1:$SMTP_PORT" "	ca_file = $SMTP_CERT
	password_file = $IT/pass"
	run ttlsopt
	check "STARTTLS used when offered (not required by the config)" \
		"[ \$(count_state ttlsopt 1) -eq 4 ] && [ \$(smtp_count $T) -eq 8 ]"
	conf tnoca "smtp://bot@127.0.0.1:$SMTP_PORT" "	starttls = true
	password_file = $IT/pass"
	run tnoca
	check "an unknown certificate is refused: pending, no AUTH sent" \
		"[ \$(count_state tnoca 0 1) -eq 4 ] && [ \$(smtp_count $T) -eq 8 ] && [ \$(smtp_events $T '^AUTH') -eq 8 ]"
	smtp_start smtps --smtps "$SMTP_CERT:$SMTP_KEY" --auth "bot:$IT/pass"
	conf tsmtps "smtps://bot@127.0.0.1:$SMTP_PORT" "	ca_file = $SMTP_CERT
	password_file = $IT/pass"
	run tsmtps
	check "smtps:// (TLS from the start): the 4 delivered" \
		"[ \$(count_state tsmtps 1) -eq 4 ] && [ \$(smtp_count $SMTP_DIR) -eq 4 ] && grep -q '\"tls\": true' '$SMTP_DIR/raw/0.json'"
else
	bad "openssl made no certificate: $(cat "$IT/openssl.log")"
fi

# ---- passwords ---------------------------------------------------------------
conf twrong "smtp://bot@127.0.0.1:$MPORT" "	password_file = $IT/wrongpass"
run twrong
check "a wrong password: 535 is permanent, the 4 failed with the server's words" \
	"[ \$(count_state twrong 2 1) -eq 4 ] && replies twrong | grep '^2 1 535 5.7.8 Authentication credentials invalid' >/dev/null && [ \$(smtp_count $MAIN) -eq 4 ]"
check "no password in the logs or the store" \
	"no_password_in '$IT/twrong.err' '$IT/twrong.out' '$IT/smtp-main.log' '$IT/db-twrong/reviewbot.db'"

chmod 644 "$IT/pass"
conf topen "smtp://bot@127.0.0.1:$MPORT" "	password_file = $IT/pass"
run topen
check "a password file readable by others: pending, said why" \
	"[ \$(count_state topen 0 1) -eq 4 ] && grep -q 'readable by others' '$IT/topen.err' && no_password_in '$IT/topen.err'"
chmod 600 "$IT/pass"

conf tenv "smtp://bot@127.0.0.1:$MPORT" "	password_env = RB_TEST_SMTP_PASSWORD"
RB_TEST_SMTP_PASSWORD=$PASSWORD run tenv
check "password_env works" "[ \$(count_state tenv 1) -eq 4 ] && [ \$(smtp_count $MAIN) -eq 8 ]"

conf turlpw "smtp://bot:$PASSWORD@127.0.0.1:$MPORT"
run turlpw; st=$?
check "a password in the url is refused, and not echoed" \
	"[ $st -ne 0 ] && grep -q 'without a password' '$IT/turlpw.err' && no_password_in '$IT/turlpw.err' '$IT/turlpw.out'"

for u in "imaps://127.0.0.1:$MPORT" "smtp://" "smtp://bot:x@127.0.0.1:$MPORT"; do
	conf tbadurl "$u"
	"$rb" run -n --config "$IT/tbadurl.conf" >"$IT/tbadurl.out" 2>&1; st=$?
	check "run -n refuses the delivery url $u, the password not echoed" \
		"[ $st -ne 0 ] && grep -qE 'url.* must (be|start with) smtp' '$IT/tbadurl.out' && ! grep -q 'bot:x' '$IT/tbadurl.out'"
done

# ---- what compose never makes, put in the store by hand ---------------------
smtp_mode "$F" accept
/usr/bin/python3 - "$IT/db-t451/reviewbot.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def add(mid, rcpt, body, frm="reviewbot@example.org"):
    db.execute("INSERT INTO replies (message_id, kind, mail_from, rcpt, body, state,"
               " attempts, created, next_attempt) VALUES (?, 'confirm', ?, ?, ?, 0, 0, 0, 0)",
               (mid, frm, rcpt, body))
hdr = "From: reviewbot@example.org\nTo: x@example.org\nSubject: t\nMessage-ID: %s\n\n"
add("<dots@t>", "x@example.org", hdr % "<dots@t>" + ".\n..two\n.three\nend.\n.")
add("<long@t>", "x@example.org", hdr % "<long@t>" + "a" * 999 + "\n")
add("<crlf@t>", "x@example.org\r\nRSET", hdr % "<crlf@t>" + "hi\n")
add("<angle@t>", "x@example.org>, y@example.org", hdr % "<angle@t>" + "hi\n")
add("<norcpt@t>", " , ", hdr % "<norcpt@t>" + "hi\n")
add("<badfrom@t>", "x@example.org", hdr % "<badfrom@t>" + "hi\n", "a b@example.org")
db.commit()
PY
n0=$(smtp_count "$F")
run t451
/usr/bin/python3 - "$IT/db-t451/reviewbot.db" "$F" >"$IT/py" 2>&1 <<'PY'
import glob, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
r = {mid: (st, reason) for mid, st, reason in
     db.execute("SELECT message_id, state, reason FROM replies WHERE message_id LIKE '%@t>'")}
assert r["<dots@t>"][0] == 1, r["<dots@t>"]
for mid in ("<long@t>", "<crlf@t>", "<angle@t>", "<norcpt@t>", "<badfrom@t>"):
    assert r[mid][0] == 2, (mid, r[mid])
assert "longer than 998" in r["<long@t>"][1], r["<long@t>"]
assert "not a plain mail address" in r["<crlf@t>"][1], r["<crlf@t>"]
assert "\r" not in r["<crlf@t>"][1] and "\n" not in r["<crlf@t>"][1]
assert "no recipient" in r["<norcpt@t>"][1], r["<norcpt@t>"]
# the dots arrive as written: libcurl stuffed them, aiosmtpd unstuffed them
body = [open(f, "rb").read() for f in glob.glob(sys.argv[2] + "/raw/*.eml")]
body = [b for b in body if b"<dots@t>" in b]
assert len(body) == 1, len(body)
assert body[0].endswith(b"\r\n\r\n.\r\n..two\r\n.three\r\nend.\r\n.\r\n"), body[0][-60:]
print("ok")
PY
check "dot-stuffing round trip; long line, CRLF, '>' in an address, no recipient, bad sender refused" \
	"grep -qx ok '$IT/py' || { cat '$IT/py'; false; }"
check "only the dotted mail reached the server" "[ \$(smtp_count $F) -eq $((n0 + 1)) ] && ! grep -q RSET '$F/events'"

it_done
