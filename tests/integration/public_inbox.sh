# A public-inbox v2 archive served over HTTP, IMAP and NNTP by one
# public-inbox-netd on 127.0.0.1 (sourced by the integration tests, after
# lib.sh and it_init).
#
#   pi_start              creates the inbox "test" (address test@example.org,
#                         newsgroup inbox.test) under $IT/pi and starts netd
#                         (PI_FEEDMAX=N: N entries in new.atom, default 25);
#                         exports PI_HTTP_URL  http://127.0.0.1:P/test/
#                                 PI_IMAP_URL  imap://127.0.0.1:P2/inbox.test
#                                 PI_NNTP_URL  nntp://127.0.0.1:P3/inbox.test
#                         (+ PI_HTTP_PORT, PI_IMAP_PORT, PI_NNTP_PORT,
#                         PI_ADDRESS, PI_GROUP, PI_ACCESS_LOG)
#   pi_deliver FILE       one message into the inbox with public-inbox-mda;
#                         Cc: test@example.org is added when neither To nor
#                         Cc names it (mda silently drops such mail).
#                         Non-zero when mda fails or the message is not in the
#                         archive afterwards.
#   pi_deliver_mbox MBOX  every message of an mbox, in order
#   pi_count              messages in the archive
#   pi_http_requests PAT  HTTP requests so far whose request line matches
#                         the extended regex PAT, e.g. 'GET /test/new.atom'
#   pi_http_status PAT    the statuses of those requests, one a line
#   pi_paging on|off      whether new.atom honours ?t= (public-inbox does;
#                         "off" plays a server that ignores it)
#                         (new.atom answers with ETag/Last-Modified and 304s
#                         to conditional requests: see the app below)
#
# Everything (PI_CONFIG, HOME for git, the archive, logs) stays under $IT.
# The IMAP mailboxes are slices of 50,000 messages each (public-inbox's
# UID_SLICE): inbox.test.0 holds the first 50,000, inbox.test.1 the next.
#
# netd notices new mail by itself: an HTTP request, a NNTP GROUP or an IMAP
# SELECT/NOOP after pi_deliver returns sees it (measured: no SIGHUP needed);
# pi_deliver waits until msgmap has the message, so there is no race.

PI_ADDRESS=test@example.org
PI_GROUP=inbox.test

pi_start() {
	local p_http p_imap p_nntp
	mkdir -p "$IT/pi/home"
	export HOME=$IT/pi/home
	export PI_CONFIG=$IT/pi/config
	export PI_DIR=$IT/pi/inbox
	# git needs an identity for the archive's commits
	export GIT_AUTHOR_NAME=pi GIT_AUTHOR_EMAIL=pi@example.org
	export GIT_COMMITTER_NAME=pi GIT_COMMITTER_EMAIL=pi@example.org
	p_http=$(it_port)
	p_imap=$(it_port)
	p_nntp=$(it_port)
	while [ "$p_imap" = "$p_http" ]; do p_imap=$(it_port); done
	while [ "$p_nntp" = "$p_http" ] || [ "$p_nntp" = "$p_imap" ]; do
		p_nntp=$(it_port)
	done
	export PI_HTTP_PORT=$p_http PI_IMAP_PORT=$p_imap PI_NNTP_PORT=$p_nntp
	export PI_HTTP_URL=http://127.0.0.1:$p_http/test/
	export PI_IMAP_URL=imap://127.0.0.1:$p_imap/$PI_GROUP
	export PI_NNTP_URL=nntp://127.0.0.1:$p_nntp/$PI_GROUP
	export PI_ACCESS_LOG=$IT/pi/access.log

	public-inbox-init -V2 --ng "$PI_GROUP" test "$PI_DIR" "$PI_HTTP_URL" \
		"$PI_ADDRESS" >"$IT/pi/init.log" 2>&1 ||
		{ cat "$IT/pi/init.log" >&2; return 1; }
	git config --file "$PI_CONFIG" publicinboxmda.spamcheck none
	# the IMAP server needs a name for its capability greeting
	git config --file "$PI_CONFIG" publicinbox.imapserver 127.0.0.1
	git config --file "$PI_CONFIG" publicinbox.nntpserver 127.0.0.1
	# entries in new.atom (public-inbox's default: 25)
	if [ -n "${PI_FEEDMAX:-}" ]; then
		git config --file "$PI_CONFIG" publicinbox.test.feedmax "$PI_FEEDMAX"
	fi

	# public-inbox's web app with an access log, so the tests can count
	# requests and see 304s.  public-inbox (1.9) sends neither ETag nor
	# Last-Modified for new.atom; a caching proxy in front of it would.
	# This plays that proxy: the validators come from msgmap.sqlite3,
	# which every delivery writes.  (Paths come from the environment.)
	: >"$PI_ACCESS_LOG"
	cat >"$IT/pi/app.psgi" <<'EOF'
use strict;
use Plack::Builder;
use Plack::Util;
use HTTP::Date ();
use Time::HiRes ();
use PublicInbox::WWW;
my $www = PublicInbox::WWW->new;
$www->preload;
my $msgmap = "$ENV{PI_DIR}/msgmap.sqlite3";
open(my $log, '>>', $ENV{PI_ACCESS_LOG}) or die "access log: $!";
$log->autoflush(1);
sub feed_tag {
	my @st = Time::HiRes::stat($msgmap) or return ('"none"', 0);
	(sprintf('"%d-%d-%.6f"', $st[1], $st[7], $st[9]), int($st[9]));
}
builder {
	enable 'AccessLog',
		format => '%h "%r" %>s %b "%{If-None-Match}i" "%{If-Modified-Since}i"',
		logger => sub { print $log @_ };
	enable 'Head';
	sub {
		my ($env) = @_;
		return $www->call($env) if $env->{PATH_INFO} !~ m{/new\.atom\z};
		# $PI_DIR.nopaging present: a server that ignores ?t=
		$env->{QUERY_STRING} = '' if -e "$ENV{PI_DIR}.nopaging";
		my ($etag, $mtime) = feed_tag();
		my $inm = $env->{HTTP_IF_NONE_MATCH};
		my $ims = $env->{HTTP_IF_MODIFIED_SINCE};
		my $lm = HTTP::Date::time2str($mtime);
		if (defined($inm) ? $inm eq $etag :
		    defined($ims) && (HTTP::Date::str2time($ims) // -1) >= $mtime) {
			return [ 304, [ 'ETag', $etag, 'Last-Modified', $lm ], [] ];
		}
		Plack::Util::response_cb($www->call($env), sub {
			my ($r) = @_;
			return if $r->[0] != 200;
			Plack::Util::header_set($r->[1], 'ETag', $etag);
			Plack::Util::header_set($r->[1], 'Last-Modified', $lm);
		});
	};
};
EOF
	# (netd 1.9 ignores "?psgi=" on a socket it binds itself; the app
	# goes as the argument, as for public-inbox-httpd)
	it_bg pi-netd public-inbox-netd -W0 \
		-l "http://127.0.0.1:$p_http" \
		-l "imap://127.0.0.1:$p_imap" \
		-l "nntp://127.0.0.1:$p_nntp" "$IT/pi/app.psgi"
	it_wait_port "$p_http" 30 && it_wait_port "$p_imap" 10 &&
		it_wait_port "$p_nntp" 10 ||
		{ cat "$IT/pi-netd.log" >&2; return 1; }
}

pi_count() {
	/usr/bin/python3 - "$PI_DIR/msgmap.sqlite3" <<'PY'
import sqlite3, sys
db = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
print(db.execute('SELECT COUNT(*) FROM msgmap').fetchone()[0])
PY
}

pi_deliver() {
	local f=$1 tmp=$IT/pi/deliver.eml before after
	/usr/bin/python3 - "$f" "$tmp" "$PI_ADDRESS" <<'PY' || return 1
import sys
raw = open(sys.argv[1], 'rb').read()
addr = sys.argv[3].encode()
if raw.startswith(b'From '):
    raw = raw.split(b'\n', 1)[1]
nl = b'\r\n' if b'\r\n' in raw[:2000] else b'\n'
cut = raw.find(nl + nl)
head, body = (raw, b'') if cut < 0 else (raw[:cut + len(nl)], raw[cut + len(nl):])
# unfold To/Cc to look for the inbox address
cur, found = None, False
for line in head.split(nl):
    if line[:1] in (b' ', b'\t'):
        if cur in (b'to', b'cc') and addr in line.lower():
            found = True
        continue
    cur = line.split(b':', 1)[0].strip().lower()
    if cur in (b'to', b'cc') and addr in line.lower():
        found = True
if not found:
    head += b'Cc: ' + addr + nl
open(sys.argv[2], 'wb').write(head + body)
PY
	before=$(pi_count)
	ORIGINAL_RECIPIENT=$PI_ADDRESS public-inbox-mda <"$tmp" \
		>>"$IT/pi/mda.log" 2>&1 || { cat "$IT/pi/mda.log" >&2; return 1; }
	after=$(pi_count)
	if [ "$after" -le "$before" ]; then
		echo "pi_deliver: $f was not archived (dropped or a duplicate)" >&2
		return 1
	fi
}

pi_deliver_mbox() {
	local mbox=$1 d=$IT/pi/split f rc=0
	rm -rf "$d"
	mkdir -p "$d"
	/usr/bin/python3 - "$mbox" "$d" <<'PY' || return 1
import mailbox, os, sys
for i, m in enumerate(mailbox.mbox(sys.argv[1])):
    with open(os.path.join(sys.argv[2], '%04d.eml' % i), 'wb') as f:
        f.write(m.as_bytes(unixfrom=False))
PY
	for f in "$d"/*.eml; do
		pi_deliver "$f" || rc=1
	done
	return $rc
}

pi_http_requests() {
	grep -cE "\"$1" "$PI_ACCESS_LOG"
}

pi_http_status() {
	grep -E "\"$1" "$PI_ACCESS_LOG" | sed -E 's/^[^"]*"[^"]*" ([0-9]{3}) .*/\1/'
}

pi_paging() {
	if [ "$1" = off ]; then : >"$PI_DIR.nopaging"; else rm -f "$PI_DIR.nopaging"; fi
}
