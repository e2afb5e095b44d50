#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The systemd unit: generated with the install's paths, accepted by
# systemd-analyze verify (with its man pages found), sandboxed as
# reviewbot(8) says; and the checker under MemoryDenyWriteExecute=
# (pcre2's JIT fails there) prints what it prints without it.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
build=${BUILD:-$repo/build}
pass=0
fail=0
skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
skipped() { skip=$((skip + 1)); echo "ok - $1 # skip $2"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

in=$repo/deploy/reviewbot.service.in
unit=$build/deploy/reviewbot.service

# the Makefile's copy: every placeholder filled, the default paths
check "the unit is generated" "[ -s '$unit' ]"
check "no @PLACEHOLDER@ is left" "! grep -q '@[A-Z]*@' '$unit'"
check "ExecStart runs the installed program with the system config" \
	"grep -qx 'ExecStart=/.*/bin/reviewbot run --config /etc/reviewbot/reviewbot.conf' '$unit'"

# the directives issue 8 asks for, each with the value reviewbot(8) states
for d in 'Type=simple' 'DynamicUser=yes' 'StateDirectory=reviewbot' \
	'ExecReload=/bin/kill -HUP $MAINPID' 'KillSignal=SIGTERM' \
	'NoNewPrivileges=yes' 'ProtectSystem=strict' 'ProtectHome=yes' \
	'PrivateTmp=yes' 'PrivateDevices=yes' \
	'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' \
	'SystemCallFilter=@system-service' 'CapabilityBoundingSet=' \
	'LockPersonality=yes' 'MemoryDenyWriteExecute=yes'; do
	check "unit has $d" "grep -qxF -- '$d' '$in'"
done
# CapabilityBoundingSet= must be empty, not merely present
check "CapabilityBoundingSet is empty" \
	"[ \"\$(grep '^CapabilityBoundingSet=' '$in')\" = 'CapabilityBoundingSet=' ]"

# systemd-analyze verify on a copy whose binary exists (the build's), with
# the man pages of Documentation= on MANPATH so they are checked too
mkdir -p "$tmp/unit" "$tmp/man/man5" "$tmp/man/man8"
sed -e "s|@BINDIR@|$(dirname "$rb")|g" -e 's|@SYSCONFDIR@|/etc|g' "$in" \
	>"$tmp/unit/reviewbot.service"
cp "$repo/deploy/man/reviewbot.8" "$tmp/man/man8/"
cp "$build/man/reviewbot.conf.5" "$tmp/man/man5/"
if command -v systemd-analyze >/dev/null; then
	(cd "$tmp/unit" && MANPATH=$tmp/man systemd-analyze verify ./reviewbot.service) \
		>"$tmp/verify" 2>&1
	st=$?
	check "systemd-analyze verify accepts the unit" "[ $st -eq 0 ] && ! [ -s '$tmp/verify' ]"
	[ $st -eq 0 ] && [ -s "$tmp/verify" ] || cat "$tmp/verify"
	# the check is real: a unit naming a missing program is refused
	sed -e "s|@BINDIR@|$tmp/nowhere|g" -e 's|@SYSCONFDIR@|/etc|g' "$in" \
		>"$tmp/unit/reviewbot.service"
	(cd "$tmp/unit" && MANPATH=$tmp/man systemd-analyze verify ./reviewbot.service) \
		>/dev/null 2>&1
	check "systemd-analyze verify refuses a unit with a missing program" "[ $? -ne 0 ]"
else
	skipped "systemd-analyze verify accepts the unit" "no systemd-analyze"
fi

# reviewbot-serve.service: the same sandbox, the same dynamic user and
# state folder as the daemon's unit, and accepted by systemd-analyze
sin=$repo/deploy/reviewbot-serve.service.in
check "the serve unit is generated" \
	"[ -s '$build/deploy/reviewbot-serve.service' ] && ! grep -q '@[A-Z]*@' '$build/deploy/reviewbot-serve.service'"
check "the serve unit runs reviewbot serve with the system config" \
	"grep -qx 'ExecStart=/.*/bin/reviewbot serve --config /etc/reviewbot/reviewbot.conf' '$build/deploy/reviewbot-serve.service'"
for d in 'DynamicUser=yes' 'User=reviewbot' 'StateDirectory=reviewbot' 'NoNewPrivileges=yes' \
	'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' 'PrivateDevices=yes' \
	'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' 'SystemCallFilter=@system-service' \
	'CapabilityBoundingSet=' 'MemoryDenyWriteExecute=yes'; do
	check "serve unit has $d" "grep -qxF -- '$d' '$sin'"
done
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$tmp/man/man1" && cp "$repo/deploy/man/reviewbot.1" "$tmp/man/man1/"
	sed -e "s|@BINDIR@|$(dirname "$rb")|g" -e 's|@SYSCONFDIR@|/etc|g' "$sin" \
		>"$tmp/unit/reviewbot-serve.service"
	(cd "$tmp/unit" && MANPATH=$tmp/man systemd-analyze verify ./reviewbot-serve.service) \
		>"$tmp/verify" 2>&1
	st=$?
	check "systemd-analyze verify accepts the serve unit" "[ $st -eq 0 ] && ! [ -s '$tmp/verify' ]"
	[ $st -eq 0 ] && [ -s "$tmp/verify" ] || cat "$tmp/verify"
else
	skipped "systemd-analyze verify accepts the serve unit" "no systemd-analyze"
fi

# MemoryDenyWriteExecute=: pcre2's JIT fails, the checker falls back to
# the interpreter with the same output
mdwe=$tmp/mdwe_exec
if cc -std=c11 -D_GNU_SOURCE -o "$mdwe" "$repo/tests/deploy/mdwe_exec.c" \
	$(pkg-config --cflags --libs libpcre2-8) 2>"$tmp/cc"; then
	jit_off=$("$mdwe" --jit-probe)
	jit_on=$("$mdwe" --jit-probe on 2>/dev/null); st=$?
	if [ $st -eq 77 ]; then
		skipped "the checker works under MemoryDenyWriteExecute" "kernel without PR_SET_MDWE"
	else
		check "pcre2's JIT works without MDWE" "[ '$jit_off' = 0 ]"
		check "pcre2's JIT fails under MDWE (the unit's comment)" "[ '$jit_on' -lt 0 ]"
		pats=$(ls "$repo"/examples/*.patch "$repo"/tests/checker/*/in.patch 2>/dev/null | head -60)
		# shellcheck disable=SC2086
		"$rb" check --no-tree --strict --show-types $pats >"$tmp/plain" 2>&1
		st1=$?
		# shellcheck disable=SC2086
		"$mdwe" "$rb" check --no-tree --strict --show-types $pats >"$tmp/mdwe" 2>&1
		st2=$?
		check "reviewbot check under MDWE: same output, same status" \
			"[ $st1 -eq $st2 ] && cmp -s '$tmp/plain' '$tmp/mdwe'"
	fi
else
	cat "$tmp/cc"
	bad "tests/deploy/mdwe_exec.c compiles"
fi

echo "unit: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
