#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/run-suites.sh LOGDIR SUITE...: `make SUITE` for each suite in
# turn, every one of them even after one fails (their output as usual,
# and a copy in LOGDIR/SUITE.log), then one line for them all: how many
# suites passed, which failed, and the tests their tally lines count
# ("NAME: N passed, M failed", cmocka's "[  PASSED  ] N test(s)").
# Exits 1 when a suite failed.  `make check` runs it.
set -u
logs=$1
shift
mkdir -p "$logs"
ok=0
failed=
for t in "$@"; do
	${MAKE:-make} --no-print-directory "$t" 2>&1 | tee "$logs/$t.log"
	if [ "${PIPESTATUS[0]}" -eq 0 ]; then
		ok=$((ok + 1))
	else
		failed="$failed $t"
	fi
done
counts=$(for t in "$@"; do cat "$logs/$t.log"; done | LC_ALL=C awk '
	/^([A-Za-z0-9_ .-]+: )?[0-9]+ passed, [0-9]+ failed/ {
		s = $0; sub(/^[A-Za-z0-9_ .-]+: /, "", s)
		split(s, w, " "); p += w[1]; f += w[3]; next
	}
	/^\[  PASSED  \] [0-9]+ test/ { p += $4; next }
	/^\[  FAILED  \] [0-9]+ test/ { f += $4; next }
	END { printf "%d tests passed, %d failed", p, f }')
if [ -z "$failed" ]; then
	echo "make check: all $ok suites passed; $counts"
else
	echo "make check: $ok of $# suites passed, failed:$failed; $counts"
	exit 1
fi
