#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The README's five-minute tour, command by command, as a reader types
# them after cloning: the commands are read from the README itself (its
# indented lines in "A five-minute tour"), run in the tree in order, and
# each must work.  `make run` must build what the later commands use
# (`reviewbot serve` said "cannot find reviewbot-serve" after it, and the
# generated man pages were not there); the web search box's example must
# find something in the bundled archive (since:30d found nothing).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib.sh"
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
serve_pid=
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
export LC_ALL=C
unset REVIEWBOT_CONFIG REVIEWBOT_EXEC_PATH

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

cd "$repo" || exit 1
# what `make run` builds in a fresh clone (a build folder of its own,
# nothing made: make -n)
make -n --no-print-directory run BUILD="$tmp/fresh" >"$tmp/plan" 2>&1
check "make run in a fresh clone builds reviewbot serve's helper and the man pages" \
	"grep -q 'libexec/reviewbot/reviewbot-serve' '$tmp/plan' &&
	 grep -q 'man/reviewbot.conf.5' '$tmp/plan' && grep -q 'man/reviewbot-rules.7' '$tmp/plan'"

awk '/^## A five-minute tour/ { f = 1; next } /^## / { f = 0 } f && /^    [^ ]/ { sub(/^    /, ""); print }' \
	README.md >"$tmp/tour"
check "the README's tour has its commands (make run first)" \
	"[ \$(wc -l <'$tmp/tour') -ge 10 ] && [ \"\$(head -1 '$tmp/tour')\" = 'make run' ]"

port=
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	out=$tmp/out.$n
	case $cmd in
	"make run")
		# (SANITIZE and the rest of make check's command line come
		# along in MAKEFLAGS)
		make -s --no-print-directory run >"$out" 2>&1; st=$?
		check "tour: $cmd" "[ $st -eq 0 ] || { tail -5 '$out'; false; }"
		;;
	"less "*)
		cat ${cmd#less } >"$out" 2>&1; st=$?
		check "tour: $cmd (as cat)" "[ $st -eq 0 ] && grep -q '^Subject: Re: ' '$out'"
		;;
	*" serve "*)
		# in the background, on a free port
		c=${cmd/.\/reviewbot/$rb}
		$c --listen 127.0.0.1:0 >"$tmp/serve.log" 2>&1 &
		serve_pid=$!
		port=$(serve_port "$tmp/serve.log" 100)
		check "tour: $cmd (listening)" "[ -n '$port' ] || { cat '$tmp/serve.log'; false; }"
		;;
	curl*)
		c=${cmd//8080/$port}
		eval "$c" >"$out" 2>&1; st=$?
		check "tour: $cmd" "[ $st -eq 0 ] && grep -q 'UAPI_' '$out' || { head -c 300 '$out'; false; }"
		;;
	"man -l "*)
		MANPAGER=cat MANWIDTH=80 $cmd >"$out" 2>&1; st=$?
		check "tour: $cmd" "[ $st -eq 0 ] && [ \$(wc -l <'$out') -gt 20 ] || { head -5 '$out'; false; }"
		;;
	*)
		c=${cmd/.\/reviewbot/$rb}
		eval "$c" >"$out" 2>&1; st=$?
		# check exits 1 when it finds something, as checkpatch.pl does
		case $cmd in
		*" check "*) check "tour: $cmd" "[ $st -le 1 ] && [ -s '$out' ] || { tail -3 '$out'; false; }" ;;
		*) check "tour: $cmd" "[ $st -eq 0 ] && [ -s '$out' ] || { tail -3 '$out'; false; }" ;;
		esac
		;;
	esac
done <"$tmp/tour"

# the search box's example, and the help page's, find something here
if [ -n "$port" ]; then
	curl -s "http://127.0.0.1:$port/search" >"$tmp/help"
	ex=$(sed -n 's/.*Example: <a href="\([^"]*\)".*/\1/p' "$tmp/help")
	ph=$(sed -n 's/.*placeholder="\([^"]*\)".*/\1/p' "$tmp/help" | head -1)
	curl -s "http://127.0.0.1:$port$ex" >"$tmp/example"
	curl -s -G "http://127.0.0.1:$port/search" --data-urlencode "q=$ph" >"$tmp/placeholder"
	check "the search help's example ($ex) finds the archive's findings" \
		"[ -n '$ex' ] && grep -q 'UAPI_' '$tmp/example'"
	check "the search box's example ($ph) finds them too" "grep -q 'UAPI_' '$tmp/placeholder'"
fi

echo "tour: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
