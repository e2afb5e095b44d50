# SMTP servers on 127.0.0.1 that store each message as a file (sourced by
# the integration tests, after lib.sh and it_init; needs $repo).
#
#   smtp_start NAME [--auth USER:PWFILE] [--tls CERT:KEY] [--smtps CERT:KEY]
#                         our aiosmtpd server (tests/integration/
#                         smtp_server.py) with its folder $IT/smtp-NAME:
#                         mbox/ (maildir), raw/N.eml + raw/N.json (the
#                         bytes off the wire and the envelope), events,
#                         control (see smtp_mode).  --auth requires AUTH,
#                         --tls offers and requires STARTTLS, --smtps
#                         is TLS from the start.
#                         Sets SMTP_PORT and SMTP_DIR.
#   smtp_start_stock NAME stock `python3 -m aiosmtpd` with its Mailbox
#                         handler into $IT/smtp-NAME/mbox; sets SMTP_PORT
#                         and SMTP_DIR
#   smtp_mode DIR MODE [ARG]
#                         switches the server of DIR: accept, 421, 451,
#                         550 [ADDR], 554, drop (smtp_server.py says what
#                         each does); takes effect at the next command
#   smtp_count DIR        messages in DIR's maildir
#   smtp_events DIR RE    lines of DIR/events matching the extended RE
#   smtp_cert             a self-signed certificate for 127.0.0.1:
#                         sets SMTP_CERT and SMTP_KEY (under $IT)
#
# aiosmtpd refuses lines over 1,000 bytes (reviewbot's mail never has
# them) and does not close the connection after a 421 by itself.

smtp_start() {
	local name=$1
	shift
	SMTP_PORT=$(it_port)
	SMTP_DIR=$IT/smtp-$name
	mkdir -p "$SMTP_DIR"
	it_bg "smtp-$name" /usr/bin/python3 "$repo/tests/integration/smtp_server.py" \
		--port "$SMTP_PORT" --dir "$SMTP_DIR" "$@"
	it_wait_port "$SMTP_PORT"
}

smtp_start_stock() {
	local name=$1
	SMTP_PORT=$(it_port)
	SMTP_DIR=$IT/smtp-$name
	mkdir -p "$SMTP_DIR"
	it_bg "smtp-$name" /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" \
		-c aiosmtpd.handlers.Mailbox "$SMTP_DIR/mbox"
	it_wait_port "$SMTP_PORT"
}

smtp_mode() {
	local dir=$1
	shift
	echo "$*" >"$dir/control.tmp" && mv "$dir/control.tmp" "$dir/control"
}

smtp_count() {
	find "$1/mbox/new" "$1/mbox/cur" -type f 2>/dev/null | wc -l
}

smtp_events() {
	if [ -f "$1/events" ]; then
		grep -cE "$2" "$1/events"
	else
		echo 0
	fi
}

smtp_cert() {
	SMTP_CERT=$IT/smtp-cert.pem
	SMTP_KEY=$IT/smtp-key.pem
	[ -s "$SMTP_CERT" ] && return 0
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 \
		-keyout "$SMTP_KEY" -out "$SMTP_CERT" >"$IT/openssl.log" 2>&1
}
