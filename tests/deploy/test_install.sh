#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make install DESTDIR=...: the layout (program, helper, templates, the
# misspelling list, man pages 1 5 7 8, the unit, the example configuration), the installed
# program finds its installed helper and templates, and make uninstall
# takes every file away again.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C HOME=$tmp
unset REVIEWBOT_CONFIG REVIEWBOT_EXEC_PATH

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

dest=$tmp/root
# SANITIZE (and the rest of the caller's make command line) comes along
# in MAKEFLAGS when make check runs this
make -C "$repo" --no-print-directory install DESTDIR="$dest" PREFIX=/usr \
	>"$tmp/install.log" 2>&1
st=$?
check "make install DESTDIR=... PREFIX=/usr succeeds" "[ $st -eq 0 ]"
[ $st -eq 0 ] || tail -n 20 "$tmp/install.log"

mode() { stat -c %a "$1" 2>/dev/null; }
for f in usr/bin/reviewbot usr/libexec/reviewbot/reviewbot-mail \
	usr/libexec/reviewbot/reviewbot-serve; do
	check "$f installed, mode 755" "[ -f '$dest/$f' ] && [ \"\$(mode '$dest/$f')\" = 755 ]"
done
for f in usr/share/man/man1/reviewbot.1 usr/share/man/man5/reviewbot.conf.5 \
	usr/share/man/man7/reviewbot-rules.7 usr/share/man/man8/reviewbot.8 \
	usr/lib/systemd/system/reviewbot.service \
	usr/lib/systemd/system/reviewbot-serve.service \
	usr/share/doc/reviewbot/reviewbot.conf.example; do
	check "$f installed, mode 644" "[ -s '$dest/$f' ] && [ \"\$(mode '$dest/$f')\" = 644 ]"
done
for t in "$repo"/templates/*.txt; do
	f=usr/share/reviewbot/templates/$(basename "$t")
	check "$f installed as in templates/" "cmp -s '$t' '$dest/$f'"
done
check "the installed unit runs /usr/bin/reviewbot" \
	"grep -qx 'ExecStart=/usr/bin/reviewbot run --config /etc/reviewbot/reviewbot.conf' '$dest/usr/lib/systemd/system/reviewbot.service'"
check "the installed serve unit runs /usr/bin/reviewbot serve" \
	"grep -qx 'ExecStart=/usr/bin/reviewbot serve --config /etc/reviewbot/reviewbot.conf' '$dest/usr/lib/systemd/system/reviewbot-serve.service'"
check "nothing is installed into /etc" "[ ! -e '$dest/etc' ]"
check "every installed man page renders without a warning" \
	"for m in '$dest'/usr/share/man/man*/*; do [ -z \"\$(groff -man -Tutf8 -ww -z \"\$m\" 2>&1)\" ] || exit 1; done"

# the installed program: --version, and `review` through the installed
# helper (../libexec/reviewbot from bin/) with the installed templates
irb=$dest/usr/bin/reviewbot
check "installed reviewbot --version" "'$irb' --version | grep -q '^reviewbot [0-9]'"
"$irb" review "$repo/examples/0001-leds-add-driver-for-the-acme-led-controller.patch" \
	>"$tmp/review" 2>"$tmp/review.err"
st=$?
check "installed reviewbot review prints a review mail" \
	"[ $st -eq 0 ] && grep -q '^Subject: Re: ' '$tmp/review' && grep -q '^Auto-Submitted: auto-generated' '$tmp/review'"
check "... with checkpatch.pl's misspelling list, built in" \
	"! grep -q no-spelling-list '$tmp/review.err'"
[ $st -eq 0 ] || cat "$tmp/review.err"
# it was the installed helper: without it, review cannot run
mv "$dest/usr/libexec/reviewbot/reviewbot-mail" "$tmp/helper"
"$irb" review "$repo/examples/0001-leds-add-driver-for-the-acme-led-controller.patch" \
	>/dev/null 2>"$tmp/nohelper"
st=$?
check "without the installed helper, review says it cannot find it" \
	"[ $st -eq 2 ] && grep -q 'cannot find reviewbot-mail' '$tmp/nohelper'"
mv "$tmp/helper" "$dest/usr/libexec/reviewbot/reviewbot-mail"
# serve runs the installed web helper
"$irb" serve --help >"$tmp/serve.help" 2>&1
check "installed reviewbot serve runs its helper" "grep -q '^Usage: reviewbot serve' '$tmp/serve.help'"

# a configuration without [bot] templates: the installed program finds
# the installed templates (before: it looked in /usr/local whatever the
# PREFIX of make install, and run -n failed)
mkdir -p "$tmp/state"
cat >"$tmp/inst.conf" <<EOF
[bot]
	database = $tmp/state/reviewbot.db
[source "l"]
	type = mbox
	path = $repo/examples/lkml-sample.mbox
[delivery]
	type = maildir
	path = $tmp/state/outbox
EOF
"$irb" run -n --config "$tmp/inst.conf" >"$tmp/runn" 2>&1; st=$?
check "installed run -n without [bot] templates: configuration OK" \
	"[ $st -eq 0 ] && grep -qx 'configuration OK' '$tmp/runn' || { cat '$tmp/runn'; false; }"
mv "$dest/usr/share/reviewbot/templates" "$tmp/tpl"
"$irb" run -n --config "$tmp/inst.conf" >"$tmp/runn" 2>&1; st=$?
check "... they were the installed ones (gone: run -n names where it looked)" \
	"[ $st -ne 0 ] && grep -qF '$dest/usr/libexec/reviewbot/../../share/reviewbot/templates' '$tmp/runn' || { cat '$tmp/runn'; false; }"
mv "$tmp/tpl" "$dest/usr/share/reviewbot/templates"
check "no install path of another PREFIX is built in (/usr/local/share, /usr/local/libexec)" \
	"! grep -qE '/usr/local/(share|libexec)' '$dest/usr/bin/reviewbot' '$dest/usr/libexec/reviewbot/reviewbot-mail'"

# another layout (helper and templates not under PREFIX/libexec and
# PREFIX/share): what depends on the install paths is rebuilt for it
dest2=$tmp/root2
lay="PREFIX=/opt/rb LIBEXECDIR=/opt/rb/lib DATADIR=/opt/rb/data"
make -C "$repo" --no-print-directory install DESTDIR="$dest2" $lay >"$tmp/install2.log" 2>&1
st=$?
"$dest2/opt/rb/bin/reviewbot" review "$repo/examples/0001-leds-add-driver-for-the-acme-led-controller.patch" \
	>"$tmp/review2" 2>&1
check "make install with LIBEXECDIR and DATADIR elsewhere: its program finds its helper and templates" \
	"[ $st -eq 0 ] && [ -f '$dest2/opt/rb/data/reviewbot/templates/review.txt' ] &&
	 grep -q '^Subject: Re: ' '$tmp/review2' || { tail -n 20 '$tmp/install2.log' '$tmp/review2'; false; }"
make -C "$repo" --no-print-directory uninstall DESTDIR="$dest2" $lay >/dev/null 2>&1

make -C "$repo" --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr \
	>"$tmp/uninstall.log" 2>&1
st=$?
check "make uninstall succeeds" "[ $st -eq 0 ]"
left=$(cd "$dest" && find . ! -type d | sort)
check "make uninstall leaves no file" "[ -z '$left' ]"
[ -z "$left" ] || echo "$left"
left=$(cd "$dest" && find . -type d -name '*reviewbot*')
check "make uninstall leaves no reviewbot folder" "[ -z '$left' ]"
[ -z "$left" ] || echo "$left"

echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
