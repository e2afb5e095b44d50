# Dovecot on 127.0.0.1 for the IMAP tests (sourced after lib.sh and
# it_init).
#
#   dc_start [ssl]        starts dovecot with its state under $IT/dovecot:
#                         an imap listener (STARTTLS offered) and an imaps
#                         listener with a self-signed certificate for
#                         127.0.0.1/localhost ($DC_CA: the CA file to trust);
#                         "dc_start nossl": one plain listener, no TLS at all.
#                         Exports DC_USER, DC_PASS, DC_IMAP_PORT,
#                         DC_IMAPS_PORT (empty with nossl), DC_CONF.
#   dc_save FILE [BOX]    delivers FILE into BOX (default INBOX)
#   dc_doveadm ARGS...    doveadm with this instance's config
#   dc_stop               stops it (also done at exit)
#
# Mail belongs to the `mail` user (dovecot refuses uid 0).  Nothing
# depends on systemd; several instances may run at once (DC_DIR).

DC_USER=bot
DC_PASS='s3cret-Pass'

dc_start() {
	local mode=${1:-ssl} d
	d=${DC_DIR:-$IT/dovecot}
	DC_DIR=$d
	mkdir -p "$d/run" "$d/state" "$d/mail"
	chown -R mail:mail "$d/mail"
	chmod 755 "$d" "$d/run" "$d/state"
	DC_IMAP_PORT=$(it_port)
	DC_IMAPS_PORT=
	DC_CONF=$d/dovecot.conf
	DC_CA=$d/cert.pem
	echo "$DC_USER:{PLAIN}$DC_PASS::::::" >"$d/passwd"
	if [ "$mode" = ssl ]; then
		DC_IMAPS_PORT=$(it_port)
		while [ "$DC_IMAPS_PORT" = "$DC_IMAP_PORT" ]; do DC_IMAPS_PORT=$(it_port); done
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
			-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
			-keyout "$d/key.pem" -out "$d/cert.pem" >"$d/openssl.log" 2>&1 ||
			{ cat "$d/openssl.log" >&2; return 1; }
	fi
	cat >"$DC_CONF" <<EOF
base_dir = $d/run
state_dir = $d/state
log_path = $d/dovecot.log
info_log_path = $d/dovecot.log
instance_name = rb-it-$$-$RANDOM
listen = 127.0.0.1
protocols = imap
default_login_user = dovenull
default_internal_user = dovecot
auth_mechanisms = plain login
disable_plaintext_auth = no
mail_location = maildir:$d/mail/%u
mailbox_idle_check_interval = 1 secs
first_valid_uid = 1
first_valid_gid = 1
passdb {
  driver = passwd-file
  args = $d/passwd
}
userdb {
  driver = static
  args = uid=mail gid=mail home=$d/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $DC_IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${DC_IMAPS_PORT:-0}
    ssl = yes
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
EOF
	if [ "$mode" = ssl ]; then
		cat >>"$DC_CONF" <<EOF
ssl = yes
ssl_cert = <$d/cert.pem
ssl_key = <$d/key.pem
EOF
	else
		echo "ssl = no" >>"$DC_CONF"
	fi
	dovecot -c "$DC_CONF" >"$d/start.log" 2>&1 ||
		{ cat "$d/start.log" "$d/dovecot.log" >&2; return 1; }
	it_on_exit "doveadm -c '$DC_CONF' stop"
	it_wait_port "$DC_IMAP_PORT" || { cat "$d/dovecot.log" >&2; return 1; }
	[ -z "$DC_IMAPS_PORT" ] || it_wait_port "$DC_IMAPS_PORT" || return 1
	export DC_USER DC_PASS DC_IMAP_PORT DC_IMAPS_PORT DC_CONF DC_CA
}

dc_doveadm() {
	doveadm -c "$DC_CONF" "$@"
}

dc_save() {
	doveadm -c "$DC_CONF" save -u "$DC_USER" -m "${2:-INBOX}" <"$1"
}

dc_stop() {
	doveadm -c "$DC_CONF" stop 2>/dev/null || true
}
