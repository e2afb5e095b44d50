#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot check over many files: a progress line on stderr when it is
# a terminal (a pty from script(1)), cleared at the end; nothing when it
# is not, or for a few files; standard output the same either way.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

mapfile -t many < <(ls "$repo"/tests/checker/*/in.patch | head -40)
few=("${many[@]:0:5}")
n=${#many[@]}
[ "$n" -gt 20 ] || { echo "not ok - need more than 20 golden cases"; exit 1; }

# not a terminal: stderr stays empty
"$rb" check --no-tree "${many[@]}" >"$tmp/out.plain" 2>"$tmp/err.plain"
st_plain=$?
check "no terminal: nothing on stderr" "[ ! -s '$tmp/err.plain' ]"

# stderr a terminal, stdout a file
printf '%q ' "$rb" check --no-tree "${many[@]}" >"$tmp/cmd"
script -qec "$(cat "$tmp/cmd") >$tmp/out.tty" "$tmp/typescript" >/dev/null 2>&1
st_tty=$?
check "on a terminal: the same exit status" "[ $st_plain -eq $st_tty ]"
check "on a terminal: stdout unchanged" "cmp -s '$tmp/out.plain' '$tmp/out.tty'"
check "on a terminal: a progress line with the count" \
	"grep -aq 'reviewbot check: [0-9]*/$n files' '$tmp/typescript'"
# the last thing written is the clearing: \r, blanks, \r
tr '\r' '\n' <"$tmp/typescript" | grep -av '^Script ' | sed '/^$/d' >"$tmp/lines"
check "on a terminal: the line is cleared at the end" \
	"[ -z \"\$(tail -n 1 '$tmp/lines' | tr -d ' ')\" ]"
# what the program wrote to the terminal: script's first and last lines
# are its own
sed -e '1d' -e '$d' "$tmp/typescript" >"$tmp/tty"
check "on a terminal: one line rewritten with \\r, no newline" \
	"grep -aq \$'\\r' '$tmp/tty' && [ \$(tr -dc '\\n' <'$tmp/tty' | wc -c) -le 1 ]"

# a few files: no progress even on a terminal
printf '%q ' "$rb" check --no-tree "${few[@]}" >"$tmp/cmd"
script -qec "$(cat "$tmp/cmd") >$tmp/out.few" "$tmp/typescript.few" >/dev/null 2>&1
check "on a terminal, 20 files or fewer: no progress" \
	"! grep -aq 'reviewbot check: ' '$tmp/typescript.few'"

# --json is machine output too: same bytes with and without a terminal
"$rb" check --json "${many[@]}" >"$tmp/json.plain" 2>/dev/null
printf '%q ' "$rb" check --json "${many[@]}" >"$tmp/cmd"
script -qec "$(cat "$tmp/cmd") >$tmp/json.tty" "$tmp/typescript.json" >/dev/null 2>&1
check "--json on a terminal: stdout unchanged" "cmp -s '$tmp/json.plain' '$tmp/json.tty'"

echo "progress: $pass passed, $fail failed"
[ $fail -eq 0 ]
