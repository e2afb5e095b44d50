#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot run -n checks what the daemon will need before it starts:
# the templates (found beside the program when [bot] templates is not
# set, here the build tree's), maildir and mbox sources, password files,
# the database's folder, the outbox; and a maildir source that does not
# exist is an error for the daemon too, not an empty source.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

mkdir -p "$tmp/db" "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
cp "$repo/examples/lkml-sample.mbox" "$tmp/list.mbox"
printf 'secret\n' >"$tmp/pw"
chmod 600 "$tmp/pw"
# conf EXTRA-SOURCE-LINES [DATABASE]: no `templates =`
conf() {
	cat >"$tmp/rb.conf" <<EOF
[bot]
	database = ${2:-$tmp/db/reviewbot.db}
[source "list"]
	type = maildir
	path = $tmp/list
[source "archive"]
	type = mbox
	path = $tmp/list.mbox
$1
[delivery]
	type = maildir
	path = $tmp/db/outbox
[policy]
	max_age = 0	# the example archive is dated November 2026
EOF
}
runn() { "$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1; }

conf ""
runn; st=$?
check "no [bot] templates: the build tree's templates/ are found (configuration OK)" \
	"[ $st -eq 0 ] && grep -qx 'configuration OK' '$tmp/out' || { cat '$tmp/out'; false; }"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>&1; st=$?
check "... and run --once reviews with them" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/db/outbox/new' | wc -l) -ge 1 ] || { cat '$tmp/out'; false; }"

sed -i "s|path = $tmp/list\$|path = $tmp/nosuch|" "$tmp/rb.conf"
runn; st=$?
check "a maildir source that does not exist: FILE:LINE, the source, why" \
	"[ $st -ne 0 ] && grep -q \"rb.conf:3: source \\\"list\\\": maildir $tmp/nosuch: No such file or directory\" '$tmp/out' || { cat '$tmp/out'; false; }"
"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>&1; st=$?
check "... and for the daemon an error, not an empty source (run --once exits 1)" \
	"[ $st -eq 1 ] && grep -q 'level=warn event=source-failed source=list error=\"maildir $tmp/nosuch: No such file or directory\"' '$tmp/out' || { cat '$tmp/out'; false; }"
mkdir -p "$tmp/notmd"
sed -i "s|path = $tmp/nosuch\$|path = $tmp/notmd|" "$tmp/rb.conf"
runn; st=$?
check "a folder that is not a maildir" "[ $st -ne 0 ] && grep -q 'not a maildir (no cur/ and new/ folders)' '$tmp/out'"

conf ""
sed -i "s|path = $tmp/list.mbox|path = $tmp/gone.mbox|" "$tmp/rb.conf"
runn; st=$?
check "an mbox source that does not exist" \
	"[ $st -ne 0 ] && grep -q \"rb.conf:6: source \\\"archive\\\": mbox $tmp/gone.mbox: No such file or directory\" '$tmp/out'"

conf "[source \"imap\"]
	type = imap
	url = imap://bot@127.0.0.1:1/INBOX
	password_file = $tmp/pw"
runn; st=$?
check "a private password file: configuration OK (nothing is connected to)" "[ $st -eq 0 ] || { cat '$tmp/out'; false; }"
chmod 644 "$tmp/pw"
runn; st=$?
check "a password file others may read" \
	"[ $st -ne 0 ] && grep -q 'rb.conf:9: source \"imap\": password file .*readable by others' '$tmp/out'"
rm -f "$tmp/pw"
runn; st=$?
check "a password file that is missing" \
	"[ $st -ne 0 ] && grep -q \"password file $tmp/pw: No such file or directory\" '$tmp/out'"
conf "[source \"imap\"]
	type = imap
	url = imap://bot@127.0.0.1:1/INBOX
	password_env = RB_TEST_NO_SUCH_VARIABLE"
runn; st=$?
check "a password variable that is not set" \
	"[ $st -ne 0 ] && grep -q 'RB_TEST_NO_SUCH_VARIABLE is not set' '$tmp/out'"

conf "" "$tmp/nodir/reviewbot.db"
runn; st=$?
check "a database folder that does not exist" \
	"[ $st -ne 0 ] && grep -q \"\\[bot\\] database: $tmp/nodir: No such file or directory\" '$tmp/out'"

# as the user the daemon runs as: root checks as [bot] user
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 755 "$tmp"
	chmod -R go+rX "$tmp/list" "$tmp/list.mbox"
	mkdir -p "$tmp/rootdb"
	chmod 700 "$tmp/rootdb"
	conf "" "$tmp/rootdb/reviewbot.db"
	sed -i 's/^\[bot\]$/&\n\tuser = nobody/' "$tmp/rb.conf"
	sed -i "s|path = $tmp/db/outbox|path = $tmp/rootdb/outbox|" "$tmp/rb.conf"
	runn; st=$?
	check "as root with [bot] user: a database folder only root may write is refused" \
		"[ $st -ne 0 ] && grep -q \"\\[bot\\] database: $tmp/rootdb: not writable (Permission denied)\" '$tmp/out' || { cat '$tmp/out'; false; }"
	chown nobody "$tmp/rootdb"
	runn; st=$?
	check "... and accepted once that user may" "[ $st -eq 0 ] || { cat '$tmp/out'; false; }"
fi

echo "run -n: $pass passed, $fail failed"
[ $fail -eq 0 ]
